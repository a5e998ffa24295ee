package parse

import (
	"math"
	"sort"
	"strconv"
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
// baseline), and numbers standing in a counting column — bare numbers
// whose right edges line up across the document and count up down each
// page (numbers in the gutter, every line's or every fifth).
func dropLineNumbers(pages []page, body float64) {
	column := numberColumns(pages, body)
	for i := range pages {
		p := &pages[i]
		x0, x1, ok := textFrame(*p)
		drop := func(b box) bool {
			return ok && (b.x1 < x0-0.3*body || b.x0 > x1+0.3*body) || column[math.Round(b.x1)]
		}
		kept := p.blocks[:0]
		for _, b := range p.blocks {
			if numericBlock(b) && drop(b.box) {
				continue
			}
			for li := range b.lines {
				l := &b.lines[li]
				ws := l.words[:0:0]
				for _, w := range l.words {
					if _, num := integerWord(w.text); num && drop(w.box) && len(l.words) > 1 {
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

// numberColumns finds the right edges (rounded to points) of bare
// numbers set apart (setApartNumbers) that form counting columns: at
// least eight in the document, and nearly every step from one to the next
// on a page a rise (of at most 100: some are merged into text poppler
// did not set apart).
func numberColumns(pages []page, body float64) map[float64]bool {
	type at struct {
		page int
		y    float64
		v    int
	}
	bins := map[float64][]at{}
	for pi, p := range pages {
		for _, b := range p.blocks {
			for _, l := range b.lines {
				for _, w := range setApartNumbers(l, body) {
					v, _ := integerWord(w.text)
					k := math.Round(w.x1)
					bins[k] = append(bins[k], at{pi, w.y0, v})
				}
			}
		}
	}
	out := map[float64]bool{}
	for x := range bins {
		// right edges within a point of each other line up
		as := append(append(append([]at(nil), bins[x-1]...), bins[x]...), bins[x+1]...)
		if len(as) < 8 {
			continue
		}
		sort.Slice(as, func(i, j int) bool {
			if as[i].page != as[j].page {
				return as[i].page < as[j].page
			}
			return as[i].y < as[j].y
		})
		steps, rising := 0, 0
		for i := 1; i < len(as); i++ {
			if as[i].page != as[i-1].page {
				continue
			}
			steps++
			if d := as[i].v - as[i-1].v; d >= 1 && d <= 100 {
				rising++
			}
		}
		if steps > 0 && rising*10 >= steps*8 {
			out[x] = true
		}
	}
	return out
}

// setApartNumbers are a line's bare numbers that stand apart from its
// text: the whole line, or its first or last word a wide gap away from
// the next.
func setApartNumbers(l line, body float64) []word {
	ws := l.words
	if len(ws) == 0 {
		return nil
	}
	var out []word
	if _, ok := integerWord(ws[0].text); ok && (len(ws) == 1 || ws[1].x0-ws[0].x1 > body) {
		out = append(out, ws[0])
	}
	if n := len(ws); n > 1 {
		if _, ok := integerWord(ws[n-1].text); ok && ws[n-1].x0-ws[n-2].x1 > body {
			out = append(out, ws[n-1])
		}
	}
	return out
}

// dropRotated removes blocks of rotated text — diagonal watermarks
// ("Draft", "Unpublished working draft") and stamps — that poppler
// reads as short lines whose words climb or fall instead of sharing a
// baseline. A block goes when most of its lines of two or more words do.
func dropRotated(pages []page) {
	for i := range pages {
		p := &pages[i]
		kept := p.blocks[:0]
		for _, b := range p.blocks {
			var multi, slanted int
			for _, l := range b.lines {
				if len(l.words) < 2 {
					continue
				}
				multi++
				lo, hi := l.words[0].y0, l.words[0].y0
				for _, w := range l.words {
					lo, hi = min(lo, w.y0), max(hi, w.y0)
				}
				if hi-lo > 0.5*l.size {
					slanted++
				}
			}
			if multi >= 2 && slanted*3 >= multi*2 {
				continue
			}
			kept = append(kept, b)
		}
		p.blocks = kept
	}
}
