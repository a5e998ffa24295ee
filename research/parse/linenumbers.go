package parse

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// integerWord reports whether w is a bare number of one to four digits
// (a line or page number) and its value.
func integerWord(s string) (int, bool) {
	if len(s) == 0 || len(s) > 4 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func numericBlock(b block) bool {
	n := 0
	for _, l := range b.lines {
		for _, w := range l.words {
			if _, ok := integerWord(w.text); !ok {
				return false
			}
			n++
		}
	}
	return n > 0
}

// textFrame is the horizontal extent of a page's running text: the 5th
// and 95th percentiles of where lines with letters start and end, words
// that are bare numbers left aside (so margin numbers set on the same
// baseline do not widen it).
func textFrame(p page) (x0, x1 float64, ok bool) {
	var starts, ends []float64
	for _, b := range p.blocks {
		for _, l := range b.lines {
			first, last := -1, -1
			for i, w := range l.words {
				if hasLetter(w.text) {
					if first < 0 {
						first = i
					}
					last = i
				}
			}
			if first >= 0 && len(l.words) >= 3 {
				starts, ends = append(starts, l.words[first].x0), append(ends, l.words[last].x1)
			}
		}
	}
	if len(starts) < 10 {
		return 0, 0, false
	}
	sort.Float64s(starts)
	sort.Float64s(ends)
	return starts[len(starts)/20], ends[len(ends)-1-len(ends)/20], true
}

// dropLineNumbers removes margin line numbers: bare numbers outside the
// page's text frame (whole blocks, or words poppler set on a text line's
// baseline), and columns of four or more number-only blocks that share
// an x position and count up down the page (numbers in the gutter).
func dropLineNumbers(pages []page, body float64) {
	for i := range pages {
		p := &pages[i]
		x0, x1, ok := textFrame(*p)
		outside := func(b box) bool { return ok && (b.x1 < x0-0.3*body || b.x0 > x1+0.3*body) }
		column := numberColumns(*p)
		kept := p.blocks[:0]
		for _, b := range p.blocks {
			if numericBlock(b) && (outside(b.box) || column[math.Round(b.x0/3)]) {
				continue
			}
			for li := range b.lines {
				l := &b.lines[li]
				ws := l.words[:0:0]
				for _, w := range l.words {
					if _, num := integerWord(w.text); num && outside(w.box) && len(l.words) > 1 {
						continue
					}
					ws = append(ws, w)
				}
				if len(ws) != len(l.words) && len(ws) > 0 {
					*l = newLine(ws)
				}
			}
			kept = append(kept, b)
		}
		p.blocks = kept
	}
}

// numberColumns finds the x positions (in 3-point bins) of number-only
// blocks that form a counting column: at least four, their values rising
// down the page.
func numberColumns(p page) map[float64]bool {
	type at struct {
		y float64
		v int
	}
	bins := map[float64][]at{}
	for _, b := range p.blocks {
		if !numericBlock(b) || len(b.lines) == 0 {
			continue
		}
		for _, l := range b.lines {
			v, _ := integerWord(strings.Fields(l.text())[0])
			bins[math.Round(b.x0/3)] = append(bins[math.Round(b.x0/3)], at{l.y0, v})
		}
	}
	out := map[float64]bool{}
	for x, as := range bins {
		if len(as) < 4 {
			continue
		}
		sort.Slice(as, func(i, j int) bool { return as[i].y < as[j].y })
		rising := 0
		for i := 1; i < len(as); i++ {
			if d := as[i].v - as[i-1].v; d >= 1 && d <= 10 {
				rising++
			}
		}
		if rising*10 >= (len(as)-1)*8 {
			out[x] = true
		}
	}
	return out
}
