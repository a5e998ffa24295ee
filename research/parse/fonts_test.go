package parse

import (
	"strings"
	"testing"
)

const fontXML = `<?xml version="1.0" encoding="UTF-8"?>
<pdf2xml producer="poppler" version="22.12.0">
<page number="1" position="absolute" top="0" left="0" height="792" width="612">
	<fontspec id="0" size="12" family="CRSDMW+CMBX12" color="#000000"/>
	<fontspec id="1" size="10" family="UVYRZB+CMR10" color="#000000"/>
	<fontspec id="2" size="10" family="SGVVBL+CMMI10" color="#000000"/>
	<fontspec id="3" size="10" family="XFWLDP+CMTT10" color="#000000"/>
<text top="100" left="50" width="120" height="12" font="0"><b>1 Introduction</b></text>
<text top="120" left="50" width="200" height="10" font="1">Body text of the paper, <a href="x">linked</a></text>
<text top="140" left="50" width="40" height="10" font="2">x + y</text>
</page>
<page number="2" position="absolute" top="0" left="0" height="792" width="612">
	<fontspec id="4" size="9" family="NimbusRomNo9L-Medi" color="#000000"/>
<text top="60" left="50" width="100" height="10" font="3">\begin{x}</text>
<text top="80" left="50" width="100" height="9" font="4">Bold Times</text>
</page>
</pdf2xml>`

func TestReadFontRuns(t *testing.T) {
	pages, err := readFontRuns(strings.NewReader(fontXML), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || len(pages[0]) != 3 || len(pages[1]) != 2 {
		t.Fatalf("runs per page: %d pages", len(pages))
	}
	for _, c := range []struct {
		name string
		got  fontStyle
		want fontStyle
	}{
		{"bold heading", pages[0][0].font, fontStyle{size: 12, bold: true}},
		{"body", pages[0][1].font, fontStyle{size: 10}},
		{"math", pages[0][2].font, fontStyle{size: 10, italic: false, math: true}},
		{"verbatim (font declared on an earlier page)", pages[1][0].font, fontStyle{size: 10, mono: true}},
		{"URW medium Times is bold", pages[1][1].font, fontStyle{size: 9, bold: true}},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if r := pages[0][1]; r.chars != len("Bodytextofthepaper,linked") || r.x0 != 50 || r.y1 != 130 {
		t.Errorf("body run: %+v", r)
	}
	if _, err := readFontRuns(strings.NewReader(fontXML), 1); err != errTooManyPages {
		t.Errorf("page limit: %v", err)
	}
}

func TestStyleLine(t *testing.T) {
	runs := []fontRun{
		{box: box{50, 100, 170, 112}, chars: 12, font: fontStyle{size: 12, bold: true}},
		{box: box{50, 120, 250, 130}, chars: 40, font: fontStyle{size: 10}},
		{box: box{252, 120, 280, 130}, chars: 4, font: fontStyle{size: 10, math: true}},
	}
	head := line{box: box{50, 101, 170, 111}}
	styleLine(&head, runs)
	if !head.styled || !head.bold || head.fontSize != 12 {
		t.Errorf("heading line: %+v", head)
	}
	body := line{box: box{50, 121, 280, 129}}
	styleLine(&body, runs)
	if body.bold || body.fontSize != 10 || body.mathShare < 0.09 || body.mathShare > 0.1 {
		t.Errorf("body line: %+v", body)
	}
	none := line{box: box{400, 500, 450, 510}}
	if styleLine(&none, runs); none.styled {
		t.Error("a line no run overlaps is styled")
	}
}

// FuzzReadFontRuns: arbitrary pdftohtml output never panics.
func FuzzReadFontRuns(f *testing.F) {
	f.Add(fontXML)
	f.Add(`<page><fontspec id="0" size="NaN" family="+"/><text top="x" font="9">`)
	f.Fuzz(func(t *testing.T, in string) {
		pages, err := readFontRuns(strings.NewReader(in), 20)
		if err == nil && len(pages) > 20 {
			t.Fatalf("%d pages past the limit", len(pages))
		}
	})
}
