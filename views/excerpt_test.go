package views

import (
	"strings"
	"testing"
)

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

// FuzzPlainExcerpt: any text comes out without heading markers at line
// starts and never longer than it went in.
func FuzzPlainExcerpt(f *testing.F) {
	for _, s := range []string{"## ABSTRACT\ntext", "[a](b) **c** `d`", "| a |\n|---|", "$x_1$", "\r\n# x\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := plainExcerpt(s)
		if len(got) > len(s) {
			t.Fatalf("plainExcerpt(%q) = %q grew", s, got)
		}
		for line := range strings.Lines(got) {
			if mdHeading.MatchString(line) && strings.TrimSpace(mdHeading.ReplaceAllString(line, "")) != "" && strings.HasPrefix(strings.TrimSpace(line), "# ") {
				t.Fatalf("plainExcerpt(%q) = %q keeps a heading marker", s, got)
			}
		}
	})
}
