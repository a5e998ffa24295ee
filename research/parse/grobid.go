package parse

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// Doer sends a request (the guarded fetch client).
type Doer interface {
	Do(ctx context.Context, req *http.Request, opts ...fetch.Option) (*fetch.Response, error)
}

// GrobidEngine sends the stored PDF to a GROBID service (GROBID_URL) and
// converts the TEI it returns: headings, paragraphs, formulas, figure and
// table captions, the reference list and citations linked to it. Safe for
// concurrent use.
type GrobidEngine struct {
	Web    Doer
	URL    string // GROBID's base URL, e.g. http://localhost:8070
	Limits Limits
}

// Name implements Engine.
func (e *GrobidEngine) Name() string { return "grobid" }

// Parse implements Engine.
func (e *GrobidEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if e.URL == "" || e.Web == nil || in.PDFPath == "" {
		return Document{}, fmt.Errorf("no GROBID service or no stored PDF: %w", ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	body, ctype, err := multipartPDF(in.PDFPath, lim.MaxFileBytes, "input", nil)
	if err != nil {
		return Document{}, err
	}
	endpoint := strings.TrimRight(e.URL, "/") + "/api/processFulltextDocument"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return Document{}, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/xml")
	progress.report("sending the PDF to GROBID")
	res, err := e.Web.Do(ctx, req, fetch.WithMaxBytes(lim.MaxTextBytes), fetch.WithTimeout(lim.Timeout))
	if err != nil {
		return Document{}, err
	}
	if res.Status != http.StatusOK {
		return Document{}, fmt.Errorf("GROBID answered HTTP %d", res.Status)
	}
	md, err := TEIToMarkdown(res.Body)
	if err != nil {
		return Document{}, err
	}
	return Document{Markdown: md, Engine: e.Name(), Source: endpoint}, nil
}

// multipartPDF is a form with the PDF as field (GROBID: "input", MinerU:
// "files") and the given text fields.
func multipartPDF(path string, max int64, field string, fields [][2]string) ([]byte, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > max {
		return nil, "", fmt.Errorf("the PDF is over the %d MB limit: %w", max>>20, ErrLimit)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return nil, "", err
		}
	}
	part, err := w.CreateFormFile(field, filepath.Base(path))
	if err != nil {
		return nil, "", err
	}
	if _, err := io.Copy(part, f); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// teiNode is a generic TEI element: enough structure to walk the body.
type teiNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []teiNode  `xml:",any"`
	Text    string     `xml:",chardata"`
	// order keeps text and children interleaved.
	order []any
}

// UnmarshalXML keeps the document order of text and elements.
func (n *teiNode) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	n.XMLName, n.Attrs = start.Name, start.Attr
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			var c teiNode
			if err := c.UnmarshalXML(d, t); err != nil {
				return err
			}
			n.Nodes = append(n.Nodes, c)
			n.order = append(n.order, &n.Nodes[len(n.Nodes)-1])
		case xml.CharData:
			n.order = append(n.order, string(t))
		case xml.EndElement:
			// n.order holds pointers into n.Nodes, which may have moved
			// while growing: rebuild them now that it is final.
			k := 0
			for i, o := range n.order {
				if _, ok := o.(*teiNode); ok {
					n.order[i] = &n.Nodes[k]
					k++
				}
			}
			return nil
		}
	}
}

func (n *teiNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *teiNode) child(name string) *teiNode {
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == name {
			return &n.Nodes[i]
		}
	}
	return nil
}

// find returns the descendants named name (not nested in each other).
func (n *teiNode) find(name string) []*teiNode {
	var out []*teiNode
	for i := range n.Nodes {
		c := &n.Nodes[i]
		if c.XMLName.Local == name {
			out = append(out, c)
		} else {
			out = append(out, c.find(name)...)
		}
	}
	return out
}

// TEIToMarkdown converts GROBID's TEI (processFulltextDocument) to Markdown.
func TEIToMarkdown(tei []byte) (string, error) {
	var root teiNode
	dec := xml.NewDecoder(newXMLSafe(bytes.NewReader(tei)))
	if err := dec.Decode(&root); err != nil {
		return "", fmt.Errorf("grobid: TEI: %w", err)
	}
	t := &teiConv{refs: map[string]int{}}
	var bibl []*teiNode
	for _, l := range root.find("listBibl") {
		bibl = append(bibl, l.find("biblStruct")...)
	}
	for i, b := range bibl {
		if id := b.attr("id"); id != "" {
			t.refs[id] = i + 1
		}
	}
	if title := root.find("titleStmt"); len(title) > 0 {
		if h := title[0].child("title"); h != nil {
			t.emit("# " + escapeMarkdown(collapse(strings.TrimSpace(h.textAll()))))
		}
	}
	if abs := root.find("abstract"); len(abs) > 0 {
		t.emit("## Abstract")
		t.blocks(abs[0], 2)
	}
	if body := root.find("body"); len(body) > 0 {
		t.blocks(body[0], 1)
	}
	if back := root.find("back"); len(back) > 0 {
		for _, d := range back[0].Nodes {
			if d.XMLName.Local == "div" && d.attr("type") != "references" {
				t.blocks(&d, 1)
			}
		}
	}
	if len(t.refs) > 0 {
		t.emit("## References")
		var b strings.Builder
		for i, bs := range bibl {
			fmt.Fprintf(&b, "%d. <span id=\"ref-%d\"></span>%s\n", i+1, i+1, biblText(bs))
		}
		t.emit(b.String())
	}
	md := strings.TrimSpace(t.out.String())
	if !hasLetter(md) {
		return "", ErrEmpty
	}
	return md + "\n", nil
}

type teiConv struct {
	out  strings.Builder
	refs map[string]int
}

func (t *teiConv) emit(s string) {
	if s = strings.TrimSpace(s); s != "" {
		t.out.WriteString(s + "\n\n")
	}
}

// blocks converts a div's children: head, p, formula, figure, nested div.
func (t *teiConv) blocks(n *teiNode, level int) {
	for i := range n.Nodes {
		c := &n.Nodes[i]
		switch c.XMLName.Local {
		case "div":
			t.blocks(c, level+1)
		case "head":
			title := escapeMarkdown(collapse(strings.TrimSpace(c.textAll())))
			if num := c.attr("n"); num != "" {
				title = escapeMarkdown(num) + " " + title
			}
			lvl := level
			if num := c.attr("n"); num != "" {
				lvl = 2 + strings.Count(strings.TrimSuffix(num, "."), ".")
			}
			t.emit(strings.Repeat("#", min(lvl, 4)) + " " + title)
		case "p":
			t.emit(escapeLineStart(t.inline(c)))
		case "formula":
			tex := collapse(strings.TrimSpace(c.textExcept("label")))
			if lab := c.child("label"); lab != nil {
				tex += " " + strings.TrimSpace(lab.textAll())
			}
			if tex = inlineTeX(tex); tex != "" {
				t.emit("$$" + tex + "$$")
			}
		case "figure":
			head, desc := "", ""
			if h := c.child("head"); h != nil {
				head = collapse(strings.TrimSpace(h.textAll()))
			}
			if d := c.child("figDesc"); d != nil {
				desc = collapse(strings.TrimSpace(d.textAll()))
			}
			if head != "" {
				t.emit("**" + escapeMarkdown(head) + ":** " + escapeMarkdown(desc))
			} else {
				t.emit(escapeMarkdown(desc))
			}
		}
	}
}

// inline converts a paragraph: text, citations linked to the references,
// inline formulas as $…$.
func (t *teiConv) inline(n *teiNode) string {
	var b strings.Builder
	for _, o := range n.order {
		switch v := o.(type) {
		case string:
			b.WriteString(escapeMarkdown(v))
		case *teiNode:
			txt := collapse(strings.TrimSpace(v.textAll()))
			switch {
			case v.XMLName.Local == "ref" && v.attr("type") == "bibr":
				if num, ok := t.refs[strings.TrimPrefix(v.attr("target"), "#")]; ok && txt != "" {
					fmt.Fprintf(&b, "[%s](#ref-%d)", escapeMarkdown(txt), num)
					continue
				}
				b.WriteString(escapeMarkdown(txt))
			case v.XMLName.Local == "formula":
				if tex := inlineTeX(txt); tex != "" {
					b.WriteString("$" + tex + "$")
				}
			default:
				b.WriteString(t.inline(v))
			}
		}
	}
	return strings.TrimSpace(collapse(b.String()))
}

func (n *teiNode) textAll() string { return n.textExcept("") }

func (n *teiNode) textExcept(skip string) string {
	var b strings.Builder
	for _, o := range n.order {
		switch v := o.(type) {
		case string:
			b.WriteString(v)
		case *teiNode:
			if v.XMLName.Local != skip {
				b.WriteString(v.textExcept(skip))
			}
		}
	}
	return b.String()
}

// biblText is one reference: authors, year, title, journal, volume, pages,
// and its DOI or arXiv id linked.
func biblText(b *teiNode) string {
	var authors []string
	for _, p := range b.find("persName") {
		var fn []string
		for _, f := range p.find("forename") {
			fn = append(fn, strings.TrimSpace(f.textAll()))
		}
		sur := ""
		if s := p.child("surname"); s != nil {
			sur = strings.TrimSpace(s.textAll())
		}
		if sur != "" {
			authors = append(authors, strings.TrimSpace(sur+" "+strings.Join(fn, " ")))
		}
	}
	var parts []string
	if len(authors) > 0 {
		parts = append(parts, strings.Join(authors, ", "))
	}
	for _, d := range b.find("date") {
		if w := d.attr("when"); len(w) >= 4 {
			parts = append(parts, w[:4])
			break
		}
	}
	for _, tl := range b.find("title") {
		if s := collapse(strings.TrimSpace(tl.textAll())); s != "" {
			parts = append(parts, s)
		}
	}
	for _, sc := range b.find("biblScope") {
		if s := strings.TrimSpace(sc.textAll()); s != "" {
			parts = append(parts, s)
		} else if from := sc.attr("from"); from != "" {
			parts = append(parts, from)
		}
	}
	out := escapeMarkdown(strings.Join(parts, ", "))
	for _, id := range b.find("idno") {
		v := strings.TrimSpace(id.textAll())
		switch strings.ToLower(id.attr("type")) {
		case "doi":
			out += " " + linkIdentifiers("doi:"+v)
		case "arxiv":
			out += " " + linkIdentifiers("arXiv:"+strings.TrimPrefix(v, "arXiv:"))
		}
	}
	return out
}
