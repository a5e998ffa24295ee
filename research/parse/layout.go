package parse

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// bodySize is the most common font size of the document, weighted by the
// number of characters set in it (rounded to quarter points).
func bodySize(pages []page) float64 {
	weight := map[float64]int{}
	for _, p := range pages {
		for _, b := range p.blocks {
			for _, l := range b.lines {
				if l.size > 0 {
					weight[math.Round(l.size*4)/4] += len(l.text())
				}
			}
		}
	}
	best, bestW := 10.0, -1
	for s, w := range weight {
		if w > bestW || (w == bestW && s < best) {
			best, bestW = s, w
		}
	}
	return best
}

var (
	digitsRe     = regexp.MustCompile(`[0-9]+`)
	pageNumberRe = regexp.MustCompile(`(?i)^(page\s*)?([0-9]{1,4}|[ivxlc]{1,6})(\s*(of|/)\s*[0-9]{1,4})?$`)
)

// marginKey is how a header or footer block is recognised on other pages:
// lower case, digits folded (page numbers change).
func marginKey(b block) string {
	var parts []string
	for _, l := range b.lines {
		parts = append(parts, l.text())
	}
	return digitsRe.ReplaceAllString(strings.ToLower(strings.Join(parts, " ")), "#")
}

// inMargin reports whether b lies in the top or bottom band of p, where
// running heads, footers and page numbers are set.
func inMargin(p page, b block) bool {
	if p.height <= 0 {
		return false
	}
	return b.y1 < 0.095*p.height || b.y0 > 0.92*p.height
}

// dropMargins removes running headers and footers — margin blocks whose
// text (digits folded) recurs on several pages — bare page numbers, and
// short blocks anywhere on the page that recur at the same height on
// several pages (a footer set above the margin band, a watermark).
func dropMargins(pages []page) {
	count := map[string]int{}
	for _, p := range pages {
		seen := map[string]bool{}
		for _, b := range p.blocks {
			for _, k := range repeatKeys(p, b) {
				if !seen[k] {
					seen[k] = true
					count[k]++
				}
			}
		}
	}
	need := max(2, int(math.Ceil(0.3*float64(len(pages)))))
	for i := range pages {
		p := &pages[i]
		kept := p.blocks[:0]
		for _, b := range p.blocks {
			drop := false
			for _, k := range repeatKeys(*p, b) {
				drop = drop || count[k] >= need
			}
			if inMargin(*p, b) {
				k := marginKey(b)
				drop = drop || pageNumberRe.MatchString(strings.TrimSpace(k)) || pageNumberRe.MatchString(blockText(b))
			}
			if !drop {
				kept = append(kept, b)
			}
		}
		p.blocks = kept
	}
}

// repeatKeys are the keys under which a block is looked for on other
// pages: its text anywhere in the margin bands, and a short block's text
// at its height.
func repeatKeys(p page, b block) []string {
	var ks []string
	k := marginKey(b)
	if inMargin(p, b) {
		ks = append(ks, "m:"+k)
	}
	if len(strings.Fields(k)) <= 20 && hasLetter(k) {
		ks = append(ks, fmt.Sprintf("y%.0f:%s", b.y0/4, k))
	}
	return ks
}

func blockText(b block) string {
	var parts []string
	for _, l := range b.lines {
		parts = append(parts, l.text())
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

func blockChars(b block) int {
	n := 0
	for _, l := range b.lines {
		for _, w := range l.words {
			n += len(w.text)
		}
	}
	return n
}

// twoColumns reports whether a page has substantial text in both halves.
func twoColumns(p page) bool {
	mid := p.width / 2
	var left, right, total int
	for _, b := range p.blocks {
		n := blockChars(b)
		total += n
		switch {
		case b.x1 <= mid+4:
			left += n
		case b.x0 >= mid-4:
			right += n
		}
	}
	return total > 0 && float64(left) >= 0.15*float64(total) && float64(right) >= 0.15*float64(total)
}

// mergeSideBySide joins consecutive blocks (in reading order) that sit on
// the same lines, the second to the right of the first — poppler cuts a
// justified line with wide spaces into two blocks.
func mergeSideBySide(bs []block, body, mid float64) []block {
	var out []block
	for _, b := range bs {
		if n := len(out); n > 0 && len(b.lines) > 0 {
			a := &out[n-1]
			if b.x0 > a.x1 && b.x0-a.x1 < 3*body && !(a.x1 <= mid+4 && b.x0 >= mid-4) && b.y0 >= a.y0-1 && b.y1 <= a.y1+1 && sharesLine(*a, b.lines[0], body) {
				for _, l := range b.lines {
					mergeLine(a, l, body)
				}
				a.x1, a.y1 = max(a.x1, b.x1), max(a.y1, b.y1)
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

func sharesLine(a block, l line, body float64) bool {
	for _, x := range a.lines {
		if abs(x.y0-l.y0) < 0.5*body {
			return true
		}
	}
	return false
}

// mergeLine adds l's words to the line of a on the same baseline, or
// inserts l in y order.
func mergeLine(a *block, l line, body float64) {
	for i := range a.lines {
		if abs(a.lines[i].y0-l.y0) < 0.5*body {
			a.lines[i] = newLine(append(append([]word(nil), a.lines[i].words...), l.words...))
			return
		}
	}
	i := 0
	for i < len(a.lines) && a.lines[i].y0 < l.y0 {
		i++
	}
	a.lines = append(a.lines[:i], append([]line{l}, a.lines[i:]...)...)
}

// readingOrder sorts a page's blocks. A page with substantial text in
// both halves is read as two columns: between blocks that span the gutter
// (title, abstract, wide figures), the left column comes before the right.
// Other pages keep poppler's order, which is right for one column.
func readingOrder(p page) []block {
	mid := p.width / 2
	if mid <= 0 {
		return p.blocks
	}
	const slack = 4.0
	side := make([]int, len(p.blocks)) // -1 left, 1 right, 0 spanning
	var left, right, total int
	for i, b := range p.blocks {
		n := blockChars(b)
		total += n
		switch leftShare := leftChars(b, mid); {
		case b.x1 <= mid+slack, leftShare >= 0.97 && b.x0 < mid:
			side[i], left = -1, left+n
		case b.x0 >= mid-slack, leftShare <= 0.03 && b.x1 > mid:
			side[i], right = 1, right+n
		case !lineCrosses(b, mid, slack):
			// spans the gutter only by its box (scattered, rotated text):
			// no band boundary, it goes with the side most of it is on
			if leftShare >= 0.5 {
				side[i] = -1
			} else {
				side[i] = 1
			}
		}
	}
	if total == 0 || float64(left) < 0.15*float64(total) || float64(right) < 0.15*float64(total) {
		return p.blocks
	}
	var spans []int
	for i := range p.blocks {
		if side[i] == 0 {
			spans = append(spans, i)
		}
	}
	sort.SliceStable(spans, func(a, b int) bool { return p.blocks[spans[a]].y0 < p.blocks[spans[b]].y0 })
	// band k holds the column blocks above spanning block k.
	band := func(b block) int {
		k := 0
		for k < len(spans) && p.blocks[spans[k]].y0 <= b.y0 {
			k++
		}
		return k
	}
	type keyed struct {
		band, side int
		y          float64
		i          int
	}
	var ks []keyed
	for i, b := range p.blocks {
		if side[i] == 0 {
			continue
		}
		ks = append(ks, keyed{band(b), side[i], b.y0, i})
	}
	for k, i := range spans {
		ks = append(ks, keyed{k, 2, p.blocks[i].y0, i}) // after both columns of band k
	}
	sort.SliceStable(ks, func(a, b int) bool {
		x, y := ks[a], ks[b]
		if x.band != y.band {
			return x.band < y.band
		}
		if x.side != y.side {
			return x.side < y.side
		}
		return x.y < y.y
	})
	out := make([]block, 0, len(p.blocks))
	for _, k := range ks {
		out = append(out, p.blocks[k.i])
	}
	return out
}

// lineCrosses reports whether one of b's lines runs across the page's
// middle, as a title's or a wide caption's does.
func lineCrosses(b block, mid, slack float64) bool {
	for _, l := range b.lines {
		if l.x0 < mid-slack && l.x1 > mid+slack {
			return true
		}
	}
	return false
}

// leftChars is the share of a block's characters in words centred left
// of mid (a column block may have a word that overhangs the gutter).
func leftChars(b block, mid float64) float64 {
	var l, n int
	for _, ln := range b.lines {
		for _, w := range ln.words {
			n += len(w.text)
			if (w.x0+w.x1)/2 < mid {
				l += len(w.text)
			}
		}
	}
	if n == 0 {
		return 0.5
	}
	return float64(l) / float64(n)
}

// splitGutter splits blocks whose lines poppler ran across the column
// gap (narrow gutters, a reference list beside text) into a left and a
// right block at the page's middle. A block is split only when some line
// has a wide gap between words right at the middle.
func splitGutter(p *page, body float64) {
	mid := p.width / 2
	if mid <= 0 {
		return
	}
	two := twoColumns(*p)
	var out []block
	for _, b := range p.blocks {
		if !(b.x0 < mid && b.x1 > mid) || !(two && crossesGutter(b, mid, body) || mostlyGutter(b, mid, body)) {
			out = append(out, b)
			continue
		}
		var left, right block
		for _, l := range b.lines {
			var lw, rw []word
			for _, w := range l.words {
				if (w.x0+w.x1)/2 < mid {
					lw = append(lw, w)
				} else {
					rw = append(rw, w)
				}
			}
			if len(lw) > 0 {
				left.lines = append(left.lines, newLine(lw))
			}
			if len(rw) > 0 {
				right.lines = append(right.lines, newLine(rw))
			}
		}
		for _, nb := range []block{left, right} {
			if len(nb.lines) > 0 {
				nb.box = nb.lines[0].box
				for _, l := range nb.lines {
					nb.x0, nb.y0 = min(nb.x0, l.x0), min(nb.y0, l.y0)
					nb.x1, nb.y1 = max(nb.x1, l.x1), max(nb.y1, l.y1)
				}
				out = append(out, nb)
			}
		}
	}
	p.blocks = out
}

// mostlyGutter reports whether a block is two columns poppler read as
// one: at least three of its lines have words on both sides of the page's
// middle, and nearly all of those have a column gap there; or its lines
// each keep to one side, some left and some right — the evidence is in
// the block, whatever the rest of the page looks like.
func mostlyGutter(b block, mid, body float64) bool {
	var straddle, gap, leftOnly, rightOnly int
	for _, l := range b.lines {
		left, right := false, false
		for _, w := range l.words {
			if (w.x0+w.x1)/2 < mid {
				left = true
			} else {
				right = true
			}
		}
		if !left || !right {
			if left && l.x1 <= mid+2 {
				leftOnly++
			} else if right && l.x0 >= mid-2 {
				rightOnly++
			}
			continue
		}
		straddle++
		for i := 1; i < len(l.words); i++ {
			a, c := l.words[i-1], l.words[i]
			if a.x1 <= mid+2 && c.x0 >= mid-2 && c.x0-a.x1 > 0.8*body {
				gap++
				break
			}
		}
	}
	if straddle == gap && leftOnly >= 2 && rightOnly >= 2 {
		return true // the columns' lines interleaved in one block
	}
	return gap >= 3 && gap*10 >= straddle*9
}

func crossesGutter(b block, mid, body float64) bool {
	for _, l := range b.lines {
		for i := 1; i < len(l.words); i++ {
			a, c := l.words[i-1], l.words[i]
			if a.x1 <= mid+2 && c.x0 >= mid-2 && c.x0-a.x1 > 0.8*body {
				return true
			}
		}
	}
	return false
}

// newLine builds a line from words, with its box and size.
func newLine(ws []word) line {
	l := line{box: ws[0].box, words: ws}
	for _, w := range ws {
		l.x0, l.y0 = min(l.x0, w.x0), min(l.y0, w.y0)
		l.x1, l.y1 = max(l.x1, w.x1), max(l.y1, w.y1)
	}
	l.finish()
	return l
}
