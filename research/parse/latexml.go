package parse

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// latexmlMarkdown converts a LaTeXML page (arxiv.org/html, ar5iv) to
// Markdown: headings, paragraphs, math as TeX from alttext, tables,
// figure captions, footnotes, the reference list, and citations linked to
// it ("[Smith 2020](#ref-3)" pointing at `<span id="ref-3">` in the list).
func latexmlMarkdown(doc *html.Node) (string, error) {
	root := findFirst(doc, func(n *html.Node) bool { return hasClass(n, "ltx_document") })
	if root == nil {
		return "", fmt.Errorf("not a LaTeXML document (no ltx_document): %w", ErrEmpty)
	}
	c := &lxConv{refs: map[string]int{}}
	c.numberRefs(root)
	c.block(root)
	md := strings.TrimSpace(c.out.String())
	if len(c.notes) > 0 {
		md += "\n\n" + strings.Join(c.notes, "\n")
	}
	if !hasLetter(md) {
		return "", ErrEmpty
	}
	return md + "\n", nil
}

// lxConv accumulates Markdown. Single-use.
type lxConv struct {
	out   strings.Builder
	notes []string       // footnote definitions
	refs  map[string]int // bibitem id → number
}

// numberRefs numbers the bibliography entries in order.
func (c *lxConv) numberRefs(root *html.Node) {
	walk(root, func(n *html.Node) bool {
		if hasClass(n, "ltx_bibitem") {
			if id := attr(n, "id"); id != "" {
				c.refs[id] = len(c.refs) + 1
			}
		}
		return true
	})
}

func (c *lxConv) emit(s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	c.out.WriteString(s)
	c.out.WriteString("\n\n")
}

var skipClasses = []string{"ltx_page_header", "ltx_page_footer", "ltx_page_navbar", "ltx_pagination", "ltx_TOC", "ltx_dates", "ltx_ERROR", "ar5iv-footer", "ltx_role_affiliationtext"}

// block converts a block-level subtree.
func (c *lxConv) block(n *html.Node) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.Type != html.ElementNode {
			if k.Type == html.TextNode && strings.TrimSpace(k.Data) != "" {
				c.emit(escapeMarkdown(collapse(k.Data)))
			}
			continue
		}
		switch {
		case skipNode(k):
		case headingLevel(k) > 0:
			c.emit(strings.Repeat("#", headingLevel(k)) + " " + c.inline(k))
		case hasClass(k, "ltx_authors"):
			c.authors(k)
		case hasClass(k, "ltx_equation"), hasClass(k, "ltx_equationgroup"):
			c.equation(k)
		case hasClass(k, "ltx_biblist"):
			c.bibliography(k)
		case hasClass(k, "ltx_figure"), hasClass(k, "ltx_table"), hasClass(k, "ltx_float"):
			c.figure(k)
		case hasClass(k, "ltx_tabular"):
			c.emit(c.table(k))
		case k.DataAtom == atom.Ul || k.DataAtom == atom.Ol:
			c.list(k)
		case hasClass(k, "ltx_p") || k.DataAtom == atom.P:
			c.emit(escapeLineStart(c.inline(k)))
		case k.DataAtom == atom.Math:
			c.emit(mathMarkdown(k))
		default:
			c.block(k)
		}
	}
}

func skipNode(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Nav, atom.Header, atom.Footer, atom.Button, atom.Img, atom.Svg, atom.Form, atom.Noscript:
		return true
	}
	for _, cl := range skipClasses {
		if hasClass(n, cl) {
			return true
		}
	}
	return false
}

// headingLevel maps LaTeXML titles to Markdown levels (0: not a heading).
func headingLevel(n *html.Node) int {
	if !hasClass(n, "ltx_title") {
		return 0
	}
	for _, m := range []struct {
		class string
		level int
	}{{"ltx_title_document", 1}, {"ltx_title_section", 2}, {"ltx_title_appendix", 2}, {"ltx_title_bibliography", 2},
		{"ltx_title_abstract", 2}, {"ltx_title_acknowledgements", 2}, {"ltx_title_subsection", 3},
		{"ltx_title_subsubsection", 4}, {"ltx_title_paragraph", 5}} {
		if hasClass(n, m.class) {
			return m.level
		}
	}
	switch n.DataAtom {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4, atom.H5, atom.H6:
		return 4
	}
	return 0 // figure and table captions' titles are not headings
}

// authors emits the author names in one line (affiliations and contact
// details are left to the library's metadata).
func (c *lxConv) authors(n *html.Node) {
	var names []string
	for _, p := range findAll(n, func(x *html.Node) bool { return hasClass(x, "ltx_personname") }) {
		var b strings.Builder
		for k := p.FirstChild; k != nil; k = k.NextSibling {
			if k.Type == html.TextNode {
				b.WriteString(k.Data)
			} else if k.DataAtom != atom.Br && !hasClass(k, "ltx_note") && !hasClass(k, "ltx_contact") {
				b.WriteString(textOf(k))
			} else {
				b.WriteString(" ")
			}
		}
		if name := strings.TrimSpace(collapse(b.String())); name != "" {
			names = append(names, escapeMarkdown(name))
		}
	}
	if len(names) > 0 {
		c.emit("*" + strings.Join(names, ", ") + "*")
	}
}

// equation emits display math, one $$…$$ per row, with its number as \tag.
func (c *lxConv) equation(n *html.Node) {
	rows := findAll(n, func(x *html.Node) bool { return x.DataAtom == atom.Tr })
	if len(rows) == 0 {
		rows = []*html.Node{n}
	}
	for _, r := range rows {
		var tex []string
		for _, m := range findAll(r, func(x *html.Node) bool { return x.DataAtom == atom.Math }) {
			tex = append(tex, mathTeX(m))
		}
		if len(tex) == 0 {
			continue
		}
		eq := strings.Join(tex, " ")
		if tag := findFirst(r, func(x *html.Node) bool { return hasClass(x, "ltx_tag_equation") }); tag != nil {
			if num := strings.Trim(textOf(tag), "() \u00a0"); num != "" {
				eq += ` \tag{` + num + `}`
			}
		}
		c.emit("$$" + eq + "$$")
	}
}

// figure emits a float's caption and its table (a table's caption above
// it, a figure's below).
func (c *lxConv) figure(n *html.Node) {
	var tables []string
	for _, t := range findAll(n, func(x *html.Node) bool { return hasClass(x, "ltx_tabular") }) {
		tables = append(tables, c.table(t))
	}
	if !hasClass(n, "ltx_table") {
		defer c.caption(n)
	} else {
		c.caption(n)
	}
	for _, t := range tables {
		c.emit(t)
	}
}

func (c *lxConv) caption(n *html.Node) {
	caps := findAll(n, func(x *html.Node) bool { return x.DataAtom == atom.Figcaption || hasClass(x, "ltx_caption") })
	if len(caps) == 0 {
		return
	}
	cap := caps[0] // the figure's own caption; nested figures' come later
	txt := c.inline(cap)
	if tag := findFirst(cap, func(x *html.Node) bool { return hasClass(x, "ltx_tag") }); tag != nil {
		label := strings.TrimSpace(collapse(textOf(tag)))
		rest := strings.TrimSpace(strings.TrimPrefix(txt, escapeMarkdown(label)))
		txt = "**" + escapeMarkdown(strings.TrimSuffix(label, ":")) + ":** " + rest
	}
	c.emit(txt)
}

// list emits an itemize/enumerate list.
func (c *lxConv) list(n *html.Node) { c.emit(markdownList(n, c.inline)) }

// bibliography emits the reference list with anchors citations link to.
func (c *lxConv) bibliography(n *html.Node) {
	var b strings.Builder
	for _, li := range findAll(n, func(x *html.Node) bool { return hasClass(x, "ltx_bibitem") }) {
		num := c.refs[attr(li, "id")]
		var parts []string
		for _, bl := range findAll(li, func(x *html.Node) bool { return hasClass(x, "ltx_bibblock") }) {
			parts = append(parts, c.inline(bl))
		}
		if len(parts) == 0 {
			parts = append(parts, c.inline(li))
		}
		fmt.Fprintf(&b, "%d. <span id=\"ref-%d\"></span>%s\n", num, num, strings.Join(parts, " "))
	}
	c.emit(b.String())
}

// inline converts a subtree to one line of Markdown.
func (c *lxConv) inline(n *html.Node) string {
	var b strings.Builder
	c.inlineInto(&b, n)
	return strings.TrimSpace(collapse(b.String()))
}

func (c *lxConv) inlineInto(b *strings.Builder, n *html.Node) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.inlineNode(b, k)
	}
}

func (c *lxConv) inlineNode(b *strings.Builder, k *html.Node) {
	switch {
	case k.Type == html.TextNode:
		b.WriteString(escapeMarkdown(strings.ReplaceAll(k.Data, "\n", " ")))
	case k.Type != html.ElementNode, skipNode(k), hasClass(k, "ltx_note_mark"), hasClass(k, "ltx_tag_item"):
	case k.DataAtom == atom.Math:
		b.WriteString(mathMarkdown(k))
	case hasClass(k, "ltx_role_footnote"), hasClass(k, "ltx_note"):
		c.footnote(b, k)
	case k.DataAtom == atom.A:
		c.link(b, k)
	case k.DataAtom == atom.Em || k.DataAtom == atom.I || hasClass(k, "ltx_font_italic"):
		wrapInline(b, c.inline(k), "*")
	case k.DataAtom == atom.Strong || k.DataAtom == atom.B || hasClass(k, "ltx_font_bold"):
		wrapInline(b, c.inline(k), "**")
	case k.DataAtom == atom.Br:
		b.WriteByte(' ')
	case k.DataAtom == atom.Sup && !hasClass(k, "ltx_note_mark"):
		b.WriteString("<sup>" + c.inline(k) + "</sup>")
	case k.DataAtom == atom.Sub:
		b.WriteString("<sub>" + c.inline(k) + "</sub>")
	default:
		c.inlineInto(b, k)
	}
}

func wrapInline(b *strings.Builder, s, mark string) {
	if s == "" {
		return
	}
	b.WriteString(mark + s + mark)
}

// link keeps citations (to the reference list) and external http(s)
// links; other internal references become plain text.
func (c *lxConv) link(b *strings.Builder, a *html.Node) {
	txt := c.inline(a)
	href := attr(a, "href")
	if i := strings.LastIndexByte(href, '#'); i >= 0 {
		if num, ok := c.refs[href[i+1:]]; ok && txt != "" {
			fmt.Fprintf(b, "[%s](#ref-%d)", txt, num)
			return
		}
	}
	if (strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://")) && txt != "" {
		fmt.Fprintf(b, "[%s](<%s>)", txt, strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(href))
		return
	}
	b.WriteString(txt)
}

// footnote leaves a [^n] mark and collects the note's text.
func (c *lxConv) footnote(b *strings.Builder, n *html.Node) {
	content := findFirst(n, func(x *html.Node) bool { return hasClass(x, "ltx_note_content") })
	if content == nil {
		content = n
	}
	var t strings.Builder
	for k := content.FirstChild; k != nil; k = k.NextSibling {
		if !hasClass(k, "ltx_tag") {
			c.inlineNode(&t, k)
		}
	}
	num := len(c.notes) + 1
	c.notes = append(c.notes, fmt.Sprintf("[^%d]: %s", num, strings.TrimSpace(collapse(t.String()))))
	fmt.Fprintf(b, "[^%d]", num)
}

// mathTeX is a formula's TeX source: alttext, else the TeX annotation,
// else its text.
func mathTeX(m *html.Node) string {
	tex := attr(m, "alttext")
	if tex == "" {
		if a := findFirst(m, func(x *html.Node) bool {
			return x.Data == "annotation" && strings.Contains(attr(x, "encoding"), "tex")
		}); a != nil {
			tex = textOf(a)
		}
	}
	if tex == "" {
		tex = textOf(m)
	}
	tex = strings.TrimSpace(collapse(tex))
	tex = strings.TrimPrefix(strings.TrimSuffix(tex, `\displaystyle`), `\displaystyle`)
	return inlineTeX(tex)
}

func mathMarkdown(m *html.Node) string {
	tex := mathTeX(m)
	if tex == "" {
		return ""
	}
	if attr(m, "display") == "block" {
		return "$$" + tex + "$$"
	}
	return "$" + tex + "$"
}

// collapse replaces each run of ASCII white space (what RE2's \s
// matches: tab, newline, form feed, carriage return, space) with one space.
func collapse(s string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = !isSpace(s[i]) || (s[i] == ' ' && (i+1 == len(s) || !isSpace(s[i+1])))
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			b.WriteByte(s[i])
			continue
		}
		b.WriteByte(' ')
		for i+1 < len(s) && isSpace(s[i+1]) {
			i++
		}
	}
	return b.String()
}

// DOM helpers.

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	if n.Type != html.ElementNode {
		return false
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// walk visits n's subtree depth first; f returns false to skip children.
func walk(n *html.Node, f func(*html.Node) bool) {
	if !f(n) {
		return
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		walk(k, f)
	}
}

func findFirst(n *html.Node, pred func(*html.Node) bool) *html.Node {
	var found *html.Node
	walk(n, func(x *html.Node) bool {
		if found != nil {
			return false
		}
		if pred(x) {
			found = x
			return false
		}
		return true
	})
	return found
}

// markdownList renders a ul or ol element as a Markdown list, one line an
// li, each item's content rendered by inline.
func markdownList(n *html.Node, inline func(*html.Node) string) string {
	var b strings.Builder
	i := 0
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.DataAtom != atom.Li {
			continue
		}
		i++
		marker := "- "
		if n.DataAtom == atom.Ol {
			marker = fmt.Sprintf("%d. ", i)
		}
		b.WriteString(marker + escapeLineStart(inline(k)) + "\n")
	}
	return b.String()
}

func findAll(n *html.Node, pred func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	walk(n, func(x *html.Node) bool {
		if x != n && pred(x) {
			out = append(out, x)
			return false
		}
		return true
	})
	return out
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(x *html.Node) bool {
		if x.Type == html.TextNode {
			b.WriteString(x.Data)
		}
		return true
	})
	return b.String()
}
