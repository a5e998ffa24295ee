package handlers

import (
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/views"
)

// narrowToSentence narrows a passage mark to ?sentence=start-end when that
// range lies inside the passage (anything else leaves the mark alone).
func narrowToSentence(mark *views.PassageMark, raw string, md string) {
	a, b, ok := strings.Cut(raw, "-")
	if !ok {
		return
	}
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || start < mark.Start || end > mark.End || start >= end || end > len(md) {
		return
	}
	mark.Start, mark.End = start, end
}
