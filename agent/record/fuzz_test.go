package record

import (
	"strings"
	"testing"
)

// FuzzTeX checks the LaTeX escaping on any input: no special character is
// left unescaped (math only where the escaper put it, in pairs), and the
// answer splitters never panic.
func FuzzTeX(f *testing.F) {
	for _, s := range []string{"50% of {braces}_x & #1 $z\\sim6$", "α ± 3 M⊙ — “quoted”…", "~^<>|", "", "a\n\nb", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := tex(s)
		dollars := 0
		for i := 0; i < len(out); i++ {
			escaped := i > 0 && out[i-1] == '\\'
			switch out[i] {
			case '#', '%', '&', '_':
				if !escaped {
					t.Fatalf("tex(%q) = %q leaves %q unescaped", s, out, out[i])
				}
			case '$':
				if !escaped {
					dollars++
				}
			}
		}
		if dollars%2 != 0 {
			t.Fatalf("tex(%q) = %q opens math it does not close", s, out)
		}
		texText(s)
		sentences(s)
		identifiers(s)
		if p := plain(s); strings.Contains(p, "  ") {
			t.Fatalf("plain(%q) = %q keeps double spaces", s, p)
		}
	})
}
