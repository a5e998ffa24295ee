package views

import (
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// QuoteAnchor is the id of the heading of the section where quote first
// appears in the reader's text of md ("" when the quote is not found, or
// lies before the first heading): the anchor a page without JavaScript
// returns to after a note on that passage is saved or deleted. Whitespace
// is collapsed on both sides and formulas are skipped (a selection leaves
// them out); a quote that is not found whole is looked for by its first
// words. When the quote occurs more than once, the occurrence whose
// preceding text ends with prefix's last characters wins.
func QuoteAnchor(md, quote, prefix string) string {
	words := strings.Fields(quote)
	if len(words) == 0 {
		return ""
	}
	t := readerPlainText(md)
	tail := strings.Join(strings.Fields(prefix), " ")
	if len(tail) > 16 {
		tail = tail[len(tail)-16:]
	}
	for _, n := range []int{len(words), 12, 6, 3} {
		if n > len(words) || (n < len(words) && len(strings.Join(words[:n], " ")) < 8) {
			continue
		}
		if at := t.find(strings.Join(words[:n], " "), tail); at >= 0 {
			return t.sectionAt(at)
		}
	}
	return ""
}

// plainDoc is a rendered paper's text, whitespace collapsed and blocks
// separated by one space, with where each section's heading starts.
type plainDoc struct {
	text     string
	sections []plainSection
}

type plainSection struct {
	at int
	id string
}

// readerPlainText walks the reader's AST of md (the same ids as the page).
func readerPlainText(md string) plainDoc {
	src := []byte(md)
	doc := parseReader(src)
	var c collapser
	var d plainDoc
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if n.Type() == ast.TypeBlock {
			c.add(" ") // a block boundary is a word boundary
		}
		switch t := n.(type) {
		case *ast.Heading:
			if id, ok := t.AttributeString("id"); ok {
				if idb, ok := id.([]byte); ok {
					d.sections = append(d.sections, plainSection{at: c.b.Len(), id: string(idb)})
				}
			}
		case *mathNode:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			c.add(string(t.Segment.Value(src)))
			if t.SoftLineBreak() || t.HardLineBreak() {
				c.add(" ")
			}
		case *ast.String:
			c.add(string(t.Value))
		}
		return ast.WalkContinue, nil
	})
	d.text = c.b.String()
	return d
}

// collapser builds text with every run of whitespace made one space and
// none at the ends.
type collapser struct {
	b     strings.Builder
	space bool
}

func (c *collapser) add(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) {
			c.space = true
			continue
		}
		if c.space && c.b.Len() > 0 {
			c.b.WriteByte(' ')
		}
		c.space = false
		c.b.WriteRune(r)
	}
}

// find is the offset of q in the text, preferring an occurrence preceded
// by tail; -1 when q does not occur.
func (d plainDoc) find(q, tail string) int {
	first := strings.Index(d.text, q)
	if first < 0 || tail == "" {
		return first
	}
	for at := first; at >= 0; {
		if strings.HasSuffix(strings.TrimRight(d.text[:at], " "), strings.TrimRight(tail, " ")) {
			return at
		}
		next := strings.Index(d.text[at+1:], q)
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return first
}

// sectionAt is the id of the last heading that starts at or before at.
func (d plainDoc) sectionAt(at int) string {
	id := ""
	for _, s := range d.sections {
		if s.at > at {
			break
		}
		id = s.id
	}
	return id
}
