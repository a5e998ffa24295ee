package parse

import "strings"

// attachLabels moves list labels that poppler set as blocks of their own
// ("[25]" in a column of labels beside a reference list, as biblatex sets
// it) onto the start of the line they stand beside, so the entry begins
// with its label.
func attachLabels(p *page, body float64) {
	var out []block
	for i, b := range p.blocks {
		if len(b.lines) != 1 || !labelOnlyRe.MatchString(strings.TrimSpace(b.lines[0].text())) {
			out = append(out, b)
			continue
		}
		lb := b.lines[0]
		done := false
		for j := range p.blocks {
			if j == i || done {
				continue
			}
			t := &p.blocks[j]
			for k := range t.lines {
				l := &t.lines[k]
				if abs(l.y0-lb.y0) < 0.5*body && l.x0 > lb.x1 && l.x0-lb.x1 < 4*body && !labelOnlyRe.MatchString(l.text()) {
					*l = newLine(append(append([]word(nil), lb.words...), l.words...))
					t.x0 = min(t.x0, l.x0)
					done = true
					break
				}
			}
		}
		if !done {
			out = append(out, b)
		}
	}
	p.blocks = out
}
