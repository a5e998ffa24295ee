package parse

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// para is one unit of the output: a heading, a paragraph or a reference.
type para struct {
	kind  paraKind
	level int // headings: 1–4
	lines []string
}

type paraKind int

const (
	kindText paraKind = iota
	kindHeading
	kindReference
	kindList // demoted heading-like lines (a table of contents)
)

var (
	numberedRe      = regexp.MustCompile(`^((?:[0-9]{1,2}(?:\.[0-9]{1,2}){0,3})|[A-Z](?:\.[0-9]{1,2}){0,3}|[IVX]{1,5}(?:\.[0-9]{1,2}){0,3})(\.?)\s+(\S.*)$`)
	refsRe          = regexp.MustCompile(`(?i)^(references?|bibliography|references and notes|literature cited)$`)
	sectionNumberRe = regexp.MustCompile(`^(?:[0-9]{1,2}(?:\.[0-9]{1,2}){0,3}|[A-Z](?:\.[0-9]{1,2}){0,3}|[IVX]{1,5}(?:\.[0-9]{1,2}){0,3})\.$`)
	longNumberRe    = regexp.MustCompile(`[0-9]{4,}`) // postcodes and years: an address, not a section
	refStartRe      = regexp.MustCompile(`^(\[[0-9]{1,4}\]|[0-9]{1,4}\.)\s`)
	// authorStartRe is how an author-year reference begins: "Smith A. B.,"
	// or "Smith, A. B.".
	// appendixRe is an appendix heading: "Appendix A: Title", "APPENDIX B".
	appendixRe = regexp.MustCompile(`^(?:Appendix|APPENDIX) [A-Z](?:\.[0-9]{1,2})*[:.]?(?:\s|$)`)
	// titleWordRe: a section title has a real word, not "X 1 1 X" from a formula.
	titleWordRe = regexp.MustCompile(`\p{L}{3,}`)
	// bulletRe starts a list item.
	bulletRe      = regexp.MustCompile(`^(?:[•◦▪‣∙]|\([ivx]{1,4}\)|\([a-z]\))\s`)
	authorStartRe = regexp.MustCompile(`^(?:(?:van|de|der|von|di|le|du) )*\p{Lu}[\p{L}'’-]+,?\s+(?:\p{Lu}\.\s?-?)+`)
)

// assembler turns ordered blocks into paragraphs. It is single-use.
type assembler struct {
	body      float64 // body font size
	titleSize float64 // largest size on the first page
	paras     []para
	inRefs    bool
	roman     bool    // sections are numbered I, II, ... (letters are subsections)
	number    string  // a section number set on a line of its own, waiting for its title
	bodyFont  float64 // the body's font size from the fonts (0: unknown)
	// numberedRefs: the reference list's entries start with labels
	// ("[1]", "1."); refLabel is a label set on a line of its own.
	numberedRefs bool
	refLabel     string
	// frontMatter: still between the title and the first numbered or
	// standard heading (authors, affiliations, dates).
	frontMatter bool
}

// addBlock appends a block's lines, splitting paragraphs at indents,
// vertical gaps, short lines and size changes.
func (a *assembler) addBlock(b block, firstPage bool) {
	left, right := b.x1, b.x0
	for _, l := range b.lines {
		left, right = min(left, l.x0), max(right, l.x1)
	}
	B := a.body
	skip := 0
	for i, l := range b.lines {
		if skip > 0 || len(l.words) == 0 {
			skip = max(0, skip-1)
			continue
		}
		txt := l.text()
		if a.inRefs && labelOnlyRe.MatchString(txt) {
			a.refLabel = txt // "[2]" set apart from its entry
			continue
		}
		labelled := false
		if a.refLabel != "" {
			txt, a.refLabel, labelled = a.refLabel+" "+txt, "", true
		}
		if sectionNumberRe.MatchString(txt) {
			a.number = txt // "II." centred apart from its title
			continue
		}
		if a.number != "" {
			txt = a.number + " " + txt
			a.number = ""
			if ok, n := a.tryHeading(l, txt, b, i, right, firstPage); ok {
				skip = n
				continue
			}
		}
		start := i == 0
		if i > 0 {
			prev := b.lines[i-1]
			indented := l.x0 > left+0.6*B && l.x0 < left+4*B
			// A hanging indent (list items, wrapped bullets) continues the
			// item: the line after a bullet line, or lines aligned with it.
			hanging := (bulletRe.MatchString(prev.text()) || refStartRe.MatchString(prev.text())) && l.x0 > prev.x0+0.3*B ||
				l.x0 > prev.x0+0.6*B && i+1 < len(b.lines) && abs(b.lines[i+1].x0-l.x0) < 1 ||
				abs(l.x0-prev.x0) < 1 && prev.x0 > left+0.6*B
			if hanging {
				indented = false
			}
			outdented := prev.x0 > left+0.6*B && l.x0 <= left+0.3*B
			gap := l.y0-prev.y1 > 0.6*B
			short := prev.x1 < right-2.5*B
			sizeJump := abs(l.size-prev.size) > 0.15*B
			if a.inRefs {
				atLeft := l.x0 <= left+0.3*B
				start = outdented || gap || refStartRe.MatchString(txt) || (atLeft && (short || authorStartRe.MatchString(txt)))
			} else {
				// "[n]" set out to the left of the line above: a numbered
				// reference list without a heading (REVTeX).
				refOut := l.x0 < prev.x0-0.3*B && strings.HasPrefix(txt, "[") && refStartRe.MatchString(txt)
				start = indented || gap || short || sizeJump || bulletRe.MatchString(txt) || refOut
			}
		}
		if !start && isCaps(txt) && len(strings.Fields(txt)) >= 2 && !isCaps(b.lines[i-1].text()) {
			start = true // a heading in capitals set tight under the text before it
		}
		if start {
			if ok, n := a.tryHeading(l, txt, b, i, right, firstPage); ok {
				skip = n
				continue
			}
		}
		if start && i == 0 && a.continues(txt) {
			start = false
		}
		kind := kindText
		if a.inRefs {
			kind, start = a.refKind(txt, i, start || labelled)
		}
		if start || len(a.paras) == 0 {
			a.paras = append(a.paras, para{kind: kind})
		}
		last := &a.paras[len(a.paras)-1]
		if last.kind == kindHeading {
			a.paras = append(a.paras, para{kind: kindText})
			last = &a.paras[len(a.paras)-1]
		}
		last.lines = append(last.lines, txt)
	}
}

// labelOnlyRe is a reference's label alone on its line.
var labelOnlyRe = regexp.MustCompile(`^(\[[0-9]{1,4}\]|[0-9]{1,4}\.)$`)

// refKind decides, inside the reference list, what a line that may start
// a paragraph is. In a list whose entries carry labels, a line without
// one does not start an entry: at the top of a block with a few words it
// carries on the entry a column or page broke (start false), otherwise
// it is text that is not part of the list (a figure's labels set near
// it).
func (a *assembler) refKind(txt string, i int, start bool) (paraKind, bool) {
	labelled := refStartRe.MatchString(txt)
	if labelled && start {
		a.numberedRefs = true
	}
	if last := len(a.paras) - 1; start && !labelled && i == 0 && last >= 0 && a.paras[last].kind == kindReference && unfinished(a.paras[last]) {
		return kindReference, false // an entry a column or page broke mid-sentence
	}
	if !a.numberedRefs || labelled || !start {
		if !start && len(a.paras) > 0 {
			return a.paras[len(a.paras)-1].kind, false
		}
		return kindReference, start
	}
	last := len(a.paras) - 1
	if i == 0 && last >= 0 && a.paras[last].kind == kindReference && len(strings.Fields(txt)) >= 6 {
		return kindReference, false
	}
	return kindText, true
}

// unfinished reports whether a paragraph's last line stops without a
// full stop (or a closing bracket, a number or a URL, which entries also
// end with).
func unfinished(p para) bool {
	if len(p.lines) == 0 {
		return false
	}
	l := strings.TrimSpace(p.lines[len(p.lines)-1])
	r, _ := utf8.DecodeLastRuneInString(l)
	if f := strings.Fields(l); len(f) > 0 && strings.ContainsAny(f[len(f)-1], "/:") {
		return false // a URL or DOI ends the entry
	}
	return !strings.ContainsRune(".)]}>/", r) && !unicode.IsDigit(r)
}

// continues reports whether a block's first line carries on the previous
// paragraph (a paragraph broken by a column or page end).
func (a *assembler) continues(txt string) bool {
	if len(a.paras) == 0 {
		return false
	}
	p := a.paras[len(a.paras)-1]
	if p.kind == kindHeading || p.kind == kindList || len(p.lines) == 0 || strings.HasPrefix(p.lines[0], "[") && refStartRe.MatchString(p.lines[0]) {
		return false
	}
	prev := p.lines[len(p.lines)-1]
	end, _ := utf8.DecodeLastRuneInString(prev)
	first, _ := utf8.DecodeRuneInString(txt)
	if strings.ContainsRune(".!?:", end) {
		return false
	}
	return unicode.IsLower(first) || end == '-' || end == ','
}

// tryHeading adds l as a heading when it looks like one: a larger font, a
// section number, or a short line in capitals. It reports whether it did
// and how many of the block's following lines the heading took (a title in
// capitals wrapped over lines).
func (a *assembler) tryHeading(l line, txt string, b block, i int, right float64, firstPage bool) (bool, int) {
	B := a.body
	lines := []string{txt}
	for j := i + 1; isCaps(txt) && j < len(b.lines) && j <= i+2 && mostlyCaps(b.lines[j].text()) && b.lines[j].y0-b.lines[j-1].y1 < 0.6*B; j++ {
		lines = append(lines, b.lines[j].text())
	}
	if len(lines) > 1 {
		txt = strings.Join(lines, " ")
		l.x1 = b.lines[i+len(lines)-1].x1
		i += len(lines) - 1
	}
	words := strings.Fields(txt)
	if len(txt) > 100 || len(words) > 14 || !hasLetter(txt) {
		return false, 0
	}
	last, _ := utf8.DecodeLastRuneInString(txt)
	if strings.ContainsRune(",;", last) {
		return false, 0
	}
	alone := i == len(b.lines)-1 || l.x1 < right-3*B || b.lines[i+1].x0 > l.x0+0.6*B ||
		b.lines[i+1].y0-l.y1 > 0.6*B || abs(b.lines[i+1].size-l.size) > 0.15*B
	if !alone && !isCaps(txt) {
		return false, 0
	}
	m0 := numberedRe.FindStringSubmatch(txt)
	numbered := m0 != nil && startsUpper(m0[3]) || appendixRe.MatchString(txt)
	isTitle := firstPage && l.size >= 1.4*B && l.size >= a.titleSize-0.5 && !a.hasTitle()
	if !isTitle && a.notHeading(l, txt, numbered, firstPage) {
		return false, 0
	}
	level := 0
	switch m := m0; {
	case isTitle:
		level = 1
	case appendixRe.MatchString(txt):
		level = 2
	case m != nil && startsUpper(m[3]) && (last != '.' || isCaps(m[3])) && titleWordRe.MatchString(m[3]) && !longNumberRe.MatchString(m[3]):
		level = 2 + strings.Count(m[1], ".")
		switch {
		case isRoman(m[1]):
			a.roman = true
		case a.roman && len(m[1]) == 1 && m[1][0] >= 'A' && m[1][0] <= 'Z':
			level = 3
		case a.roman && m[1][0] >= '0' && m[1][0] <= '9':
			level = 4 // REVTeX's third level: "1." under "A." under "I."
		}
	case l.size >= 1.15*B && last != '.':
		level = 2
	case isCaps(txt) && last != '.' && len(words) <= 8:
		level = 2
	default:
		return false, 0
	}
	level = min(level, 4)
	title := txt
	if m := numberedRe.FindStringSubmatch(txt); m != nil {
		title = m[3]
	}
	a.inRefs = refsRe.MatchString(strings.TrimSpace(title))
	if level > 1 && (numbered || standardHeadingRe.MatchString(strings.TrimSpace(title))) {
		a.frontMatter = false
	}
	a.paras = append(a.paras, para{kind: kindHeading, level: level, lines: []string{txt}})
	return true, len(lines) - 1
}

func (a *assembler) hasTitle() bool {
	for _, p := range a.paras {
		if p.kind == kindHeading && p.level == 1 {
			return true
		}
	}
	return false
}

// markNumberedRefs turns the paragraphs "[1] …", "[2] …", … (a reference
// list set without a heading, perhaps broken by a column of other text)
// into references when there are at least three in sequence.
func markNumberedRefs(ps []para) {
	var seq []int
	for i, p := range ps {
		if p.kind == kindText && len(p.lines) > 0 && strings.HasPrefix(p.lines[0], "["+strconv.Itoa(len(seq)+1)+"] ") {
			seq = append(seq, i)
		}
	}
	if len(seq) >= 3 {
		for _, i := range seq {
			ps[i].kind = kindReference
		}
	}
}

// demoteRuns turns runs of three or more headings with no text between
// them (a table of contents) into list lines.
func demoteRuns(ps []para) {
	for i := 0; i < len(ps); {
		if ps[i].kind != kindHeading || ps[i].level == 1 {
			i++
			continue
		}
		j := i
		for j < len(ps) && ps[j].kind == kindHeading && ps[j].level != 1 {
			j++
		}
		if j-i >= 3 {
			for k := i; k < j; k++ {
				ps[k].kind = kindList
			}
		}
		i = j
	}
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// isCaps reports whether s is mostly capital letters (at least four).
func isCaps(s string) bool {
	up, letters := countCaps(s)
	return letters >= 4 && up*10 >= letters*9
}

// mostlyCaps is the looser test for the wrapped lines of a heading in
// capitals (\lowercase{} words happen).
func mostlyCaps(s string) bool {
	up, letters := countCaps(s)
	return letters >= 2 && up*4 >= letters*3
}

// countCaps counts the letters of s and the capitals among them.
func countCaps(s string) (up, letters int) {
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				up++
			}
		}
	}
	return up, letters
}

func isRoman(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("IVX", r) {
			return false
		}
	}
	return len(s) > 1 || s == "I" || s == "V" || s == "X"
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}
