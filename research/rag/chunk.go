package rag

import (
	"strings"
	"unicode/utf8"
)

// Chunk is one passage cut from a paper's Markdown: Text is exactly
// markdown[Start:End] (byte offsets), SectionPath the headings it sits
// under, outermost first, joined by " > " ("" before the first heading).
type Chunk struct {
	Seq         int
	SectionPath string
	Start, End  int
	Text        string
}

// ChunkOptions size the chunks. A token is counted as 4 bytes, which is
// close for English prose and LaTeX.
type ChunkOptions struct {
	// MaxTokens is the target chunk size; 800 when zero.
	MaxTokens int
	// OverlapTokens is how much text a chunk repeats from the one before it
	// in the same section; 100 when zero.
	OverlapTokens int
}

func (o ChunkOptions) withDefaults() ChunkOptions {
	if o.MaxTokens <= 0 {
		o.MaxTokens = 800
	}
	if o.OverlapTokens <= 0 {
		o.OverlapTokens = 100
	}
	if o.OverlapTokens >= o.MaxTokens/2 {
		o.OverlapTokens = o.MaxTokens / 4
	}
	return o
}

// ChunkMarkdown cuts md into passages along its section boundaries.
//
// Contract (checked by a property test): chunks are in document order and
// numbered from 0 by Seq; every byte of md outside all chunks is white
// space; Text == md[Start:End] and is not blank; a
// chunk never spans two sections (a section runs from one ATX heading
// outside code fences to the next); a section larger than MaxTokens is cut
// into several chunks at paragraph, then line, then sentence, then word
// boundaries (a single unbreakable run may exceed MaxTokens), consecutive
// ones overlapping by up to OverlapTokens. Offsets always fall on UTF-8
// boundaries.
func ChunkMarkdown(md string, opt ChunkOptions) []Chunk {
	opt = opt.withDefaults()
	maxBytes := opt.MaxTokens * 4
	overlap := opt.OverlapTokens * 4
	var out []Chunk
	for _, sec := range splitSections(md) {
		for _, r := range packUnits(md, sec.start, sec.end, maxBytes, overlap) {
			if strings.TrimSpace(md[r[0]:r[1]]) == "" {
				continue // nothing to retrieve
			}
			out = append(out, Chunk{Seq: len(out), SectionPath: sec.path, Start: r[0], End: r[1], Text: md[r[0]:r[1]]})
		}
	}
	return out
}

// section is the byte range [start,end) of one heading's text up to the
// next heading.
type section struct {
	start, end int
	path       string
}

// splitSections finds ATX headings (outside ``` / ~~~ fences) and returns
// the sections they open, preceded by the preamble when it is non-empty.
func splitSections(md string) []section {
	var out []section
	var stack []heading // open headings, by level
	cur := section{start: 0}
	fence := ""
	for off := 0; off < len(md); {
		nl := strings.IndexByte(md[off:], '\n')
		lineEnd := len(md)
		if nl >= 0 {
			lineEnd = off + nl + 1
		}
		line := md[off:lineEnd]
		if f := fenceMarker(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence):
				fence = ""
			}
		} else if fence == "" {
			if level, title, ok := atxHeading(line); ok {
				if off > cur.start {
					cur.end = off
					out = append(out, cur)
				}
				for len(stack) > 0 && stack[len(stack)-1].level >= level {
					stack = stack[:len(stack)-1]
				}
				stack = append(stack, heading{level, title})
				cur = section{start: off, path: joinPath(stack)}
			}
		}
		off = lineEnd
	}
	if len(md) > cur.start {
		cur.end = len(md)
		out = append(out, cur)
	}
	return out
}

type heading struct {
	level int
	title string
}

func joinPath(stack []heading) string {
	parts := make([]string, 0, len(stack))
	for _, h := range stack {
		if h.title != "" {
			parts = append(parts, h.title)
		}
	}
	return strings.Join(parts, " > ")
}

// fenceMarker returns the fence run (``` or ~~~, 3+ chars) a line opens
// or closes with, or "".
func fenceMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 {
		return ""
	}
	c := t[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// atxHeading parses "## Title ##" (up to three leading spaces).
func atxHeading(line string) (level int, title string, ok bool) {
	t := strings.TrimRight(line, "\r\n")
	s := strings.TrimLeft(t, " ")
	if len(t)-len(s) > 3 {
		return 0, "", false
	}
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	title = strings.TrimSpace(s[level:])
	title = strings.TrimSpace(strings.TrimRight(title, "#"))
	return level, title, true
}

// packUnits cuts [start,end) into contiguous units (see splitUnits) and
// groups them into windows of at most maxBytes, each next window starting
// at the earliest unit that still lies within overlap bytes of the
// previous window's end. Windows cover [start,end).
func packUnits(md string, start, end, maxBytes, overlap int) [][2]int {
	if end-start <= maxBytes {
		return [][2]int{{start, end}}
	}
	units := splitUnits(md, start, end, maxBytes)
	var out [][2]int
	first := 0
	for first < len(units) {
		last := first
		for last+1 < len(units) && units[last+1][1]-units[first][0] <= maxBytes {
			last++
		}
		out = append(out, [2]int{units[first][0], units[last][1]})
		if last == len(units)-1 {
			break
		}
		next := last + 1
		// Step back into the previous window for the overlap, but never so
		// far that the new window could not reach past it.
		for next-1 > first && units[last][1]-units[next-1][0] <= overlap && units[last+1][1]-units[next-1][0] <= maxBytes {
			next--
		}
		first = next
	}
	return out
}

// splitUnits partitions [start,end) into pieces of at most maxBytes where
// possible, preferring to cut after blank lines, then after line ends, then
// after sentence ends, then after spaces, and as a last resort at a rune
// boundary.
func splitUnits(md string, start, end, maxBytes int) [][2]int {
	return splitBy(md, start, end, maxBytes, 0)
}

// cutters, finest last: each returns the cut points (offsets just after a
// separator) inside s.
var cutters = []func(s string) []int{
	func(s string) []int { return cutsAfter(s, "\n\n") },
	func(s string) []int { return cutsAfter(s, "\n") },
	sentenceCuts,
	func(s string) []int { return cutsAfter(s, " ") },
}

func splitBy(md string, start, end, maxBytes, level int) [][2]int {
	if end-start <= maxBytes {
		return [][2]int{{start, end}}
	}
	if level == len(cutters) {
		return runeCuts(md, start, end, maxBytes)
	}
	var out [][2]int
	prev := start
	cuts := cutters[level](md[start:end])
	cuts = append(cuts, end-start)
	for _, c := range cuts {
		at := start + c
		if at <= prev {
			continue
		}
		out = append(out, splitBy(md, prev, at, maxBytes, level+1)...)
		prev = at
	}
	return out
}

// cutsAfter returns the offsets just after each run of sep in s.
func cutsAfter(s, sep string) []int {
	var out []int
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], sep)
		if j < 0 {
			break
		}
		k := i + j + len(sep)
		for strings.HasPrefix(s[k:], sep) {
			k += len(sep)
		}
		if k < len(s) {
			out = append(out, k)
		}
		i = k
	}
	return out
}

// sentenceCuts returns offsets after ". ", "? " and "! " runs.
func sentenceCuts(s string) []int {
	var out []int
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i+1] == ' ' {
			k := i + 2
			for k < len(s) && s[k] == ' ' {
				k++
			}
			if k < len(s) {
				out = append(out, k)
			}
			i = k - 1
		}
	}
	return out
}

// runeCuts splits [start,end) every maxBytes bytes, moved back to a rune
// boundary.
func runeCuts(md string, start, end, maxBytes int) [][2]int {
	var out [][2]int
	for start < end {
		at := min(start+maxBytes, end)
		for at < end && at > start && !utf8.RuneStart(md[at]) {
			at--
		}
		if at == start { // a rune longer than maxBytes: take it whole
			at = start + 1
			for at < end && !utf8.RuneStart(md[at]) {
				at++
			}
		}
		out = append(out, [2]int{start, at})
		start = at
	}
	return out
}
