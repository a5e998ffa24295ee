package views

import (
	"bytes"
	"context"
	"io"
	"regexp"

	"github.com/a-h/templ"
	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The Markdown pipeline (docs/features.md S6): goldmark with GFM renders the text, raw
// HTML included, and bluemonday then keeps only an allowlist — so script,
// event handlers, javascript: URLs, style and hx-* attributes never reach
// the page, whatever a model or a paper contains. Both values are built
// once and never changed; they are safe for concurrent use.
var (
	markdownEngine = goldmark.New(
		goldmark.WithExtensions(
			extension.Linkify, extension.Strikethrough, extension.TaskList,
			// Alignment as an attribute: a style attribute would be refused
			// by the Content-Security-Policy.
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			mathPassthrough{},
		),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(headingShift{by: 2}, 100),
			util.Prioritized(linkTransformer{}, 200))),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	markdownPolicy = newMarkdownPolicy()
)

// MarkdownHTML renders Markdown to sanitised HTML.
func MarkdownHTML(src string) (string, error) { return markdownHTML(src) }

func markdownHTML(src string, opts ...parser.ParseOption) (string, error) {
	var buf bytes.Buffer
	if err := markdownEngine.Convert([]byte(src), &buf, opts...); err != nil {
		return "", err
	}
	return markdownPolicy.Sanitize(buf.String()), nil
}

// markdown is a component that renders src as sanitised HTML.
func markdown(src string) templ.Component { return markdownWith(src, MarkdownOptions{}) }

// markdownWith is markdown with options (base path, citation links).
func markdownWith(src string, o MarkdownOptions) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		h, err := MarkdownHTMLWith(src, o)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, h)
		return err
	})
}

func newMarkdownPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowStandardURLs() // http, https, mailto and relative URLs only
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("title").OnElements("a", "abbr")
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnFullyQualifiedLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowElements("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code",
		"em", "strong", "b", "i", "del", "s", "sub", "sup", "kbd", "abbr", "mark", "ul", "ol", "li", "dl", "dt", "dd",
		"table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "details", "summary", "span")
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^[0-9]{1,6}$`)).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[A-Za-z0-9_+-]{1,40}$`)).OnElements("code")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^math math-(inline|display)$`)).OnElements("span")
	// GFM task lists render disabled checkboxes.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	return p
}

// headingShift moves Markdown headings down so that an answer's "# Title"
// sits below the page's own h1 and the turn's h2.
type headingShift struct{ by int }

func (h headingShift) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if hd, ok := n.(*ast.Heading); ok && entering {
			hd.Level = min(hd.Level+h.by, 6)
		}
		return ast.WalkContinue, nil
	})
}

// mathPassthrough keeps TeX between $…$ and $$…$$ out of Markdown's hands:
// the source is emitted verbatim (escaped) in a span.math, so emphasis and
// escapes inside formulas are not mangled. Rendering the TeX is a later,
// client-side step that finds these spans.
type mathPassthrough struct {
	// paperText: the Markdown comes from the parse engines, which escape
	// every literal $, so a formula may be followed by a digit
	// ("$\sim$10 Myr"); elsewhere (notes, answers) "$5 and $10" stays text.
	paperText bool
}

func (m2 mathPassthrough) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(mathParser{digitAfter: m2.paperText}, 150)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(mathRenderer{}, 150)))
}

// mathKind is the AST kind of a formula.
var mathKind = ast.NewNodeKind("Math")

// mathNode is one formula; its children are raw text segments of the
// source between (and including) the delimiters.
type mathNode struct {
	ast.BaseInline
	display bool
}

func (n *mathNode) Kind() ast.NodeKind { return mathKind }

func (n *mathNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// mathParser: digitAfter allows a digit right after a closing $.
type mathParser struct{ digitAfter bool }

func (mathParser) Trigger() []byte { return []byte{'$'} }

// Parse recognises $…$ (pandoc's rule: no space after the opening or before
// the closing $, and — unless digitAfter — no digit right after the closing
// one, so "$5 and $10" stays text) and $$…$$, which may span lines of the
// paragraph.
func (mp mathParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	opener := 1
	if len(line) > 1 && line[1] == '$' {
		opener = 2
	}
	if opener == 1 && (len(line) < 2 || line[1] == ' ' || line[1] == '\n') {
		return nil
	}
	l, pos := block.Position()
	node := &mathNode{display: opener == 2}
	first := true
	for {
		line, seg := block.PeekLine()
		if line == nil || (opener == 1 && !first) {
			block.SetPosition(l, pos)
			return nil
		}
		from := 0
		if first {
			from = opener
		}
		for i := from; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			if line[i] != '$' {
				continue
			}
			if opener == 2 {
				if i+1 < len(line) && line[i+1] == '$' {
					node.AppendChild(node, ast.NewRawTextSegment(seg.WithStop(seg.Start+i+2)))
					block.Advance(i + 2)
					return node
				}
				continue
			}
			if line[i-1] == ' ' || (!mp.digitAfter && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9') {
				continue
			}
			node.AppendChild(node, ast.NewRawTextSegment(seg.WithStop(seg.Start+i+1)))
			block.Advance(i + 1)
			return node
		}
		node.AppendChild(node, ast.NewRawTextSegment(seg))
		block.AdvanceLine()
		first = false
	}
}

type mathRenderer struct{}

func (mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(mathKind, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		class := "math math-inline"
		if n.(*mathNode).display {
			class = "math math-display"
		}
		_, _ = w.WriteString(`<span class="` + class + `">`)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			seg := c.(*ast.Text).Segment
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
		_, _ = w.WriteString(`</span>`)
		return ast.WalkSkipChildren, nil
	})
}
