package measure

import "strings"

// The words before a value decide much: "a mass of 5 M☉" (introduced),
// "Section 3.2" (a reference), "less than 3 K" (a limit). These checks
// look at the last words only, which is also what keeps extraction fast
// (end-anchored regular expressions scan from every position).

// lastWords returns up to n lower-case words at the end of s.
func lastWords(s string, n int) []string {
	f := strings.Fields(strings.ToLower(s))
	if len(f) > n {
		f = f[len(f)-n:]
	}
	return f
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	referenceWords = set("section", "sect.", "sec.", "§", "fig.", "figs.", "figure", "figures", "table", "tables", "tab.",
		"eq.", "eqs.", "equation", "equations", "appendix", "chapter", "paper", "step", "version", "v", "dr", "no.",
		"ref.", "panel", "row", "column", "model", "run", "case")
	introWords = set("of", "is", "was", "are", "were", "be", "being", "gives", "give", "yields", "yield", "find", "finds",
		"found", "measure", "measured", "obtain", "obtained", "estimate", "derive", "infer", "reaches", "reach", "has",
		"have", "adopt", "assume", "as", "with")
	motionWords     = set("moves", "moving", "travels", "expands", "expanding", "rotates", "rotating", "orbits", "orbiting")
	rangeIntroWords = set("between", "from", "span", "spans", "spanning", "range", "ranges", "ranging", "within")
	upperPhrases    = set("less than", "lower than", "smaller than", "fainter than", "shorter than", "fewer than", "at most",
		"up to", "maximum of", "no more than", "below")
	lowerPhrases = set("greater than", "more than", "larger than", "higher than", "at least", "minimum of", "in excess of",
		"exceeding", "exceeds", "exceeded", "exceed", "above")
	approxPhrases = set("approximately", "about", "roughly", "around", "of order", "nearly", "some")
)

// isReference: the number names part of a paper ("Section 3.2", "Fig. (4").
func isReference(b string) bool {
	w := lastWords(strings.TrimRight(b, " ("), 1)
	return len(w) == 1 && referenceWords[strings.TrimLeft(w[0], "(")]
}

// isIntro: words that introduce a value ("of", "is", "moves at", ":").
func isIntro(b string) bool {
	b = strings.TrimSpace(b)
	if strings.HasSuffix(b, ":") {
		return true
	}
	w := lastWords(b, 2)
	if len(w) == 0 {
		return false
	}
	if introWords[w[len(w)-1]] {
		return true
	}
	return len(w) == 2 && w[1] == "at" && motionWords[w[0]]
}

// endsWithWord reports whether the last word of b is in words.
func endsWithWord(b string, words map[string]bool) bool {
	w := lastWords(b, 1)
	return len(w) == 1 && words[w[0]]
}

// boundInWords reads a limit or approximation said in words; "upper
// limit of" and "upper limit on the mass of" count too.
func boundInWords(b string) string {
	w := lastWords(b, 10)
	for k := 1; k <= 3 && k <= len(w); k++ {
		p := strings.Join(w[len(w)-k:], " ")
		switch {
		case upperPhrases[p]:
			return "<"
		case lowerPhrases[p]:
			return ">"
		case approxPhrases[p]:
			return "~"
		}
	}
	if len(w) >= 3 && w[len(w)-1] == "of" {
		text := " " + strings.Join(w, " ") + " "
		if i := strings.LastIndex(text, " upper limit "); i >= 0 && !strings.ContainsAny(text[i:], ",;") {
			return "<"
		}
		if i := strings.LastIndex(text, " lower limit "); i >= 0 && !strings.ContainsAny(text[i:], ",;") {
			return ">"
		}
	}
	return ""
}
