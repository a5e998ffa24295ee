package parse

import (
	"strings"
	"unicode/utf8"
)

// Section is one heading of a Markdown document and the byte range
// [Start, End) it covers (its heading line to the next heading of the same
// or a higher level).
type Section struct {
	Level      int
	Title      string
	Start, End int
}

// Sections lists a document's headings in order. Lines inside fenced code
// or $$ blocks are not headings.
func Sections(md string) []Section {
	var out []Section
	off := 0
	for _, l := range strings.SplitAfter(md, "\n") {
		t := strings.TrimRight(l, "\r\n")
		if lvl := headingLevelOf(t); lvl > 0 {
			out = append(out, Section{Level: lvl, Title: strings.TrimSpace(t[lvl:]), Start: off, End: len(md)})
		}
		off += len(l)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].Level <= out[i].Level {
				out[i].End = out[j].Start
				break
			}
		}
	}
	return out
}

func headingLevelOf(line string) int {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

// FindSection returns the first section whose title equals name (case-
// insensitive, ignoring Markdown escapes), else the first that contains
// it; ok is false when none does.
func FindSection(md, name string) (Section, bool) {
	want := strings.ToLower(strings.TrimSpace(name))
	if want == "" {
		return Section{}, false
	}
	secs := Sections(md)
	clean := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, `\`, "")) }
	for _, s := range secs {
		if c := clean(s.Title); c == want || strings.TrimLeft(strings.TrimLeft(c, "0123456789.IVXABC"), " ") == want {
			return s, true
		}
	}
	for _, s := range secs {
		if strings.Contains(clean(s.Title), want) {
			return s, true
		}
	}
	return Section{}, false
}

// Slice returns md[offset:offset+limit] moved back to rune boundaries and
// the offset where the rest begins (len(md) when nothing is left).
func Slice(md string, offset, limit int) (part string, next int) {
	offset = max(0, min(offset, len(md)))
	for offset > 0 && offset < len(md) && !utf8.RuneStart(md[offset]) {
		offset--
	}
	end := len(md)
	if limit > 0 && offset+limit < len(md) {
		end = offset + limit
		for end > offset && !utf8.RuneStart(md[end]) {
			end--
		}
	}
	return md[offset:end], end
}
