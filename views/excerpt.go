package views

import (
	"regexp"
	"strings"
)

// Passages of "Ask my library" are cut from the papers' Markdown; shown as
// quotes they should read as text, not as Markdown source ("## ABSTRACT",
// "**bold**", "[text](url)"). Formulas ($…$) are left alone: math.js
// renders them.

var (
	mdImage    = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink     = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	mdStrong   = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	mdCode     = regexp.MustCompile("`([^`\n]+)`")
	mdHeading  = regexp.MustCompile(`^\s{0,3}#{1,6}\s+`)
	mdQuote    = regexp.MustCompile(`^\s{0,3}>\s?`)
	mdRule     = regexp.MustCompile(`^\s{0,3}([-*_]\s*){3,}$`)
	mdTableSep = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
)

// plainExcerpt is a Markdown excerpt as plain text: heading and quote
// markers, rules, table separators, emphasis, code ticks and link targets
// removed; line breaks kept.
func plainExcerpt(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		nl := strings.HasSuffix(line, "\n")
		line = strings.TrimRight(line, "\r\n")
		if mdRule.MatchString(line) || mdTableSep.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		line = mdHeading.ReplaceAllString(line, "")
		line = mdQuote.ReplaceAllString(line, "")
		line = mdImage.ReplaceAllString(line, "$1")
		line = mdLink.ReplaceAllString(line, "$1")
		line = mdStrong.ReplaceAllString(line, "$1$2")
		line = mdCode.ReplaceAllString(line, "$1")
		b.WriteString(line)
		if nl {
			b.WriteByte('\n')
		}
	}
	return strings.TrimSpace(b.String())
}
