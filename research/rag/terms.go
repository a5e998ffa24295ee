package rag

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTerms bounds the words of a question that are searched for.
const maxTerms = 16

// contentTerms returns the distinct lower-case words of a question that
// carry meaning: letters and digits, without English function words and
// question words, single letters dropped (digits kept), at most maxTerms.
func contentTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(q) {
		if stopwords[w] || seen[w] {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w); utf8.RuneCountInString(w) == 1 && !unicode.IsNumber(r) && !unicode.Is(unicode.Han, r) {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxTerms {
			break
		}
	}
	return out
}

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from further had has
		have having he her here hers herself him himself his how i if in into is it its itself just me more most my
		myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such
		than that the their theirs them themselves then there these they this those through to too under until up very
		was we were what when where which while who whom why will with would you your yours yourself yourselves
		tell know known explain describe give show find paper papers library please according say says said use used
		using our my`) {
		m[w] = true
	}
	return m
}()

// words splits text the way the FTS tokenizer does, lower-cased.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// wordSet is the set of words of text.
func wordSet(text string) map[string]bool {
	ws := words(text)
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// containsTerm reports whether a word of the set has the term's stem, a
// cheap stand-in for the index's Porter stemming: the term minus up to
// three trailing letters, at least four ("galaxy" finds "galaxies",
// "fluctuation" finds "fluctuations"); terms of up to four letters must
// match a word exactly or as its prefix.
func containsTerm(set map[string]bool, term string) bool {
	if set[term] {
		return true
	}
	rs := []rune(term)
	stem := string(rs[:max(min(4, len(rs)), len(rs)-3)])
	for w := range set {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}
