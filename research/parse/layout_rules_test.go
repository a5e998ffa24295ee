package parse

import (
	"strings"
	"testing"
)

// mkLine sets words 6 points wide per character... roughly: each word
// starts gap points after the previous one ends.
func mkLine(x, y float64, text string) line {
	var ws []word
	for _, f := range strings.Fields(text) {
		w := float64(len(f)) * 5
		ws = append(ws, word{box: box{x, y, x + w, y + 10}, text: f})
		x += w + 3
	}
	return newLine(ws)
}

func mkBlock(ls ...line) block {
	b := block{box: ls[0].box, lines: ls}
	for _, l := range ls {
		b.x0, b.y0 = min(b.x0, l.x0), min(b.y0, l.y0)
		b.x1, b.y1 = max(b.x1, l.x1), max(b.y1, l.y1)
	}
	return b
}

func pageTexts(p page) []string {
	var out []string
	for _, b := range p.blocks {
		out = append(out, blockText(b))
	}
	return out
}

func TestDropLineNumbers(t *testing.T) {
	var pages []page
	for pg := range 2 {
		p := page{width: 600, height: 800}
		for i := range 12 {
			y := 100 + float64(i)*14
			// running text from x=60, its line number at x=30 in the margin
			p.blocks = append(p.blocks, mkBlock(mkLine(60, y, "words of the running text here")))
			p.blocks = append(p.blocks, mkBlock(mkLine(30, y, string(rune('0'+i%10)))))
		}
		// a table's column of numbers inside the frame stays
		p.blocks = append(p.blocks, mkBlock(mkLine(100, 400, "42")))
		_ = pg
		pages = append(pages, p)
	}
	dropLineNumbers(pages, 10)
	for _, p := range pages {
		got := strings.Join(pageTexts(p), "|")
		if strings.Contains(got, "|3|") || !strings.Contains(got, "42") {
			t.Errorf("after dropLineNumbers: %s", got)
		}
	}
}

func TestAttachLabels(t *testing.T) {
	p := page{width: 600, height: 800, blocks: []block{
		mkBlock(mkLine(50, 100, "[1]")),
		mkBlock(mkLine(50, 124, "[2]")),
		mkBlock(mkLine(72, 100, "A. Author, Journal 1, 2 (2001)"), mkLine(72, 112, "continued here."), mkLine(72, 124, "B. Author, Book (2002).")),
	}}
	attachLabels(&p, 10)
	if len(p.blocks) != 1 {
		t.Fatalf("blocks: %q", pageTexts(p))
	}
	ls := p.blocks[0].lines
	if ls[0].text() != "[1] A. Author, Journal 1, 2 (2001)" || ls[2].text() != "[2] B. Author, Book (2002)." {
		t.Errorf("lines: %q / %q", ls[0].text(), ls[2].text())
	}
}

func TestSplitGutterInterleaved(t *testing.T) {
	// one block whose lines keep to one side each: two columns poppler
	// read as one, beside a page that is otherwise one wide block
	var ls []line
	for i := range 4 {
		y := 100 + float64(i)*24
		ls = append(ls, mkLine(50, y, "left column text"), mkLine(320, y+12, "right column text"))
	}
	p := page{width: 600, height: 800, blocks: []block{mkBlock(ls...)}}
	splitGutter(&p, 10)
	if len(p.blocks) != 2 {
		t.Fatalf("blocks after split: %q", pageTexts(p))
	}
	if !strings.HasPrefix(blockText(p.blocks[0]), "left") || !strings.HasPrefix(blockText(p.blocks[1]), "right") || strings.Contains(blockText(p.blocks[0]), "right") {
		t.Errorf("split: %q", pageTexts(p))
	}
}

func TestNotHeading(t *testing.T) {
	a := &assembler{body: 10, bodyFont: 10}
	styled := func(bold, italic, mono bool, size, math float64) line {
		return line{styled: true, bold: bold, italic: italic, mono: mono, fontSize: size, mathShare: math}
	}
	for _, c := range []struct {
		name     string
		l        line
		txt      string
		numbered bool
		want     bool
	}{
		{"bold numbered section", styled(true, false, false, 10, 0), "2 Methods", true, false},
		{"larger unnumbered", styled(false, false, false, 12, 0), "Conclusions", false, false},
		{"body-font enumerated item", styled(false, false, false, 10, 0), "1. The documentclass must be given", true, true},
		{"italic numbered subsection", styled(false, true, false, 10, 0), "2.1 Data", true, false},
		{"caption in bold", styled(true, false, false, 10, 0), "Table 1: Frequency of characters", false, true},
		{"reference entry", styled(true, false, false, 10, 0), "4 N. D. Birell and P. C. W. Davies", true, true},
		{"verbatim", styled(true, false, true, 10, 0), `\begin{acks}`, false, true},
		{"formula", styled(true, false, false, 10, 0.6), "F = ma", false, true},
		{"no fonts: layout decides", line{}, "Conclusions", false, false},
	} {
		if got := a.notHeading(c.l, c.txt, c.numbered, false); got != c.want {
			t.Errorf("%s: notHeading = %v, want %v", c.name, got, c.want)
		}
	}
	front := &assembler{body: 10, bodyFont: 10, frontMatter: true}
	if !front.notHeading(styled(true, false, false, 12, 0), "Ben Trovato", false, true) {
		t.Error("an author line before the first section is a heading")
	}
	if front.notHeading(styled(true, false, false, 12, 0), "ABSTRACT", false, true) {
		t.Error("the abstract's heading is refused in the front matter")
	}
}

func TestDropRotated(t *testing.T) {
	// a diagonal watermark: short lines whose words climb
	var wm []line
	for i := range 4 {
		x, y := 200+float64(i)*30, 500-float64(i)*30
		wm = append(wm, newLine([]word{{box{x, y, x + 10, y + 10}, "No"}, {box{x + 12, y - 8, x + 22, y + 2}, "t"}}))
	}
	p := page{width: 600, height: 800, blocks: []block{mkBlock(mkLine(60, 100, "plain running text on one baseline"), mkLine(60, 112, "and another line of it")), mkBlock(wm...)}}
	pages := []page{p}
	dropRotated(pages)
	if got := pageTexts(pages[0]); len(got) != 1 || !strings.HasPrefix(got[0], "plain") {
		t.Errorf("after dropRotated: %q", got)
	}
}

func TestUnfinishedEntry(t *testing.T) {
	for _, c := range []struct {
		last string
		want bool
	}{
		{"Z. Wang and S. Gao. Face aging with identity-preserved conditional generative networks. In Computer", true},
		{"Y. LeCun. Deep learning. Nature, 521(7553):436, 2015.", false},
		{"Retrieved from https://example.org/index.html", false},
		{"Jones C. D., 2015, MNRAS, 448, 1", false},
		{"(Jan. 2007)", false},
	} {
		if got := unfinished(para{lines: []string{c.last}}); got != c.want {
			t.Errorf("unfinished(%q) = %v", c.last, got)
		}
	}
}
