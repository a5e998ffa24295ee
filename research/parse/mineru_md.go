package parse

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// normalizeMinerU brings MinerU's Markdown to this package's shape. MinerU
// writes every heading as "# …" (the level is not known to it), display
// math as "$$" lines around the TeX, tables as one-line HTML, figures as
// "![](images/….jpg)" links to files we do not keep, and the reference
// list as one paragraph per entry under a "References" heading.
func normalizeMinerU(md string) string {
	blocks := mineruBlocks(strings.ReplaceAll(md, "\r\n", "\n"))
	n := &mdNorm{refs: map[string]int{}, byAuthorYear: map[string]int{}}
	n.indexRefs(blocks)
	var out []string
	inRefs, titled := false, false
	for _, b := range blocks {
		switch {
		case b.kind == mdHeading:
			text := escapeStrayDollars(strings.TrimSpace(b.text))
			lvl := headingLevelFromNumbering(text, b.level)
			if !titled && lvl == 0 {
				lvl = 1 // the first unnumbered heading is the title
			}
			titled = true
			if lvl == 0 {
				lvl = 2
			}
			inRefs = refsHeadingRe.MatchString(text)
			out = append(out, strings.Repeat("#", lvl)+" "+text)
		case b.kind == mdMath:
			out = append(out, "$$"+strings.TrimSpace(collapse(b.text))+"$$")
		case b.kind == mdTable:
			if t := htmlTableMarkdown(b.text); t != "" {
				out = append(out, strings.TrimRight(t, "\n"))
			}
		case b.kind == mdFence:
			out = append(out, b.text)
		case inRefs:
			if list := n.refList(b.text); list != "" {
				out = append(out, list)
			}
		default:
			if t := n.citations(escapeStrayDollars(captionLabel(dropImages(b.text)))); strings.TrimSpace(t) != "" {
				out = append(out, strings.TrimSpace(t))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n\n") + "\n"
}

type mdKind int

const (
	mdPara mdKind = iota
	mdHeading
	mdMath
	mdTable
	mdFence
)

type mdBlock struct {
	kind  mdKind
	level int // a heading's "#" count
	text  string
}

var mdHeadingRe = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)

// mineruBlocks splits MinerU's Markdown into headings, $$ blocks, HTML
// tables, code fences and paragraphs (runs of non-blank lines).
func mineruBlocks(md string) []mdBlock {
	lines := strings.Split(md, "\n")
	var blocks []mdBlock
	var para []string
	flush := func() {
		if len(para) > 0 {
			blocks = append(blocks, mdBlock{kind: mdPara, text: strings.Join(para, "\n")})
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(l, "```"):
			flush()
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				j++
			}
			end := min(j, len(lines)-1)
			text := strings.Join(lines[i:end+1], "\n")
			if j >= len(lines) {
				text += "\n```"
			}
			blocks = append(blocks, mdBlock{kind: mdFence, text: text})
			i = end
		case strings.HasPrefix(l, "$$"):
			flush()
			rest := strings.TrimPrefix(l, "$$")
			if k := strings.Index(rest, "$$"); k >= 0 { // $$…$$ on one line
				blocks = append(blocks, mdBlock{kind: mdMath, text: rest[:k]})
				if tail := strings.TrimSpace(rest[k+2:]); tail != "" {
					para = append(para, tail)
				}
				continue
			}
			var tex []string
			if rest != "" {
				tex = append(tex, rest)
			}
			j := i + 1
			for ; j < len(lines); j++ {
				t := strings.TrimSpace(lines[j])
				if k := strings.Index(t, "$$"); k >= 0 {
					tex = append(tex, t[:k])
					break
				}
				tex = append(tex, t)
			}
			blocks = append(blocks, mdBlock{kind: mdMath, text: strings.Join(tex, " ")})
			i = j
		case strings.HasPrefix(strings.ToLower(l), "<table"):
			flush()
			var t []string
			j := i
			for ; j < len(lines); j++ {
				t = append(t, lines[j])
				if strings.Contains(strings.ToLower(lines[j]), "</table>") {
					break
				}
			}
			blocks = append(blocks, mdBlock{kind: mdTable, text: strings.Join(t, "\n")})
			i = j
		case mdHeadingRe.MatchString(l):
			flush()
			m := mdHeadingRe.FindStringSubmatch(l)
			blocks = append(blocks, mdBlock{kind: mdHeading, level: len(m[1]), text: m[2]})
		default:
			para = append(para, l)
		}
	}
	flush()
	return blocks
}

var (
	// numberedHeadingRe: "1 Introduction", "2.1. Data", "A.2 Tests".
	numberedHeadingRe = regexp.MustCompile(`^([0-9]{1,2}(?:\.[0-9]{1,2})*\.?|[A-Z](?:\.[0-9]{1,2})+\.?|[A-Z]\.)\s+\S`)
	refsHeadingRe     = regexp.MustCompile(`(?i)^(?:[0-9]+\.?\s+)?(?:references|bibliography|literature cited)\s*$`)
	sectionNameRe     = regexp.MustCompile(`(?i)^(?:[0-9]+\.?\s+)?(?:abstract|introduction|references|bibliography|literature cited|acknowledge?ments?|appendix(?:\s.*)?|conclusions?(?:\s+and\s+(?:outlook|future work|perspectives))?|summary(?:\s+and\s+(?:conclusions?|outlook|discussion))?|discussion(?:\s+and\s+conclusions?)?|concluding remarks|data availability(?:\s+statement)?|author contributions?|conflicts? of interest|competing interests?|funding|software|facilities|note added in proof)\s*[.:]?\s*$`)
)

// headingLevelFromNumbering is a heading's level from its numbering
// ("2" → 2, "2.1" → 3, "2.1.1" → 4), 2 for the usual unnumbered section
// names, MinerU's own level when it gave more than one "#", else 0.
func headingLevelFromNumbering(text string, given int) int {
	if m := numberedHeadingRe.FindStringSubmatch(text); m != nil {
		return min(2+strings.Count(strings.TrimSuffix(m[1], "."), "."), 4)
	}
	if sectionNameRe.MatchString(text) {
		return 2
	}
	if given > 1 {
		return min(given, 4)
	}
	return 0
}

var captionRe = regexp.MustCompile(`^\s*((?:Figure|Fig\.|Table)\s+[0-9A-Z][0-9.]*)[.:]\s*`)

// captionLabel bolds a caption's label as the other engines do
// ("Figure 1: …" → "**Figure 1:** …").
func captionLabel(s string) string {
	if m := captionRe.FindStringSubmatchIndex(s); m != nil {
		return "**" + strings.TrimSuffix(s[m[2]:m[3]], ".") + ":** " + s[m[1]:]
	}
	return s
}

var imageRe = regexp.MustCompile(`!\[[^\]\n]*\]\([^)\n]*\)`)

// dropImages removes image links (MinerU's extracted figures are not kept).
func dropImages(s string) string { return imageRe.ReplaceAllString(s, "") }

// htmlTableMarkdown rebuilds an HTML table: a Markdown table for a plain
// grid, else a minimal HTML table (text, colspan, rowspan).
func htmlTableMarkdown(src string) string {
	nodes, err := html.ParseFragment(strings.NewReader(src), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return ""
	}
	c := &lxConv{refs: map[string]int{}}
	var parts []string
	for _, n := range nodes {
		if n.DataAtom == atom.Table {
			if t := c.table(n); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// mdNorm links citations to the reference list.
type mdNorm struct {
	refs         map[string]int // "[n]" label → entry number
	byAuthorYear map[string]int // "smith|2020a" → entry number
	entries      int
}

var (
	refLabelRe = regexp.MustCompile(`^\s*(?:\[([0-9]{1,4})\]|([0-9]{1,4})\.)\s+`)
	refYearRe  = regexp.MustCompile(`\b((?:19|20)[0-9]{2}[a-z]?)\b`)
	surnameRe  = regexp.MustCompile(`^\p{Lu}[\p{L}'’-]+`)
)

// indexRefs numbers the reference entries (one per line under the
// References heading) and keys them by label and by first author and year.
func (n *mdNorm) indexRefs(blocks []mdBlock) {
	inRefs := false
	num := 0
	for _, b := range blocks {
		if b.kind == mdHeading {
			inRefs = refsHeadingRe.MatchString(strings.TrimSpace(b.text))
			continue
		}
		if !inRefs || b.kind != mdPara {
			continue
		}
		for _, l := range strings.Split(b.text, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			num++
			rest := l
			if m := refLabelRe.FindStringSubmatch(l); m != nil {
				n.refs[m[1]+m[2]] = num
				rest = l[len(m[0]):]
			}
			if key, ok := refKey(rest); ok {
				if _, dup := n.byAuthorYear[key]; !dup {
					n.byAuthorYear[key] = num
				}
			}
		}
	}
}

// notSurnames are capitalised words a reference entry or a sentence may
// start with that are not an author's name: "The EHT Collaboration, 2019"
// must not make "The 2019 campaign" a citation, nor "In prep." "In 2019".
var notSurnames = map[string]bool{"the": true, "a": true, "an": true, "in": true, "on": true, "of": true, "for": true,
	"from": true, "with": true, "at": true, "by": true, "as": true, "to": true, "and": true, "see": true, "this": true,
	"these": true, "that": true, "we": true, "our": true, "since": true, "until": true, "after": true, "before": true,
	"during": true, "between": true, "table": true, "figure": true, "fig": true, "section": true, "sect": true,
	"eq": true, "equation": true, "appendix": true, "paper": true, "data": true, "release": true, "version": true}

// refKey is a reference entry's author–year key, "surname|year" from its
// first word and first year; false when the entry starts with no surname.
func refKey(entry string) (string, bool) {
	s := surnameRe.FindString(strings.TrimSpace(entry))
	y := refYearRe.FindString(entry)
	if s == "" || y == "" || notSurnames[strings.ToLower(s)] {
		return "", false
	}
	return strings.ToLower(s) + "|" + y, true
}

// refList emits a paragraph of the reference list as numbered entries with
// anchors, DOIs and arXiv ids linked.
func (n *mdNorm) refList(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		n.entries++
		if m := refLabelRe.FindStringSubmatch(l); m != nil {
			l = l[len(m[0]):]
		}
		fmt.Fprintf(&b, "%d. <span id=\"ref-%d\"></span>%s\n", n.entries, n.entries, linkIdentifiersRaw(escapeStrayDollars(dropImages(l))))
	}
	return strings.TrimRight(b.String(), "\n")
}

// linkIdentifiersRaw links DOIs and arXiv ids in text that is Markdown
// already (unlike linkIdentifiers, which escapes plain text).
func linkIdentifiersRaw(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range identifierRe.FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && (s[m[0]-1] == '(' || s[m[0]-1] == '<' || s[m[0]-1] == '[') {
			continue // already inside a link
		}
		b.WriteString(s[last:m[0]])
		target := "https://arxiv.org/abs/"
		if m[2] >= 0 {
			target = "https://doi.org/" + s[m[2]:m[3]]
		} else {
			target += s[m[4]:m[5]]
		}
		b.WriteString("[" + s[m[0]:m[1]] + "](<" + strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(target) + ">)")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

var (
	numCiteRe = regexp.MustCompile(`\[([0-9]{1,4}(?:\s*[,–-]\s*[0-9]{1,4})*)\]`)
	// authorYearRe: "Smith 2020", "Smith et al. 2020a", "Smith & Jones
	// (2020)", "Smith and Jones, 2020".
	authorYearRe = regexp.MustCompile(`\b(\p{Lu}[\p{L}'’-]+)((?:\s+et\s+al\.?)|(?:\s+(?:&|and)\s+\p{Lu}[\p{L}'’-]+))?,?\s+(\()?((?:19|20)[0-9]{2}[a-z]?)\b(\))?`)
)

// citations links numeric ("[3]", "[2, 5]") and author–year ("Smith et
// al. 2020") citations to the reference list, outside $…$ math.
func (n *mdNorm) citations(s string) string {
	if len(n.refs) == 0 && len(n.byAuthorYear) == 0 {
		return s
	}
	parts := splitMath(s)
	for i := 0; i < len(parts); i += 2 { // even parts are outside math
		parts[i] = n.linkNumeric(parts[i])
		parts[i] = n.linkAuthorYear(parts[i])
	}
	return strings.Join(parts, "$")
}

func (n *mdNorm) linkNumeric(s string) string {
	if len(n.refs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range numCiteRe.FindAllStringSubmatchIndex(s, -1) {
		if m[1] < len(s) && s[m[1]] == '(' {
			continue // a Markdown link already
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(`\[`)
		for _, tok := range citeTokenRe.FindAllString(s[m[2]:m[3]], -1) {
			if num, ok := n.refs[tok]; ok {
				b.WriteString("[" + tok + "](#ref-" + strconv.Itoa(num) + ")")
			} else {
				b.WriteString(tok)
			}
		}
		b.WriteString(`\]`)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func (n *mdNorm) linkAuthorYear(s string) string {
	if len(n.byAuthorYear) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range authorYearRe.FindAllStringSubmatchIndex(s, -1) {
		num, ok := n.byAuthorYear[strings.ToLower(s[m[2]:m[3]])+"|"+s[m[8]:m[9]]]
		if !ok || (m[0] > 0 && s[m[0]-1] == '[') {
			continue
		}
		end := m[1]
		if m[6] < 0 && m[10] >= 0 {
			end = m[10] // "(Smith 2020)": the closing parenthesis stays outside
		}
		b.WriteString(s[last:m[0]])
		fmt.Fprintf(&b, "[%s](#ref-%d)", s[m[0]:end], num)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// linkPlain escapes plain text (an HTML text node) and links its numeric
// and author–year citations to the reference list.
func (n *mdNorm) linkPlain(s string) string {
	type span struct {
		start, end int
		repl       string
	}
	var spans []span
	if len(n.refs) > 0 {
		for _, m := range numCiteRe.FindAllStringSubmatchIndex(s, -1) {
			var b strings.Builder
			b.WriteString(`\[`)
			for _, tok := range citeTokenRe.FindAllString(s[m[2]:m[3]], -1) {
				if num, ok := n.refs[tok]; ok {
					b.WriteString("[" + tok + "](#ref-" + strconv.Itoa(num) + ")")
				} else {
					b.WriteString(escapeMarkdown(tok))
				}
			}
			b.WriteString(`\]`)
			spans = append(spans, span{m[0], m[1], b.String()})
		}
	}
	if len(n.byAuthorYear) > 0 {
		numeric := len(spans) // sorted by start, not overlapping
		for _, m := range authorYearRe.FindAllStringSubmatchIndex(s, -1) {
			num, ok := n.byAuthorYear[strings.ToLower(s[m[2]:m[3]])+"|"+s[m[8]:m[9]]]
			if !ok {
				continue
			}
			end := m[1]
			if m[6] < 0 && m[10] >= 0 {
				end = m[10]
			}
			// The first numeric citation ending after this one starts.
			i := sort.Search(numeric, func(i int) bool { return spans[i].end > m[0] })
			if i < numeric && spans[i].start < end {
				continue // overlaps a numeric citation
			}
			spans = append(spans, span{m[0], end, "[" + escapeMarkdown(s[m[0]:end]) + "](#ref-" + strconv.Itoa(num) + ")"})
		}
	}
	if len(spans) == 0 {
		return escapeMarkdown(s)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(escapeMarkdown(s[last:sp.start]))
		b.WriteString(sp.repl)
		last = sp.end
	}
	b.WriteString(escapeMarkdown(s[last:]))
	return b.String()
}
