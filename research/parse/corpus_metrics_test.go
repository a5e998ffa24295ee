package parse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// texFacts is what the LaTeX source says beyond the words: the title,
// the section and subsection titles, how many references the list has and
// how many display equations there are.
type texFacts struct {
	title     []string
	headings  [][]string // \section and \subsection titles, as words
	deeper    [][]string // \subsubsection and \paragraph titles: right as headings, not required
	refs      int        // entries of the reference list; -1 when unknown (\nocite{*})
	equations int        // display equations (numbered or not)
}

var (
	texHeadingRe  = regexp.MustCompile(`\\(section|subsection|subsubsection|paragraph)\*?(\[[^\]]*\])?\{`)
	texTitleRe    = regexp.MustCompile(`\\title(\[[^\]]*\])?\{`)
	texBibitemRe  = regexp.MustCompile(`\\bibitem\b`)
	texCiteKeysRe = regexp.MustCompile(`\\(?:[a-zA-Z]*cite[a-zA-Z]*|nocite)\*?(?:\[[^\]]*\])*\{([^{}]*)\}`)
	texDisplayRe  = regexp.MustCompile(`\\begin\{(equation|align|eqnarray|gather|multline|displaymath)\*?\}|\\\[|\$\$`)
	texBibDBRe    = regexp.MustCompile(`\\bibliography\{|\\addbibresource\{`)
)

// loadFacts reads the facts from a LaTeX source (gzipped or not).
func loadFacts(path string) (texFacts, error) {
	src, err := readGz(path)
	if err != nil {
		return texFacts{}, err
	}
	if i := strings.Index(src, `\begin{document}`); i >= 0 {
		// the title is often set in the preamble
		if m := texTitleRe.FindStringIndex(src); m != nil && m[0] > i {
			src = src[i:]
		}
	}
	if i := strings.LastIndex(src, `\end{document}`); i >= 0 {
		src = src[:i]
	}
	src = texCommentRe.ReplaceAllString(src, "$1")
	src = regexp.MustCompile(`(?s)\\begin\{(verbatim|lstlisting)\}.*?\\end\{(verbatim|lstlisting)\}`).ReplaceAllString(src, "")
	var f texFacts
	title := func(at int) []string {
		t := balanced(src[at-1:])
		t = texArgCmdRe.ReplaceAllString(t, " ")
		t = texMathRe.ReplaceAllString(t, " ")
		return words(texCmdRe.ReplaceAllString(t, " "))
	}
	if m := texTitleRe.FindStringIndex(src); m != nil {
		f.title = title(m[1])
	}
	for _, m := range texHeadingRe.FindAllStringSubmatchIndex(src, -1) {
		w := title(m[1])
		if len(w) == 0 {
			continue
		}
		if kind := src[m[2]:m[3]]; kind == "section" || kind == "subsection" {
			f.headings = append(f.headings, w)
		} else {
			f.deeper = append(f.deeper, w)
		}
	}
	switch n := len(texBibitemRe.FindAllString(src, -1)); {
	case n > 0 && !texBibDBRe.MatchString(src):
		f.refs = n
	default: // BibTeX or biblatex list the cited entries
		keys := map[string]bool{}
		for _, m := range texCiteKeysRe.FindAllStringSubmatch(src, -1) {
			for _, k := range strings.Split(m[1], ",") {
				if k = strings.TrimSpace(k); k == "*" {
					f.refs = -1
				} else if k != "" {
					keys[k] = true
				}
			}
		}
		if f.refs == 0 {
			f.refs = len(keys)
		}
	}
	f.equations = len(texDisplayRe.FindAllString(src, -1))
	return f, nil
}

// corpusScore is one extraction of one sample, scored.
type corpusScore struct {
	quality
	headings, rightHeadings int // Markdown headings below the title, and those that are sections
	headingRecall           float64
	titleOK                 bool
	refsFound, refsAnchored int
	leaks                   int      // running heads, footers, page and line numbers left in the text
	equations               int      // display equations kept as images
	wrong, missed           []string // headings that are not sections, sections not found
}

func (s corpusScore) headingPrecision() float64 {
	if s.headings == 0 {
		return 1
	}
	return float64(s.rightHeadings) / float64(s.headings)
}

// standardHeadings are headings a class sets without \section.
var standardHeadings = regexp.MustCompile(`^(abstract|references?|bibliography|acknowledge?ments?|keywords|index terms|contents|appendix|appendices|nomenclature|ccs concepts|acm reference format|author contributions|data availability)$`)

// headingWords strips a heading's number ("2.1", "IV.", "A.") and returns
// its words.
func headingWords(h string) []string {
	h = strings.TrimSpace(strings.TrimLeft(unescape(h), "#"))
	if m := numberedRe.FindStringSubmatch(h); m != nil {
		h = m[3]
	}
	if m := appendixRe.FindString(h); m != "" {
		h = h[len(m):]
	}
	return words(h)
}

// sameTitle reports whether two titles are the same: one contains the
// other and the shorter has at least 60% of the longer's words (a
// heading may carry a label the source sets by macro, or lose a math
// word).
func sameTitle(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if float64(len(a)) < 0.6*float64(len(b)) {
		return false
	}
	return strings.Contains(" "+strings.Join(b, " ")+" ", " "+strings.Join(a, " ")+" ")
}

// scoreMarkdown scores the engine's Markdown beyond quality: headings,
// title, the reference list, leaks and equations.
func scoreMarkdown(f texFacts, t truth, md string, margins margins) corpusScore {
	s := corpusScore{quality: measure(t, md, true)}
	var heads [][]string
	inRefs := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			if sameTitle(headingWords(l), f.title) || len(f.title) > 0 && strings.Contains(" "+strings.Join(headingWords(l), " ")+" ", " "+strings.Join(f.title, " ")+" ") {
				s.titleOK = true
			}
			inRefs = false
		case strings.HasPrefix(l, "#"):
			w := headingWords(l)
			heads = append(heads, w)
			s.headings++
			ok := standardHeadings.MatchString(strings.Join(w, " "))
			for _, h := range append(append([][]string(nil), f.headings...), f.deeper...) {
				ok = ok || sameTitle(w, h)
			}
			if ok {
				s.rightHeadings++
			} else {
				s.wrong = append(s.wrong, l)
			}
			inRefs = refsRe.MatchString(strings.Join(w, " "))
		case strings.HasPrefix(l, `- <span id="ref-`):
			// an anchored entry, under a heading or in a list set without one
			s.refsFound++
			s.refsAnchored++
		case inRefs && strings.HasPrefix(l, "- "):
			s.refsFound++
		case strings.HasPrefix(l, "!["):
			if strings.Contains(l, "equation") {
				s.equations++
			}
		}
	}
	found := 0
	for _, h := range f.headings {
		hit := false
		for _, w := range heads {
			if sameTitle(w, h) {
				hit = true
				break
			}
		}
		if hit {
			found++
		} else {
			s.missed = append(s.missed, strings.Join(h, " "))
		}
	}
	s.headingRecall = 1
	if len(f.headings) > 0 {
		s.headingRecall = float64(found) / float64(len(f.headings))
	}
	margins.source = " " + strings.Join(t.words, " ") + " "
	s.leaks = countLeaks(md, margins)
	return s
}

// scorePlain scores pdftotext's plain text (no headings, no lists).
func scorePlain(t truth, txt string, margins margins) corpusScore {
	margins.source = " " + strings.Join(t.words, " ") + " "
	return corpusScore{quality: measure(t, txt, false), leaks: countLeaks(txt, margins)}
}

var (
	numbersOnlyRe = regexp.MustCompile(`^[0-9]{1,4}$`)
	numberRunRe   = regexp.MustCompile(`(?:^|\s)[0-9]{1,4}(?:\s+[0-9]{1,4}){3,}(?:\s|$)`)
)

// countLeaks counts what layout should have removed: page numbers (a
// paragraph that is only the number a page's margin line carries), line
// numbers (four or more numbers counting up, inside a paragraph or as
// paragraphs in a row), and running heads or footers (margins:
// digit-folded lines that recur at the top or bottom of the pages) beyond
// one occurrence (the title page may set it as text).
func countLeaks(out string, m margins) int {
	n, _ := leaks(out, m)
	return n
}

// leaks is countLeaks with what it counted.
func leaks(out string, m margins) (int, []string) {
	n := 0
	var what []string
	text := unescape(out)
	var run []int // values of number-only paragraphs in a row
	flush := func() {
		if rising(run) {
			n += len(run)
			what = append(what, fmt.Sprint(run))
		}
		run = run[:0]
	}
	pageSeen := map[string]bool{}
	pageLeaks := 0
	for _, p := range regexp.MustCompile(`\n\s*\n`).Split(text, -1) {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "- "))
		if numbersOnlyRe.MatchString(p) {
			v, _ := strconv.Atoi(p)
			run = append(run, v)
			if m.pageNumbers[p] && !pageSeen[p] {
				pageSeen[p] = true
				pageLeaks++
			}
			continue
		}
		flush()
		for _, r := range numberRunRe.FindAllString(p, -1) {
			var vs []int
			for _, f := range strings.Fields(r) {
				v, _ := strconv.Atoi(f)
				vs = append(vs, v)
			}
			if rising(vs) {
				n++
				what = append(what, r)
			}
		}
	}
	flush()
	// A page number is left when most pages' numbers are: a bare number
	// now and then is a table cell or an index.
	if pageLeaks > 0 && pageLeaks*2 > len(m.pageNumbers) {
		n += pageLeaks
		what = append(what, fmt.Sprintf("%d page numbers", pageLeaks))
	}
	folded := foldMargin(text)
	for _, k := range m.lines {
		if c := strings.Count(folded, k) - strings.Count(m.source, k); c > 1 {
			n += c - 1
			what = append(what, fmt.Sprintf("%dx%s", c, k))
		}
	}
	return n, what
}

// rising reports whether vs are four or more numbers counting up in
// small steps (line numbers), as opposed to a table's column.
func rising(vs []int) bool {
	if len(vs) < 4 {
		return false
	}
	for i := 1; i < len(vs); i++ {
		if d := vs[i] - vs[i-1]; d < 1 || d > 10 {
			return false
		}
	}
	return true
}

var foldNonWordRe = regexp.MustCompile(`[^\pL#]+`)

// foldMargin lower-cases s, folds digit runs to '#' and squeezes
// everything else to single spaces.
func foldMargin(s string) string {
	s = digitsRe.ReplaceAllString(strings.ToLower(s), "#")
	return " " + strings.TrimSpace(foldNonWordRe.ReplaceAllString(s, " ")) + " "
}

// margins is what a PDF sets in its page margins, found independently of
// the engine from pdftotext's page-by-page text.
type margins struct {
	lines       []string        // running heads and footers, digit-folded
	pageNumbers map[string]bool // bare numbers on a page's first or last lines
	source      string          // the LaTeX source's words: a running head's text may be there too
}

// marginLines finds a PDF's running heads and footers: the first and last
// two lines of the pages that recur (digit-folded) on at least a third of
// them, with three or more letters; and its page numbers.
func marginLines(pdfText string) margins {
	pages := strings.Split(pdfText, "\f")
	count := map[string]int{}
	m := margins{pageNumbers: map[string]bool{}}
	for _, p := range pages {
		var ls []string
		for _, l := range strings.Split(p, "\n") {
			if strings.TrimSpace(l) != "" {
				ls = append(ls, l)
			}
		}
		if len(ls) < 4 {
			continue
		}
		seen := map[string]bool{}
		for _, l := range []string{ls[0], ls[1], ls[len(ls)-2], ls[len(ls)-1]} {
			if t := strings.TrimSpace(l); numbersOnlyRe.MatchString(t) {
				m.pageNumbers[t] = true
			}
			k := foldMargin(l)
			if letters := len(regexp.MustCompile(`\pL`).FindAllString(k, -1)); letters >= 3 && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	for k, c := range count {
		if c >= max(2, len(pages)/3) {
			m.lines = append(m.lines, k)
		}
	}
	return m
}
