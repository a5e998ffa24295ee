package parse

import "strings"

// Anchor is where a quote sits in a text: the quote with some context on
// each side. It survives re-parsing because it is found again by text
// search, not by position.
type Anchor struct {
	Quote, Prefix, Suffix string
}

// anchorContext is how many bytes of context an anchor keeps on each side.
const anchorContext = 32

// AnchorIn finds quote in md (Markdown escapes ignored) and returns it
// with its context; ok is false when the quote is not there.
func AnchorIn(md, quote string) (Anchor, bool) {
	text := strings.ReplaceAll(md, `\`, "")
	i := strings.Index(text, quote)
	if i < 0 || quote == "" {
		return Anchor{}, false
	}
	pre, _ := Slice(text, max(0, i-anchorContext), i-max(0, i-anchorContext))
	j := i + len(quote)
	suf, _ := Slice(text, j, anchorContext)
	return Anchor{Quote: quote, Prefix: pre, Suffix: suf}, true
}
