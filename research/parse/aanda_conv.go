package parse

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// aandaMarkdown converts an A&A full-text page. It reads the page by its
// structure, not by class names (A&A publishes no description of its
// markup): title and authors from the citation_* meta tags; the article from
// the abstract's heading (the one holding the <a name="abs"> anchor, else a
// heading "Abstract", else the first heading numbered 1) to the References
// heading, in document order, with appendices and footnotes after the
// references kept and everything else there (usage metrics, related
// articles, the site's footer) dropped — without a References heading the
// article ends at the first top-level heading that is neither numbered nor
// a usual section name; headings h1–h6, paragraphs (text
// outside <p> as well), lists and tables; math as TeX from any of the forms
// MathJax pages use (MathML alttext or annotation, <script type="math/tex">,
// \(…\) and \[…\] in text, TeX in an equation image's alt text), a formula
// standing alone, with its number "(3)" beside it, as display math;
// captions starting "Fig. n"/"Table n" next to an image or a table with
// their label in bold; the reference list (the list after the References
// heading, else refDoc's) numbered, with its link buttons (NASA ADS,
// CrossRef, EDP Sciences, Google Scholar) reduced to a DOI link, and
// in-text citations linked to it by their #anchor or by author and year.
// It returns ErrNoFullText when the page has no numbered section (an
// abstract page).
func aandaMarkdown(doc, refDoc *html.Node) (string, error) {
	start := aandaStart(doc)
	if start == nil {
		return "", ErrNoFullText
	}
	c := &aaConv{norm: &mdNorm{refs: map[string]int{}, byAuthorYear: map[string]int{}}, anchors: map[string]int{}, start: start,
		before: map[*html.Node]bool{}, floats: floatHolders(doc), end: articleEnd(doc, start)}
	for p := start.Parent; p != nil; p = p.Parent {
		c.before[p] = true
	}
	list := aandaReferenceList(doc)
	if list == nil && refDoc != nil {
		if list = aandaReferenceList(refDoc); list == nil {
			list = largestList(refDoc)
		}
	}
	refs := c.indexRefs(list)
	c.emit(titleAuthors(doc))
	c.block(doc)
	if c.numbered == 0 {
		return "", ErrNoFullText
	}
	if len(refs) > 0 {
		c.emitAt(c.refsAt, "## References\n\n"+refListMarkdown(refs))
	}
	md := strings.TrimSpace(c.out.String())
	if !hasLetter(md) {
		return "", ErrEmpty
	}
	return md + "\n", nil
}

type aaConv struct {
	out     strings.Builder
	norm    *mdNorm        // author–year citations → reference list
	anchors map[string]int // an id or name inside reference n → n
	start   *html.Node     // the abstract's heading: output begins there
	before  map[*html.Node]bool
	started bool
	done    bool // past the article
	// afterRefs: inside the references section (skipped; the list is
	// rendered from indexRefs). pastRefs: the References heading was
	// passed, so only appendices and notes (and their subsections, headings
	// deeper than tailLevel) may follow.
	afterRefs bool
	pastRefs  bool
	tailLevel int
	refsAt    int // output offset where the reference list goes
	inAbs     bool
	end       *html.Node          // without a References heading: the heading after the article
	numbered  int                 // numbered section headings ("1 Introduction")
	floats    map[*html.Node]bool // elements holding an image or a table
}

func (c *aaConv) emit(s string) {
	if s = strings.TrimSpace(s); s != "" {
		c.out.WriteString(s + "\n\n")
	}
}

// emitAt inserts a block at an output offset (the reference list where its
// heading was, before appendices and notes).
func (c *aaConv) emitAt(at int, s string) {
	all := c.out.String()
	if at <= 0 || at > len(all) {
		at = len(all)
	}
	c.out.Reset()
	c.out.WriteString(all[:at] + strings.TrimSpace(s) + "\n\n" + all[at:])
}

var (
	// afterRefsHeadingRe: sections A&A places after the references.
	afterRefsHeadingRe = regexp.MustCompile(`(?i)^(?:appendix|appendices|foot ?notes|notes)\b`)
	firstSectionRe     = regexp.MustCompile(`^1\.?\s+\p{L}`)
	// aaCaptionRe: a float's caption label ("Fig. 2", "Figure A.1", "Table 3").
	aaCaptionRe = regexp.MustCompile(`^((?:Fig\.|Figure|Table)\s+[A-Z]?\.?[0-9]+[a-z]?)\.?\s+`)
	// equationRe: inline Markdown that is one formula with an optional
	// number "(3)", "(3a)".
	equationRe = regexp.MustCompile(`^\${1,2}((?:[^$\\]|\\.)+?)\${1,2}\s*(?:\(([0-9A-Z.]{1,8}[a-z]?)\))?$`)
)

// aaLinkLabels are A&A's link buttons, dropped from the text.
var aaLinkLabels = map[string]bool{"nasa ads": true, "crossref": true, "edp sciences": true, "google scholar": true,
	"pubmed": true, "open with dexter": true, "dexter": true, "in the text": true}

// aandaStart is the heading the article begins with.
func aandaStart(doc *html.Node) *html.Node {
	if a := findFirst(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.A && (attr(n, "name") == "abs" || attr(n, "id") == "abs")
	}); a != nil {
		for p := a; p != nil; p = p.Parent {
			if isHeading(p) {
				return p
			}
		}
		return a
	}
	if h := findFirst(doc, func(n *html.Node) bool {
		return isHeading(n) && strings.EqualFold(strings.TrimSpace(collapse(textOf(n))), "abstract")
	}); h != nil {
		return h
	}
	return findFirst(doc, func(n *html.Node) bool {
		return isHeading(n) && firstSectionRe.MatchString(strings.TrimSpace(collapse(textOf(n))))
	})
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// aandaReferenceList is the list in the References section: the first ul
// or ol after the References heading and before the next heading, outside
// page chrome.
func aandaReferenceList(doc *html.Node) *html.Node {
	h := refsHeading(doc)
	for n := nextInOrder(h, false); n != nil; n = nextInOrder(n, !aaSkip(n)) {
		switch {
		case aaSkip(n):
		case isHeading(n):
			return nil
		case n.DataAtom == atom.Ol || n.DataAtom == atom.Ul:
			return n
		}
	}
	return nil
}

// hasNumberedSection reports whether the page, outside its chrome, has a
// numbered section heading ("1 Introduction"): an article, not an abstract
// page.
func hasNumberedSection(doc *html.Node) bool {
	found := false
	walk(doc, func(n *html.Node) bool {
		if found || aaSkip(n) {
			return false
		}
		if isHeading(n) && numberedHeadingRe.MatchString(strings.TrimSpace(collapse(textOf(n)))) {
			found = true
			return false
		}
		return true
	})
	return found
}

// refsHeading is the References heading outside page chrome, or nil.
func refsHeading(doc *html.Node) *html.Node {
	var h *html.Node
	walk(doc, func(n *html.Node) bool {
		if h != nil || aaSkip(n) {
			return false
		}
		if isHeading(n) && refsHeadingRe.MatchString(strings.TrimSpace(collapse(textOf(n)))) {
			h = n
			return false
		}
		return true
	})
	return h
}

// articleEnd is, on a page without a References heading, the heading the
// article ends at: the first heading at the abstract's level or above that
// follows the last numbered or usual section heading and is neither (the
// page's own sections: metrics, related articles). Nil when the page has a
// References heading (the article then ends after it) or no such heading.
func articleEnd(doc, start *html.Node) *html.Node {
	if refsHeading(doc) != nil {
		return nil
	}
	top := headingRank(start)
	var tops []*html.Node
	started := false
	walk(doc, func(n *html.Node) bool {
		if aaSkip(n) {
			return false
		}
		started = started || n == start
		if started && isHeading(n) && headingRank(n) <= top {
			tops = append(tops, n)
		}
		return true
	})
	last := 0 // the start heading is a section
	for i, h := range tops {
		plain := strings.TrimSpace(collapse(textOf(h)))
		if numberedHeadingRe.MatchString(plain) || sectionNameRe.MatchString(plain) || afterRefsHeadingRe.MatchString(plain) {
			last = i
		}
	}
	if last+1 < len(tops) {
		return tops[last+1]
	}
	return nil
}

// headingRank is 1 for h1 … 6 for h6 (7 for anything else).
func headingRank(n *html.Node) int {
	if isHeading(n) {
		return int(n.Data[1] - '0')
	}
	return 7
}

// nextInOrder is the node after n in document order; into says whether
// n's own children come first (false skips its subtree). Nil after the
// last node, or when n is nil.
func nextInOrder(n *html.Node, into bool) *html.Node {
	if n == nil {
		return nil
	}
	if into && n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != nil; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// floatHolders is the set of elements that hold an image or a table (the
// elements themselves and all their ancestors), found in one pass.
func floatHolders(doc *html.Node) map[*html.Node]bool {
	set := map[*html.Node]bool{}
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom == atom.Img || n.DataAtom == atom.Table {
			for p := n; p != nil && !set[p]; p = p.Parent {
				set[p] = true
			}
		}
		return true
	})
	return set
}

// largestList is the ul or ol with the most items, outside page chrome.
func largestList(doc *html.Node) *html.Node {
	var best *html.Node
	most := 0
	walk(doc, func(n *html.Node) bool {
		if aaSkip(n) {
			return false
		}
		if n.DataAtom == atom.Ol || n.DataAtom == atom.Ul {
			items := 0
			for k := n.FirstChild; k != nil; k = k.NextSibling {
				if k.DataAtom == atom.Li {
					items++
				}
			}
			if items > most {
				best, most = n, items
			}
		}
		return true
	})
	return best
}

// indexRefs renders the reference entries and indexes them: every id or
// name inside entry n, and its first author's surname with its year.
func (c *aaConv) indexRefs(list *html.Node) []string {
	if list == nil {
		return nil
	}
	var out []string
	for li := list.FirstChild; li != nil; li = li.NextSibling {
		if li.DataAtom != atom.Li {
			continue
		}
		num := len(out) + 1
		walk(li, func(n *html.Node) bool {
			for _, key := range []string{"id", "name"} {
				if v := attr(n, key); v != "" {
					c.anchors[v] = num
				}
			}
			return true
		})
		text, doi := c.refEntry(li)
		if text == "" {
			out = append(out, "")
			continue
		}
		plain := refLabelRe.ReplaceAllString(strings.TrimSpace(collapse(textOf(li))), "")
		if key, ok := refKey(plain); ok {
			if _, dup := c.norm.byAuthorYear[key]; !dup {
				c.norm.byAuthorYear[key] = num
			}
		}
		if doi != "" {
			text += " " + linkIdentifiers("doi:"+doi)
		}
		out = append(out, text)
	}
	return out
}

// doiRe is a DOI as a reference may link it: no spaces or control
// characters, nothing that reads as Markdown or HTML.
var doiRe = regexp.MustCompile(`^10\.[0-9]{4,9}/[^\s<>\[\]()"'` + "`" + `]+$`)

// refEntry is a reference's text without its link buttons, and the DOI one
// of them points to.
func (c *aaConv) refEntry(li *html.Node) (text, doi string) {
	walk(li, func(n *html.Node) bool {
		if n.DataAtom == atom.A && doi == "" {
			href := attr(n, "href")
			for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/"} {
				if d, ok := strings.CutPrefix(href, p); ok {
					if u, err := url.PathUnescape(d); err == nil && doiRe.MatchString(u) {
						doi = u
					}
				}
			}
		}
		return true
	})
	var b strings.Builder
	c.inlineInto(&b, li, false)
	text = strings.TrimSpace(collapse(b.String()))
	text = strings.TrimSpace(refLabelRe.ReplaceAllString(text, ""))
	return text, doi
}

// block converts the block-level content of n in document order: before
// the start heading only its ancestors are entered, after the article
// nothing is.
func (c *aaConv) block(n *html.Node) {
	var run []*html.Node // inline content between blocks, one paragraph
	flush := func() {
		if len(run) > 0 {
			c.paragraph(run, n)
			run = nil
		}
	}
	for k := n.FirstChild; k != nil && !c.done; k = k.NextSibling {
		if !c.started {
			if k == c.start {
				c.started = true
			} else {
				if c.before[k] {
					c.block(k)
				}
				continue
			}
		}
		if k.Type == html.TextNode || (k.Type == html.ElementNode && !isBlock(k) && !aaSkip(k)) {
			if c.afterRefs {
				continue
			}
			run = append(run, k)
			continue
		}
		flush()
		if k.Type != html.ElementNode || aaSkip(k) {
			continue
		}
		if isHeading(k) {
			c.heading(k)
			continue
		}
		if c.afterRefs {
			continue // the reference list, or what follows the article
		}
		switch k.DataAtom {
		case atom.Table:
			c.table(k)
		case atom.Ul, atom.Ol:
			c.emit(markdownList(k, func(n *html.Node) string { return c.inline(n) }))
		case atom.Hr:
		default:
			c.block(k)
		}
	}
	flush()
}

// heading emits a heading and tracks where the article is: the abstract,
// the body, the references (and only appendices and notes after them).
func (c *aaConv) heading(k *html.Node) {
	title := c.inline(k)
	plain := strings.TrimSpace(collapse(textOf(k)))
	level := 2
	switch k.DataAtom {
	case atom.H3:
		level = 3
	case atom.H4, atom.H5, atom.H6:
		level = 4
	}
	switch {
	case refsHeadingRe.MatchString(plain) && !c.pastRefs:
		c.afterRefs, c.pastRefs = true, true
		c.refsAt = c.out.Len()
		return
	case c.pastRefs && afterRefsHeadingRe.MatchString(plain):
		c.tailLevel = level
	case c.pastRefs && (c.tailLevel == 0 || level <= c.tailLevel):
		c.done = true
		return
	case k == c.end:
		c.done = true // the page after an article without a References heading
		return
	}
	c.afterRefs = false
	c.inAbs = strings.EqualFold(plain, "abstract") || k == c.start && !firstSectionRe.MatchString(plain)
	if c.inAbs {
		title = "Abstract"
	} else if numberedHeadingRe.MatchString(plain) {
		c.numbered++
	}
	if title != "" {
		c.emit(strings.Repeat("#", level) + " " + title)
	}
}

// paragraph emits inline nodes as one paragraph, or as display math when
// they are one formula (with its number) and nothing else.
func (c *aaConv) paragraph(nodes []*html.Node, parent *html.Node) {
	var b strings.Builder
	for _, k := range nodes {
		c.inlineNode(&b, k, true)
	}
	text := strings.TrimSpace(collapse(b.String()))
	if text == "" {
		return
	}
	if eq, ok := displayEquation(text); ok {
		c.emit(eq)
		return
	}
	if m := aaCaptionRe.FindStringSubmatch(text); m != nil && c.nearFloat(parent) {
		text = "**" + m[1] + ".** " + text[len(m[0]):]
	}
	c.emit(escapeLineStart(text))
}

// displayEquation turns "$x$ (3)" or "$$x$$" into "$$x\tag{3}$$".
func displayEquation(text string) (string, bool) {
	m := equationRe.FindStringSubmatch(text)
	if m == nil || (m[2] == "" && !strings.HasPrefix(text, "$$")) {
		return "", false
	}
	tex := strings.TrimSpace(m[1])
	if m[2] != "" {
		tex += `\tag{` + m[2] + `}`
	}
	return "$$" + tex + "$$", true
}

// nearFloat reports whether an image or a table is close by: n or one of
// its two parents holds one.
func (c *aaConv) nearFloat(n *html.Node) bool {
	for i := 0; n != nil && i < 3; i, n = i+1, n.Parent {
		if c.floats[n] {
			return true
		}
	}
	return false
}

// table emits a table, or the display formula a one-row layout table holds.
func (c *aaConv) table(t *html.Node) {
	rows := findAll(t, func(x *html.Node) bool { return x.DataAtom == atom.Tr })
	if len(rows) <= 1 {
		if eq, ok := displayEquation(c.inline(t)); ok {
			c.emit(eq)
			return
		}
	}
	c.emit(tableMarkdown(t, c.inline))
}

// isBlock reports whether an element starts a block of its own.
func isBlock(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.P, atom.Div, atom.Table, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Figure, atom.Figcaption, atom.Section, atom.Article, atom.Main, atom.Blockquote, atom.Pre,
		atom.Hr, atom.Center, atom.Aside, atom.Nav, atom.Header, atom.Footer, atom.Form, atom.Body, atom.Html:
		return true
	}
	return false
}

// aaSkip is page chrome and invisible content.
func aaSkip(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Script:
		return !strings.HasPrefix(attr(n, "type"), "math/tex")
	case atom.Img:
		return false // an equation image's alt text is its TeX
	case atom.Aside, atom.Iframe, atom.Select, atom.Input, atom.Textarea, atom.Template, atom.Head:
		return true
	}
	switch attr(n, "role") {
	case "navigation", "banner", "contentinfo", "complementary", "search":
		return true
	}
	return skipNode(n) || hasAttr(n, "hidden") || strings.Contains(strings.ReplaceAll(attr(n, "style"), " ", ""), "display:none")
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func (c *aaConv) inline(n *html.Node) string {
	var b strings.Builder
	c.inlineInto(&b, n, true)
	return strings.TrimSpace(collapse(b.String()))
}

func (c *aaConv) inlineInto(b *strings.Builder, n *html.Node, link bool) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.inlineNode(b, k, link)
	}
}

// inlineNode converts one node to Markdown; link says whether citations in
// text become links (not inside a link already).
func (c *aaConv) inlineNode(b *strings.Builder, k *html.Node, link bool) {
	switch {
	case k.Type == html.TextNode:
		c.text(b, strings.ReplaceAll(k.Data, "\n", " "), link)
	case k.Type != html.ElementNode:
	case k.DataAtom == atom.Script:
		if tex := inlineTeX(textOf(k)); tex != "" && strings.HasPrefix(attr(k, "type"), "math/tex") {
			if strings.Contains(attr(k, "type"), "mode=display") {
				b.WriteString("$$" + tex + "$$")
			} else {
				b.WriteString("$" + tex + "$")
			}
		}
	case k.DataAtom == atom.Img:
		if tex, ok := texAlt(attr(k, "alt")); ok {
			b.WriteString("$" + tex + "$")
		}
	case aaSkip(k):
	case k.DataAtom == atom.Math:
		b.WriteString(mathMarkdown(k))
	case k.DataAtom == atom.A:
		c.link(b, k, link)
	case k.DataAtom == atom.Em || k.DataAtom == atom.I:
		var t strings.Builder
		c.inlineInto(&t, k, link)
		wrapInline(b, strings.TrimSpace(collapse(t.String())), "*")
	case k.DataAtom == atom.Strong || k.DataAtom == atom.B:
		var t strings.Builder
		c.inlineInto(&t, k, link)
		wrapInline(b, strings.TrimSpace(collapse(t.String())), "**")
	case k.DataAtom == atom.Sup || k.DataAtom == atom.Sub:
		var t strings.Builder
		c.inlineInto(&t, k, link)
		if s := strings.TrimSpace(collapse(t.String())); s != "" {
			b.WriteString("<" + k.Data + ">" + s + "</" + k.Data + ">")
		}
	case k.DataAtom == atom.Br:
		b.WriteByte(' ')
	default:
		c.inlineInto(b, k, link)
	}
}

// link keeps citations (to the reference list) and external links; A&A's
// link buttons are dropped and other internal links become their text.
func (c *aaConv) link(b *strings.Builder, a *html.Node, link bool) {
	var t strings.Builder
	c.inlineInto(&t, a, false)
	txt := strings.TrimSpace(collapse(t.String()))
	if txt == "" || aaLinkLabels[strings.ToLower(strings.TrimSpace(collapse(textOf(a))))] {
		return
	}
	href := attr(a, "href")
	if frag, ok := strings.CutPrefix(href, "#"); ok && link {
		if num, ok := c.anchors[frag]; ok {
			fmt.Fprintf(b, "[%s](#ref-%d)", txt, num)
			return
		}
	}
	if link && (strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://")) {
		fmt.Fprintf(b, "[%s](<%s>)", txt, strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(href))
		return
	}
	b.WriteString(txt)
}

// texDelims are MathJax's TeX delimiters in text: inline \(…\), display
// \[…\] and $$…$$.
var texDelims = [...]struct{ open, close, md string }{{`\(`, `\)`, "$"}, {`\[`, `\]`, "$$"}, {"$$", "$$", "$$"}}

// text writes a text node: TeX between MathJax delimiters kept as math,
// the rest escaped with its author–year citations linked. One pass: the
// next opening of each delimiter is remembered, and a delimiter with no
// closing left is not looked for again.
func (c *aaConv) text(b *strings.Builder, s string, link bool) {
	var next [len(texDelims)]int // next opening at or after pos; -1 none left
	for i := range next {
		next[i] = -2 // not looked for yet
	}
	pos := 0
	for {
		at, d := -1, 0
		for i, cand := range texDelims {
			if next[i] == -1 {
				continue
			}
			if next[i] < pos {
				j := strings.Index(s[pos:], cand.open)
				if j < 0 {
					next[i] = -1
					continue
				}
				next[i] = pos + j
			}
			if at < 0 || next[i] < at {
				at, d = next[i], i
			}
		}
		if at < 0 {
			break
		}
		body := at + len(texDelims[d].open)
		end := strings.Index(s[body:], texDelims[d].close)
		if end < 0 {
			next[d] = -1 // never closed from here on
			continue
		}
		c.plain(b, s[pos:at], link)
		if tex := inlineTeX(s[body : body+end]); tex != "" {
			b.WriteString(texDelims[d].md + tex + texDelims[d].md)
		}
		pos = body + end + len(texDelims[d].close)
	}
	c.plain(b, s[pos:], link)
}

func (c *aaConv) plain(b *strings.Builder, s string, link bool) {
	if link {
		b.WriteString(c.norm.linkPlain(s))
	} else {
		b.WriteString(escapeMarkdown(s))
	}
}

// texAlt is the TeX in an equation image's alt text ("$x^2$", "\(x\)",
// "\[x\]"); other alt text (a figure's description) is not.
func texAlt(alt string) (string, bool) {
	a := strings.TrimSpace(alt)
	for _, d := range []struct{ open, close string }{{"$$", "$$"}, {"$", "$"}, {`\(`, `\)`}, {`\[`, `\]`}} {
		if len(a) > len(d.open)+len(d.close) && strings.HasPrefix(a, d.open) && strings.HasSuffix(a, d.close) {
			tex := inlineTeX(a[len(d.open) : len(a)-len(d.close)])
			return tex, tex != ""
		}
	}
	return "", false
}
