package parse

import (
	"math"
	"regexp"
	"strings"
)

var (
	// floatCaptionRe starts a float's caption: never a heading.
	floatCaptionRe = regexp.MustCompile(`(?i)^(fig\.?|figure|table|tab\.|plate|scheme|listing|algorithm|chart)\s*[0-9IVX]+[a-z]?\s*[.:|—–-]`)
	// initialsRe is how a reference or an author line starts: "A. B. Name".
	initialsRe = regexp.MustCompile(`^(?:\p{Lu}\.\s?-?){1,3}\s*\p{Lu}\p{Ll}`)
	// standardHeadingRe names the unnumbered headings every class sets.
	standardHeadingRe = regexp.MustCompile(`(?i)^(abstract|introduction|references?|bibliography|literature cited|acknowledge?ments?|keywords|key words|index terms|appendix|appendices|nomenclature|summary|conclusions?)\b`)
)

// fontBody is the most common font size of the document's text runs,
// weighted by characters (0 without fonts).
func fontBody(pages []page) float64 {
	weight := map[float64]int{}
	for _, p := range pages {
		for _, r := range p.runs {
			if !r.font.math && !r.font.mono && r.font.size > 0 {
				weight[r.font.size] += r.chars
			}
		}
	}
	best, bestW := 0.0, 0
	for s, w := range weight {
		if w > bestW || (w == bestW && s < best) {
			best, bestW = s, w
		}
	}
	return best
}

// notHeading reports whether a line that looks like a heading by its
// layout is something else: a caption, a reference or author line, a
// formula, verbatim code, or — when the fonts are known — text in the
// body's font and weight (list items, references, table cells). A
// heading stands out: bold, larger than the body, capitals or small
// capitals, or italic with a section number.
func (a *assembler) notHeading(l line, txt string, numbered bool, firstPage bool) bool {
	title := txt
	if m := numberedRe.FindStringSubmatch(txt); m != nil {
		title = m[3]
	}
	switch {
	case floatCaptionRe.MatchString(txt), initialsRe.MatchString(title):
		return true
	case a.frontMatter && firstPage && !numbered && !standardHeadingRe.MatchString(strings.TrimSpace(title)) && !isCaps(title):
		// between the title and the abstract: authors and affiliations
		return true
	}
	if !l.styled || a.bodyFont <= 0 {
		return false
	}
	if l.mono || l.mathShare > 0.3 {
		return true
	}
	larger := l.fontSize >= a.bodyFont+math.Max(1, 0.08*a.bodyFont)
	return !(l.bold || larger || isCaps(txt) || l.italic && numbered)
}

// styleBlock gives the block's lines their fonts from the page's runs.
func styleBlock(b block, runs []fontRun) block {
	if len(runs) == 0 {
		return b
	}
	b.lines = append([]line(nil), b.lines...)
	for i := range b.lines {
		styleLine(&b.lines[i], runs)
	}
	return b
}
