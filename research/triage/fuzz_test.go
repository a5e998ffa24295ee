package triage

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFold checks the matcher's text folding on any input: it never
// panics, output is padded lower-case words, and folding is idempotent.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"NGC 4258", "M106", "Ångström", "", "  --  ", "4258A", "Lyα emitters at z~6", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := fold(s)
		if !strings.HasPrefix(out, " ") || !strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
			t.Fatalf("fold(%q) = %q: not single-spaced and padded", s, out)
		}
		if !utf8.ValidString(out) && utf8.ValidString(s) {
			t.Fatalf("fold(%q) = %q is not valid UTF-8", s, out)
		}
		if again := fold(out); again != out {
			t.Fatalf("fold is not idempotent: %q → %q → %q", s, out, again)
		}
		parseAuthor(s).matches(s)
		eachTerm(s, func(w string) {
			if len(w) < 2 {
				t.Fatalf("term %q from %q is too short", w, s)
			}
		})
	})
}
