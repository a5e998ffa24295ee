package views

import (
	"bytes"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

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

// The reader's pipeline (docs/features.md L2, S6): goldmark with GFM tables, footnotes
// and heading ids, TeX kept for KaTeX, then bluemonday with the answers'
// allowlist plus what a paper needs — heading and reference anchors,
// footnote links, table spans. Built once; safe for concurrent use.
var (
	readerEngine = goldmark.New(
		goldmark.WithExtensions(
			extension.Linkify, extension.Strikethrough, extension.Footnote,
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			mathPassthrough{paperText: true},
		),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(headingShift{by: 1}, 100), util.Prioritized(tableScroll{}, 100))),
		goldmark.WithRendererOptions(html.WithUnsafe(),
			renderer.WithNodeRenderers(util.Prioritized(passageRenderer{}, 500), util.Prioritized(tableScrollRenderer{}, 500))),
	)
	readerPolicy = newReaderPolicy()
)

func newReaderPolicy() *bluemonday.Policy {
	p := newMarkdownPolicy()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^`+headingIDPrefix+`[A-Za-z0-9_-]{1,100}$`)).OnElements("h2", "h3", "h4", "h5", "h6")
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^ref-[0-9]{1,5}$`)).OnElements("span")
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^fn(ref)?:[0-9]{1,5}$`)).OnElements("li", "sup")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^footnote-(ref|backref)$`)).OnElements("a")
	// One class rule per element: a later rule for the same attribute
	// would replace this one.
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^(footnotes|passage|reader-scroll)$`)).OnElements("div")
	p.AllowElements("div")
	p.AllowAttrs("id").Matching(passageIDAttr).OnElements("div")
	p.AllowAttrs("tabindex").Matching(readerTabindexAttr).OnElements("div")
	p.AllowAttrs("role").Matching(regionRoleAttr).OnElements("div")
	p.AllowAttrs("aria-label").Matching(tableScrollLabelAttr).OnElements("div")
	p.AllowAttrs("colspan", "rowspan").Matching(regexp.MustCompile(`^[0-9]{1,3}$`)).OnElements("td", "th")
	return p
}

// headingIDPrefix starts every heading id of a paper: the ids come from
// the paper's own text, and unprefixed a heading such as "Note form" or
// "Selection actions" would take the id of an element of the reader page
// itself (the first element with an id wins getElementById), so a paper
// could break the reader's controls.
const headingIDPrefix = "sec-"

// maxHeadingIDSource is how much of a heading's text its id is made from.
// The sanitiser keeps a heading id of at most 100 characters after the
// prefix (newReaderPolicy); the id takes at most one character per byte of
// the text, plus "-N" when the same id is already taken, so 80 bytes keep
// every id — a spurious heading made of a whole paragraph included — and
// the contents links, the return anchors of QuoteAnchor and the headings
// agree.
const maxHeadingIDSource = 80

// prefixedIDs generates goldmark's heading ids with headingIDPrefix (still
// unique: the prefix is added to the unique ids of the wrapped generator)
// from at most maxHeadingIDSource bytes of the heading's text.
type prefixedIDs struct{ parser.IDs }

func (p prefixedIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	return append([]byte(headingIDPrefix), p.IDs.Generate(headingIDSource(value), kind)...)
}

// headingIDSource is the start of value that an id is made from: at most
// maxHeadingIDSource bytes, cut at a character boundary.
func headingIDSource(value []byte) []byte {
	value = bytes.TrimSpace(value)
	if len(value) <= maxHeadingIDSource {
		return value
	}
	cut := maxHeadingIDSource
	for cut > 0 && !utf8.RuneStart(value[cut]) {
		cut--
	}
	return value[:cut]
}

// parseReader parses a paper's Markdown for the reader.
func parseReader(src []byte) ast.Node {
	ids := prefixedIDs{parser.NewContext().IDs()}
	return readerEngine.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext(parser.WithIDs(ids))))
}

// TOCEntry is one heading of the reader's table of contents.
type TOCEntry struct {
	Level int
	Title string
	ID    string
}

// ReaderHTML renders a paper's Markdown as sanitised HTML and returns its
// headings for the table of contents.
func ReaderHTML(md string) (string, []TOCEntry, error) {
	src := []byte(md)
	doc := parseReader(src)
	toc := tableOfContents(doc, src)
	var buf bytes.Buffer
	if err := readerEngine.Renderer().Render(&buf, src, doc); err != nil {
		return "", nil, err
	}
	return readerPolicy.Sanitize(buf.String()), toc, nil
}

// ReaderHTMLWithPassage is ReaderHTML with the blocks of a passage
// wrapped in its highlighted element; found is false when no block of the
// text lies in the passage's range.
func ReaderHTMLWithPassage(md string, mark PassageMark) (html string, toc []TOCEntry, found bool, err error) {
	return readerHTMLMarked(md, mark)
}

// tableOfContents lists the document's headings.
func tableOfContents(doc ast.Node, src []byte) []TOCEntry {
	var toc []TOCEntry
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			id, _ := h.AttributeString("id")
			idb, _ := id.([]byte)
			toc = append(toc, TOCEntry{Level: h.Level, Title: plainText(h, src), ID: string(idb)})
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return toc
}

// plainText is a node's text without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(src))
				if t.SoftLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// ReaderPage is the reader (docs/features.md L2): the parsed paper, its table of
// contents and the user's notes beside it.
type ReaderPage struct {
	Chrome
	Paper    PaperRow
	Engine   string
	ParsedAt time.Time
	HTML     string // sanitised
	TOC      []TOCEntry
	// Passage is the passage a ?passage= link asked for (nil: none).
	Passage  *ReaderPassage
	Notes    []NoteRow
	NoteForm NoteForm
	// AskEnabled shows the "Ask this paper" form (retrieval is
	// configured); Ask is its answer, when one was asked without htmx.
	AskEnabled bool
	// AskNote says the paper is not (fully) indexed yet ("" when it is).
	AskNote string
	Ask     *AskAnswer
}

// NoteRow is one of the user's notes or highlights.
type NoteRow struct {
	ID       int64
	Kind     string
	Quote    string
	Prefix   string
	Suffix   string
	Position int
	Body     string
	Created  time.Time
}

// NoteForm is the no-JavaScript note form's state.
type NoteForm struct {
	Quote, Body, Error string
}

// NotesSearchPage lists the user's notes matching a query.
type NotesSearchPage struct {
	Chrome
	Query string
	Hits  []NoteHit
}

// NoteHit is a note found by search, with its paper.
type NoteHit struct {
	NoteRow
	PaperID    int64
	PaperTitle string
}

// ParseStatus is the paper page's parse block.
type ParseStatus struct {
	BasePath string
	PaperID  int64
	Status   string // none, parsing, parsed, failed
	Error    string
	Running  bool // a parse runs in this process
	Stale    bool // "parsing" recorded but nothing runs (a restart)
	CanStart bool
	JobID    string // while a job from a page runs: the job (for its Stop button)
	// HasSource: some engine could try this paper (an arXiv id, an IOP or
	// A&A DOI, a stored PDF); without one no Parse button is offered.
	HasSource bool
}

// Base is the paper page's URL.
func (d ParseStatus) Base() string { return d.BasePath + "/library/" + itoa(d.PaperID) }
