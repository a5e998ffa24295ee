package views

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MarkdownOptions adjust one rendering of Markdown.
type MarkdownOptions struct {
	// BasePath ("" or "/prefix") is put in front of root-relative link
	// destinations that lack it, so that a link the model writes to
	// /library/7/read?passage=3#passage-3 works under BASE_PATH.
	BasePath string
	// Links turns identifiers into links: each key, where it appears in
	// the text as a whole word (not inside a link, code or a formula),
	// becomes a link to its value. Handlers decide which identifiers are
	// citations and where they point (research/handlers' citation links).
	Links map[string]string
}

// MarkdownHTMLWith renders Markdown to sanitised HTML like MarkdownHTML,
// with the options applied before sanitising (so the links they make are
// still checked by the policy).
func MarkdownHTMLWith(src string, o MarkdownOptions) (string, error) {
	pc := parser.NewContext()
	pc.Set(markdownOptionsKey, o)
	return markdownHTML(src, parser.WithContext(pc))
}

// markdownOptionsKey carries MarkdownOptions to linkTransformer.
var markdownOptionsKey = parser.NewContextKey()

// linkTransformer applies MarkdownOptions: base path on root-relative
// links, identifiers to links.
type linkTransformer struct{}

func (linkTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	o, ok := pc.Get(markdownOptionsKey).(MarkdownOptions)
	if !ok {
		return
	}
	keys := make([]string, 0, len(o.Links))
	for k := range o.Links {
		if k != "" {
			keys = append(keys, k)
		}
	}
	// Longest first: "arXiv:2401.01234" wins over "2401.01234".
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	var texts []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			n.Destination = withBasePath(n.Destination, o.BasePath)
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink, *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *mathNode:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if len(keys) > 0 {
				texts = append(texts, n)
			}
		}
		return ast.WalkContinue, nil
	})
	source := reader.Source()
	for _, t := range texts {
		linkText(t, source, keys, o.Links)
	}
}

// withBasePath prefixes a root-relative destination with base, unless it
// already has it. Other destinations ("//host", "https:", "#x") are kept.
func withBasePath(dest []byte, base string) []byte {
	d := string(dest)
	if base == "" || !strings.HasPrefix(d, "/") || strings.HasPrefix(d, "//") ||
		d == base || strings.HasPrefix(d, base+"/") || strings.HasPrefix(d, base+"?") || strings.HasPrefix(d, base+"#") {
		return dest
	}
	return []byte(base + d)
}

// linkText splits text node t around the identifiers it contains, turning
// each into a link.
func linkText(t *ast.Text, source []byte, keys []string, links map[string]string) {
	seg := t.Segment
	for {
		value := string(seg.Value(source))
		start, key := findKey(value, keys)
		if key == "" {
			break
		}
		parent := t.Parent()
		if start > 0 {
			before := ast.NewTextSegment(text.NewSegment(seg.Start, seg.Start+start))
			parent.InsertBefore(parent, t, before)
		}
		link := ast.NewLink()
		link.Destination = []byte(links[key])
		link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Start+start+len(key))))
		parent.InsertBefore(parent, t, link)
		seg = text.NewSegment(seg.Start+start+len(key), seg.Stop)
		t.Segment = seg
	}
}

// findKey returns the leftmost key that occurs in s as a whole word (no
// letter, digit, '/' or '.'+digit glued to either end), preferring the
// longest at a position.
func findKey(s string, keys []string) (int, string) {
	best, bestKey := -1, ""
	for _, k := range keys {
		from := 0
		for {
			i := strings.Index(s[from:], k)
			if i < 0 {
				break
			}
			i += from
			if wordAt(s, i, i+len(k)) {
				if best < 0 || i < best || (i == best && len(k) > len(bestKey)) {
					best, bestKey = i, k
				}
				break
			}
			from = i + 1
		}
	}
	return best, bestKey
}

func wordAt(s string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:start])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' || r == '.' {
			return false
		}
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' {
			return false
		}
		if r == '.' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9' {
			return false
		}
	}
	return true
}
