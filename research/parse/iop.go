package parse

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// IOPHTMLEngine reads the full-text article page of an IOP journal paper
// (ApJ, ApJL, ApJS, AJ, PSJ: DOIs 10.3847/…; older ApJ/AJ: 10.1088/…, and
// 10.1086/… which IOPscience hosts too) at IOP_URL/article/{DOI}. A page
// without the full text (no open access) is not applicable, so the PDF
// engines run. Safe for concurrent use.
type IOPHTMLEngine struct {
	Web    Getter
	URL    string // IOPscience, e.g. https://iopscience.iop.org
	Limits Limits
}

// Name implements Engine.
func (e *IOPHTMLEngine) Name() string { return "iop-html" }

// IOPDOI reports whether doi is one IOPscience serves as a full-text page.
func IOPDOI(doi string) bool {
	d := strings.ToLower(strings.TrimSpace(doi))
	for _, p := range []string{"10.3847/", "10.1088/", "10.1086/"} {
		if strings.HasPrefix(d, p) {
			return true
		}
	}
	return false
}

// Parse implements Engine.
func (e *IOPHTMLEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if e.URL == "" || e.Web == nil || !IOPDOI(in.DOI) {
		return Document{}, fmt.Errorf("no IOP DOI: %w", ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	url := strings.TrimRight(e.URL, "/") + "/article/" + strings.TrimSpace(in.DOI)
	progress.report("fetching the IOPscience article page")
	res, err := e.Web.Get(ctx, url, fetch.WithMaxBytes(lim.MaxFileBytes), fetch.WithTimeout(lim.Timeout))
	if err != nil {
		return Document{}, err
	}
	if res.Status != http.StatusOK {
		return Document{}, fmt.Errorf("IOPscience answered HTTP %d", res.Status)
	}
	if err := fetch.ExpectType(res, "text/html", "application/xhtml+xml"); err != nil {
		return Document{}, err
	}
	md, err := IOPHTMLToMarkdown(res.Body)
	if err != nil {
		return Document{}, err
	}
	return Document{Markdown: md, Engine: e.Name(), Source: url}, nil
}

// ErrNoFullText means a publisher page carries the abstract only.
var ErrNoFullText = fmt.Errorf("the page has no full text (not open access?): %w", ErrNotApplicable)

// IOPHTMLToMarkdown converts an IOPscience article page. The markup it
// reads (see iop_test.go for the sources): citation_* meta tags for the
// title, authors and references (citation_reference, "key=value; …");
// div.wd-jnl-art-abstract; the body in div.wd-jnl-art-full-text, nested
// div.article-text blocks with h2/h3/h4 headings and p paragraphs; TeX in
// <script type="math/tex"> (inline) and <script type="math/tex;
// mode=display"> inside div.display-eqn, with hidden span.texImage
// renderings; figures as figure[data-toolbar-type=figure] with a
// figcaption (<strong> label, <p> text); tables as
// table[data-toolbar-type=table] (data-toolbar-title) in div.boxout with
// <p><small> notes; footnotes under h2#footnotes as li.indices-list
// (div.indices-id, div.indices-content).
func IOPHTMLToMarkdown(page []byte) (string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return "", fmt.Errorf("html: %w", err)
	}
	body := findFirst(doc, func(n *html.Node) bool { return hasClass(n, "wd-jnl-art-full-text") })
	if body == nil {
		return "", ErrNoFullText
	}
	c := &iopConv{norm: &mdNorm{refs: map[string]int{}, byAuthorYear: map[string]int{}}}
	refs := c.references(doc)
	c.emit(titleAuthors(doc))
	if abs := findFirst(doc, func(n *html.Node) bool { return hasClass(n, "wd-jnl-art-abstract") }); abs != nil {
		if findFirst(abs, func(n *html.Node) bool { return n.DataAtom == atom.H2 || n.DataAtom == atom.H3 }) == nil {
			c.emit("## Abstract")
		}
		c.block(abs)
	}
	c.block(body)
	if fn := findFirst(doc, func(n *html.Node) bool { return n.DataAtom == atom.H2 && attr(n, "id") == "footnotes" }); fn != nil {
		c.footnotes(fn)
	}
	if len(refs) > 0 {
		c.emit("## References\n\n" + refListMarkdown(refs))
	}
	md := strings.TrimSpace(c.out.String())
	if !hasLetter(md) {
		return "", ErrEmpty
	}
	return md + "\n", nil
}

type iopConv struct {
	out    strings.Builder
	norm   *mdNorm // citations → reference list
	inRefs bool    // inside a "References" section of the body (the list comes from the meta tags)
}

func (c *iopConv) emit(s string) {
	if s = strings.TrimSpace(s); s != "" {
		c.out.WriteString(s + "\n\n")
	}
}

// block converts the body's block elements.
func (c *iopConv) block(n *html.Node) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.Type != html.ElementNode {
			continue
		}
		switch {
		case k.DataAtom == atom.H2 && attr(k, "id") == "footnotes":
			return // handled after the body
		case k.DataAtom == atom.H2 || k.DataAtom == atom.H3 || k.DataAtom == atom.H4 || k.DataAtom == atom.H5:
			title := c.inline(k)
			c.inRefs = refsHeadingRe.MatchString(title)
			if !c.inRefs && title != "" {
				c.emit(strings.Repeat("#", min(int(k.Data[1]-'0'), 4)) + " " + title)
			}
		case c.inRefs:
		case skipNode(k), hasClass(k, "texImage"):
		case hasClass(k, "display-eqn"):
			c.displayMath(k)
		case k.DataAtom == atom.Figure:
			c.figure(k)
		case k.DataAtom == atom.Table:
			c.table(k, nil)
		case hasClass(k, "boxout") && findFirst(k, func(x *html.Node) bool { return x.DataAtom == atom.Table }) != nil:
			c.table(findFirst(k, func(x *html.Node) bool { return x.DataAtom == atom.Table }), k)
		case k.DataAtom == atom.Ul || k.DataAtom == atom.Ol:
			c.list(k)
		case k.DataAtom == atom.P:
			c.emit(escapeLineStart(c.inline(k)))
		default:
			c.block(k)
		}
	}
}

// displayMath emits div.display-eqn's TeX (its \tag, when the TeX has one, stays).
func (c *iopConv) displayMath(n *html.Node) {
	s := findFirst(n, func(x *html.Node) bool {
		return x.DataAtom == atom.Script && strings.Contains(attr(x, "type"), "mode=display")
	})
	if s == nil {
		return
	}
	tex := strings.TrimSpace(collapse(textOf(s)))
	if tex == "" {
		return
	}
	c.emit("$$" + inlineTeX(tex) + "$$")
}

// figure emits a figure's caption ("**Figure 1.** text").
func (c *iopConv) figure(n *html.Node) {
	cap := findFirst(n, func(x *html.Node) bool { return x.DataAtom == atom.Figcaption || hasClass(x, "figure-caption") })
	if cap == nil {
		return
	}
	label := ""
	if s := findFirst(cap, func(x *html.Node) bool { return x.DataAtom == atom.Strong || x.DataAtom == atom.B }); s != nil {
		label = strings.TrimSpace(collapse(textOf(s)))
	}
	var text string
	if p := findFirst(cap, func(x *html.Node) bool { return x.DataAtom == atom.P }); p != nil {
		text = c.inlineExcept(p, label) // later paragraphs hold the download links
	} else {
		text = c.inlineExcept(cap, label)
	}
	if label != "" {
		text = "**" + escapeMarkdown(strings.TrimRight(label, ".:")) + ".** " + text
	}
	c.emit(text)
}

// table emits a table's title, the table, and the notes under it.
func (c *iopConv) table(t, box *html.Node) {
	title := strings.TrimSpace(collapse(attr(t, "data-toolbar-title")))
	desc := ""
	if box != nil {
		if p := findFirst(box, func(x *html.Node) bool {
			return x.DataAtom == atom.P && findFirst(x, func(y *html.Node) bool { return y.DataAtom == atom.B }) != nil
		}); p != nil {
			b := findFirst(p, func(y *html.Node) bool { return y.DataAtom == atom.B })
			if title == "" {
				title = strings.TrimSpace(collapse(textOf(b)))
			}
			desc = c.inlineExcept(p, strings.TrimSpace(collapse(textOf(b))))
		}
	}
	if title != "" {
		c.emit(strings.TrimSpace("**" + escapeMarkdown(strings.TrimRight(title, ".:")) + ".** " + desc))
	}
	c.emit(tableMarkdown(t, c.inline))
	if box != nil {
		for _, s := range findAll(box, func(x *html.Node) bool { return x.DataAtom == atom.Small }) {
			c.emit(c.inline(s))
		}
	}
}

func (c *iopConv) list(n *html.Node) { c.emit(markdownList(n, c.inline)) }

// footnotes collects li.indices-list entries after h2#footnotes.
func (c *iopConv) footnotes(h *html.Node) {
	var notes []string
	for s := h.NextSibling; s != nil; s = s.NextSibling {
		if s.Type != html.ElementNode {
			continue
		}
		if s.DataAtom == atom.H2 {
			break
		}
		for _, li := range findAll(s, func(x *html.Node) bool { return hasClass(x, "indices-list") }) {
			id := findFirst(li, func(x *html.Node) bool { return hasClass(x, "indices-id") })
			content := findFirst(li, func(x *html.Node) bool { return hasClass(x, "indices-content") })
			if content == nil {
				continue
			}
			num := len(notes) + 1
			label := ""
			if id != nil {
				label = strings.TrimSpace(collapse(textOf(id)))
			}
			if label == "" {
				label = fmt.Sprint(num)
			}
			notes = append(notes, escapeMarkdown(label)+". "+c.inline(content))
		}
		break
	}
	if len(notes) > 0 {
		c.emit("## Notes")
		c.emit(strings.Join(notes, "\n\n"))
	}
}

// inline converts a subtree to one line: text escaped, TeX as $…$,
// citations linked to the reference list.
func (c *iopConv) inline(n *html.Node) string { return c.inlineExcept(n, "") }

// inlineExcept is inline without a leading label (a caption's "Figure 1.").
func (c *iopConv) inlineExcept(n *html.Node, label string) string {
	var b strings.Builder
	c.inlineInto(&b, n)
	s := strings.TrimSpace(collapse(b.String()))
	if label != "" {
		l := escapeMarkdown(label)
		if t, ok := strings.CutPrefix(s, "**"+l+"**"); ok {
			s = strings.TrimSpace(t)
		} else {
			s = strings.TrimSpace(strings.TrimPrefix(s, l))
		}
	}
	return s
}

func (c *iopConv) inlineInto(b *strings.Builder, n *html.Node) {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		switch {
		case k.Type == html.TextNode:
			b.WriteString(c.norm.linkPlain(strings.ReplaceAll(k.Data, "\n", " ")))
		case k.Type != html.ElementNode, hasClass(k, "texImage"):
		case k.DataAtom == atom.Script:
			if t := attr(k, "type"); strings.HasPrefix(t, "math/tex") {
				if tex := strings.TrimSpace(collapse(textOf(k))); tex != "" {
					b.WriteString("$" + inlineTeX(tex) + "$")
				}
			}
		case skipNode(k):
		case k.DataAtom == atom.Em || k.DataAtom == atom.I:
			wrapInline(b, c.inline(k), "*")
		case k.DataAtom == atom.Strong || k.DataAtom == atom.B:
			wrapInline(b, c.inline(k), "**")
		case k.DataAtom == atom.Sup:
			b.WriteString("<sup>" + c.inline(k) + "</sup>")
		case k.DataAtom == atom.Sub:
			b.WriteString("<sub>" + c.inline(k) + "</sub>")
		case k.DataAtom == atom.Br:
			b.WriteByte(' ')
		case k.DataAtom == atom.A && (strings.HasPrefix(attr(k, "href"), "https://") || strings.HasPrefix(attr(k, "href"), "http://")):
			if txt := c.inline(k); txt != "" {
				fmt.Fprintf(b, "[%s](<%s>)", txt, strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(attr(k, "href")))
			}
		default:
			c.inlineInto(b, k)
		}
	}
}

// references reads the citation_reference meta tags ("citation_author=…;
// citation_title=…; citation_journal_title=…; citation_year=…;
// citation_volume=…; citation_firstpage=…; citation_doi=…") as the
// reference list and indexes it for citation links.
func (c *iopConv) references(doc *html.Node) []string {
	var out []string
	for i, content := range metaContents(doc, "citation_reference") {
		fields := map[string][]string{}
		var values []string
		for _, seg := range strings.Split(content, ";") {
			k, v, ok := strings.Cut(seg, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(collapse(v))
			if ok && k != "" && v != "" {
				fields[k] = append(fields[k], v)
				values = append(values, v)
			}
		}
		num := i + 1
		c.norm.refs[fmt.Sprint(num)] = num
		authors := fields["citation_author"]
		year := first(fields["citation_year"], fields["citation_date"], fields["citation_publication_date"])
		if len(year) > 4 {
			year = refYearRe.FindString(year)
		}
		if len(authors) > 0 && year != "" {
			if s := surname(authors[0]); s != "" {
				key := strings.ToLower(s) + "|" + year
				if _, dup := c.norm.byAuthorYear[key]; !dup {
					c.norm.byAuthorYear[key] = num
				}
			}
		}
		var parts []string
		if len(authors) > 0 {
			parts = append(parts, strings.Join(authors, ", "))
		}
		for _, k := range []string{"citation_year", "citation_title", "citation_journal_title", "citation_volume", "citation_firstpage"} {
			if v := first(fields[k]); v != "" && !(k == "citation_year" && v != year) {
				parts = append(parts, v)
			}
		}
		if year != "" && first(fields["citation_year"]) == "" {
			parts = append(parts, year)
		}
		text := escapeMarkdown(strings.Join(parts, ", "))
		if len(parts) == 0 && len(values) > 0 { // other key names: keep every value
			text = escapeMarkdown(strings.Join(values, ", "))
		} else if len(parts) == 0 {
			text = escapeMarkdown(collapse(content))
		}
		if doi := first(fields["citation_doi"]); doi != "" {
			text += " " + linkIdentifiers("doi:"+doi)
		}
		if ax := first(fields["citation_arxiv_id"]); ax != "" {
			text += " " + linkIdentifiers("arXiv:"+strings.TrimPrefix(ax, "arXiv:"))
		}
		out = append(out, text)
	}
	return out
}

func first(lists ...[]string) string {
	for _, l := range lists {
		if len(l) > 0 {
			return l[0]
		}
	}
	return ""
}

// surname is an author's family name in "Smith, A.", "Smith A" or
// "A. Smith".
func surname(author string) string {
	if before, _, ok := strings.Cut(author, ","); ok {
		return strings.TrimSpace(before)
	}
	for _, w := range strings.Fields(author) {
		if len([]rune(strings.Trim(w, "."))) > 1 && !strings.HasSuffix(w, ".") {
			return w
		}
	}
	return ""
}

// titleAuthors is the "# Title" and "*A, B*" lines from a page's
// citation_title and citation_author meta tags ("" without them).
func titleAuthors(doc *html.Node) string {
	var lines []string
	if t := metaContent(doc, "citation_title"); t != "" {
		lines = append(lines, "# "+escapeMarkdown(collapse(t)))
	}
	var authors []string
	for _, a := range metaContents(doc, "citation_author") {
		authors = append(authors, escapeMarkdown(collapse(a)))
	}
	if len(authors) > 0 {
		lines = append(lines, "*"+strings.Join(authors, ", ")+"*")
	}
	return strings.Join(lines, "\n\n")
}

// refListMarkdown renders reference entries as a numbered list, entry n
// anchored #ref-n.
func refListMarkdown(refs []string) string {
	var b strings.Builder
	for i, r := range refs {
		fmt.Fprintf(&b, "%d. <span id=\"ref-%d\"></span>%s\n", i+1, i+1, r)
	}
	return b.String()
}

func metaContent(doc *html.Node, name string) string {
	if v := metaContents(doc, name); len(v) > 0 {
		return v[0]
	}
	return ""
}

func metaContents(doc *html.Node, name string) []string {
	var out []string
	walk(doc, func(n *html.Node) bool {
		if n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "name"), name) {
			if v := strings.TrimSpace(attr(n, "content")); v != "" {
				out = append(out, v)
			}
		}
		return n.DataAtom != atom.Body
	})
	return out
}
