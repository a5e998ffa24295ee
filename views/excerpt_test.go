package views

import "testing"

func TestPlainExcerpt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"## ABSTRACT\nWe measure $H_0$ with **Cepheids**.", "ABSTRACT\nWe measure $H_0$ with Cepheids."},
		{"See [Riess et al.](https://doi.org/10.3847/x) and ![Fig. 1](fig1.png).", "See Riess et al. and Fig. 1."},
		{"| a | b |\n|---|---|\n| 1 | 2 |", "| a | b |\n| 1 | 2 |"},
		{"> quoted `code`\n\n---\nafter", "quoted code\n\nafter"},
		{"$a_{b} * c_d$ stays", "$a_{b} * c_d$ stays"},
	} {
		if got := plainExcerpt(tc.in); got != tc.want {
			t.Errorf("plainExcerpt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
