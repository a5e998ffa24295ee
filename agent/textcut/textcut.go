// Package textcut shortens text by rune count, never splitting a UTF-8
// sequence. It is the one place the agent packages cut previews, summaries
// and stubs, so that every cut treats multi-byte text (Chinese titles,
// Greek letters in object names) the same way.
package textcut

import (
	"strings"
	"unicode/utf8"
)

// Prefix returns the first n runes of s, or s itself when it has at most n
// runes. n <= 0 yields "".
func Prefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Ellipsize returns s when it has at most n runes; otherwise its first n-1
// runes, less any trailing spaces or tabs, followed by "…", so the result is
// at most n runes long. n <= 0 yields "".
func Ellipsize(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return strings.TrimRight(Prefix(s, n-1), " \t") + "…"
}
