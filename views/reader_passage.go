package views

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// PassageMark asks the reader to highlight the Markdown byte range
// [Start, End) — a retrieval passage (research/rag, contract: offsets into
// the Markdown the reader renders) — as <div class="passage"
// id="passage-{ID}">, which a #passage-{ID} link scrolls to.
type PassageMark struct {
	ID         int64
	Start, End int
}

// ReaderPassage is the passage a reader link asked for.
type ReaderPassage struct {
	ID      int64
	Section string
	// Missing: the passage is not in this version of the text (the paper
	// was parsed again since it was cited).
	Missing bool
}

// Anchor is the passage's element id.
func (p ReaderPassage) Anchor() string { return "passage-" + itoa(p.ID) }

// kindPassage is the AST node that wraps the top-level blocks of a passage.
var kindPassage = ast.NewNodeKind("Passage")

type passageNode struct {
	ast.BaseBlock
	id int64
}

func (n *passageNode) Kind() ast.NodeKind { return kindPassage }

func (n *passageNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// passageRenderer writes the wrapper; tabindex lets the skip link move focus there.
type passageRenderer struct{}

func (passageRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(kindPassage, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<div class="passage" id="passage-` + itoa(n.(*passageNode).id) + `" tabindex="-1">` + "\n")
		} else {
			_, _ = w.WriteString("</div>\n")
		}
		return ast.WalkContinue, nil
	})
}

var passageIDAttr = regexp.MustCompile(`^passage-[0-9]{1,19}$`)

// readerHTMLMarked renders md like ReaderHTML and wraps the top-level
// blocks that overlap mark's range in the passage element. It reports
// whether any block was wrapped.
func readerHTMLMarked(md string, mark PassageMark) (string, []TOCEntry, bool, error) {
	src := []byte(md)
	doc := parseReader(src)
	wrapped := wrapPassage(doc, mark)
	toc := tableOfContents(doc, src)
	var buf bytes.Buffer
	if err := readerEngine.Renderer().Render(&buf, src, doc); err != nil {
		return "", nil, false, err
	}
	return readerPolicy.Sanitize(buf.String()), toc, wrapped, nil
}

// wrapPassage moves the consecutive top-level blocks overlapping the mark
// into one passage node.
func wrapPassage(doc ast.Node, mark PassageMark) bool {
	var first ast.Node
	var wrap *passageNode
	for c := doc.FirstChild(); c != nil; {
		next := c.NextSibling()
		lo, hi, ok := blockRange(c)
		if ok && lo < mark.End && hi > mark.Start {
			if wrap == nil {
				first = c
				wrap = &passageNode{id: mark.ID}
				doc.InsertBefore(doc, first, wrap)
			}
			doc.RemoveChild(doc, c)
			wrap.AppendChild(wrap, c)
		}
		c = next
	}
	return wrap != nil
}

// blockRange is the source byte range of a block: the span of its own
// lines and those of all its descendants.
func blockRange(n ast.Node) (lo, hi int, ok bool) {
	lo, hi = -1, -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		lines := c.Lines()
		for i := 0; i < lines.Len(); i++ {
			s := lines.At(i)
			if lo < 0 || s.Start < lo {
				lo = s.Start
			}
			if s.Stop > hi {
				hi = s.Stop
			}
		}
		return ast.WalkContinue, nil
	})
	return lo, hi, lo >= 0
}
