package measure

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// span is a sentence: text[start:end].
type span struct{ start, end int }

// sentences cuts Markdown into sentences: blocks end at blank lines,
// headings and table rows are sentences of their own, and a paragraph
// breaks after ". ", "? " or "! " followed by a capital, a digit, $ or (,
// unless the word before the full stop is an abbreviation (et al., Fig.,
// Eq., e.g.) or an initial.
func sentences(text string) []span {
	var out []span
	lineStart := 0
	blockStart := -1
	flush := func(end int) {
		if blockStart >= 0 {
			out = append(out, splitBlock(text, blockStart, end)...)
			blockStart = -1
		}
	}
	for lineStart < len(text) {
		lineEnd := strings.IndexByte(text[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += lineStart
		}
		line := strings.TrimSpace(text[lineStart:lineEnd])
		switch {
		case line == "":
			flush(lineStart)
		case strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|"):
			flush(lineStart)
			out = append(out, trimSpan(text, lineStart, lineEnd))
		default:
			if blockStart < 0 {
				blockStart = lineStart
			}
		}
		lineStart = lineEnd + 1
	}
	flush(len(text))
	return out
}

// splitBlock splits one paragraph into sentences.
func splitBlock(text string, start, end int) []span {
	var out []span
	s := start
	inMath := false
	for i := start; i < end; i++ {
		c := text[i]
		if c == '$' {
			inMath = !inMath
			continue
		}
		if inMath || (c != '.' && c != '?' && c != '!') {
			continue
		}
		j := i + 1
		for j < end && (text[j] == ')' || text[j] == '"' || text[j] == '\'') {
			j++
		}
		if j >= end || (text[j] != ' ' && text[j] != '\n') {
			continue
		}
		k := j
		for k < end && (text[k] == ' ' || text[k] == '\n') {
			k++
		}
		if k >= end {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[k:])
		if !(unicode.IsUpper(r) || unicode.IsDigit(r) || r == '$' || r == '(' || r == '[') {
			continue
		}
		if c == '.' && abbreviation(text[s:i]) {
			continue
		}
		out = append(out, trimSpan(text, s, j))
		s = k
		i = k - 1
	}
	if sp := trimSpan(text, s, end); sp.end > sp.start {
		out = append(out, sp)
	}
	return out
}

// abbreviation reports whether before (the text up to a full stop) ends in
// an abbreviation or an initial, after which a full stop ends no sentence.
func abbreviation(before string) bool {
	i := strings.LastIndexAny(before, " (\n")
	word := before[i+1:]
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		return unicode.IsUpper(r)
	}
	switch strings.ToLower(word) {
	case "al", "fig", "figs", "eq", "eqs", "sect", "sec", "secs", "e.g", "i.e", "cf", "vs", "approx",
		"no", "nos", "tab", "ref", "refs", "resp", "ca", "etc", "ch", "app", "vol", "p", "pp", "dr", "prof", "st":
		return true
	}
	return false
}

func trimSpan(text string, start, end int) span {
	for start < end && (text[start] == ' ' || text[start] == '\n' || text[start] == '\t' || text[start] == '\r') {
		start++
	}
	for end > start && (text[end-1] == ' ' || text[end-1] == '\n' || text[end-1] == '\t' || text[end-1] == '\r') {
		end--
	}
	return span{start, end}
}
