package ads

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQueryBuilders(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{ByBibcode(" 2019ApJ...875L...1E "), `bibcode:"2019ApJ...875L...1E"`},
		{ByBibcode(`x" OR *:*`), `bibcode:"x\" OR *:*"`},
		{ByDOI("https://doi.org/10.3847/2041-8213/ab0ec7"), `doi:"10.3847/2041-8213/ab0ec7"`},
		{ByDOI(`10.1000/a"b\c`), `doi:"10.1000/a\"b\\c"`},
		{ByDOI("not a doi"), `doi:"not a doi"`},
		{ByArxiv("arXiv:1906.11238v2"), `identifier:"arXiv:1906.11238"`},
		{ByArxiv("astro-ph/0601001"), `identifier:"arXiv:astro-ph/0601001"`},
		{ByArxiv(`arxiv:bad") OR ("`), `identifier:"arXiv:bad\") OR (\""`},
		{CitationsOf("2019ApJ...875L...1E"), `citations(bibcode:"2019ApJ...875L...1E")`},
		{ReferencesOf("2019A&A...623A..24A"), `references(bibcode:"2019A&A...623A..24A")`},
		{CitationsOf("a\"b\nc"), `citations(bibcode:"a\"b c")`},
		{Quote("tab\there\x00"), `"tab here "`},
		{Quote("\\"), `"\\"`},
		{Quote("\xff"), "\"\uFFFD\""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}

// phraseEnd returns the index of the quote closing the phrase that starts
// at q[0], honouring backslash escapes, or -1.
func phraseEnd(q string) int {
	for i := 1; i < len(q); i++ {
		switch q[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", `"`, `\`, `\"`, `a" OR b:"c`, "\x00\n", "é\xff", `\\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if !utf8.ValidString(q) {
			t.Fatalf("Quote(%q) = %q is not valid UTF-8", s, q)
		}
		// The phrase must close exactly at the last byte: user text can
		// never end it early and add operators after it.
		if len(q) < 2 || q[0] != '"' || phraseEnd(q) != len(q)-1 {
			t.Fatalf("Quote(%q) = %q escapes its phrase", s, q)
		}
		if strings.ContainsFunc(q, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("Quote(%q) = %q keeps control characters", s, q)
		}
		cq := CitationsOf(s)
		if !strings.HasPrefix(cq, `citations(bibcode:"`) || !strings.HasSuffix(cq, `")`) {
			t.Fatalf("CitationsOf(%q) = %q", s, cq)
		}
		if inner := cq[len(`citations(bibcode:`):]; phraseEnd(inner) != len(inner)-2 {
			t.Fatalf("CitationsOf(%q) = %q escapes its phrase", s, cq)
		}
	})
}
