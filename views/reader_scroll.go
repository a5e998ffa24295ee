package views

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A paper's table can be wider than the text column; it then scrolls
// sideways inside a wrapper, and a region that scrolls must be reachable
// by keyboard (WCAG 2.1.1; axe's scrollable-region-focusable): the wrapper
// is a named region in the tab order. Tables are few in a paper, so every
// one gets the wrapper, and it works without JavaScript. (Display formulas
// are rendered by KaTeX in the browser; reader.js makes the ones that
// overflow focusable.)

// kindTableScroll is the AST node that wraps one table of the text.
var kindTableScroll = ast.NewNodeKind("TableScroll")

type tableScrollNode struct {
	ast.BaseBlock
	n int // 1 for the text's first table
}

func (n *tableScrollNode) Kind() ast.NodeKind { return kindTableScroll }

func (n *tableScrollNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// tableScroll wraps every table of the document in a tableScrollNode,
// numbered in the order of the text.
type tableScroll struct{}

func (tableScroll) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var tables []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && n.Kind() == extast.KindTable {
			tables = append(tables, n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for i, t := range tables {
		parent := t.Parent()
		wrap := &tableScrollNode{n: i + 1}
		parent.InsertBefore(parent, t, wrap)
		parent.RemoveChild(parent, t)
		wrap.AppendChild(wrap, t)
	}
}

// tableScrollLabel is the wrapper's accessible name: "Scrollable table 2"
// (not the paper's own "Table 2", which may be another one).
func tableScrollLabel(n int) string { return "Scrollable table " + itoa(int64(n)) }

// The sanitiser's rules for the wrapper's attributes (newReaderPolicy).
var (
	tableScrollLabelAttr = regexp.MustCompile(`^Scrollable table [0-9]{1,5}$`)
	regionRoleAttr       = regexp.MustCompile(`^region$`)
	readerTabindexAttr   = regexp.MustCompile(`^(-1|0)$`)
)

// tableScrollRenderer writes the wrapper.
type tableScrollRenderer struct{}

func (tableScrollRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(kindTableScroll, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<div class="reader-scroll" role="region" tabindex="0" aria-label="` +
				tableScrollLabel(n.(*tableScrollNode).n) + `">` + "\n")
		} else {
			_, _ = w.WriteString("</div>\n")
		}
		return ast.WalkContinue, nil
	})
}
