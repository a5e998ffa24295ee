package triage

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/astroresearch/astroresearch/store"
)

// text is a paper's title and abstract prepared for phrase matching by
// fold, so that " phrase " (folded the same way) finds whole words.
type text struct {
	title, all string
}

func newText(title, abstract string) text {
	t := fold(title)
	return text{title: t, all: t + fold(abstract)[1:]}
}

// fold prepares s for matching: lower case, accents dropped, every run of
// other characters one space, a space between a letter and a digit after
// it ("NGC4258", "NGC 4258" and "ngc-4258" are all "ngc 4258"), padded with
// spaces at both ends.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space, letter := true, false
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	for _, r := range s {
		switch {
		case r >= utf8.RuneSelf && unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r):
			b.WriteRune(unicode.ToLower(r))
			space, letter = false, true
		case unicode.IsNumber(r):
			if letter {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space, letter = false, false
		default:
			if !space {
				b.WriteByte(' ')
			}
			space, letter = true, false
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// isASCII reports whether s has only ASCII bytes (nothing to decompose).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// has reports whether the folded phrase p (from fold) occurs in s as whole
// words; a phrase of a single letter or digit never does.
func has(s, p string) bool { return len(strings.TrimSpace(p)) > 1 && strings.Contains(s, p) }

// keywordHit says where a keyword occurs: 2 in the title, 1 in the
// abstract only, 0 nowhere.
func keywordHit(t text, keyword string) int {
	p := fold(keyword)
	switch {
	case has(t.title, p):
		return 2
	case has(t.all, p):
		return 1
	}
	return 0
}

// objectHit returns the name of o that t mentions ("" when none): the
// name the user gave, the canonical name or any alias.
func objectHit(t text, o store.TriageObject) string {
	names := append([]string{o.Name, o.Canonical}, o.Aliases...)
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" && has(t.all, fold(n)) {
			return n
		}
	}
	return ""
}

// authorName is an author the user follows: family name and, when given,
// the first initial, both folded.
type authorName struct {
	family  string
	initial byte
}

// parseAuthor reads "Kormendy", "J. Kormendy", "John Kormendy",
// "Kormendy, J." or "de Jong, R. S.".
func parseAuthor(s string) authorName {
	var family, given string
	if f, g, ok := strings.Cut(s, ","); ok {
		family, given = f, g
	} else {
		fs := strings.Fields(s)
		if len(fs) == 0 {
			return authorName{}
		}
		family, given = fs[len(fs)-1], strings.Join(fs[:len(fs)-1], " ")
	}
	a := authorName{family: lastWord(family)}
	if g := strings.TrimSpace(fold(given)); g != "" {
		a.initial = g[0]
	}
	return a
}

func lastWord(s string) string {
	fs := strings.Fields(fold(s))
	if len(fs) == 0 {
		return ""
	}
	return fs[len(fs)-1]
}

// matches reports whether the arXiv author name ("Roelof S. de Jong")
// is this author.
func (a authorName) matches(name string) bool {
	if a.family == "" {
		return false
	}
	fs := strings.Fields(fold(name))
	if len(fs) == 0 || fs[len(fs)-1] != a.family {
		return false
	}
	return a.initial == 0 || len(fs) > 1 && fs[0][0] == a.initial
}
