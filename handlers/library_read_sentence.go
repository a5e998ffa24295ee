package handlers

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/views"
)

// sentenceURL opens the reader at passage chunkID of paperID with only
// the blocks of the sentence at Markdown bytes [start, end) highlighted
// (a measurement's sentence).
func sentenceURL(basePath string, paperID, chunkID int64, start, end int) string {
	id := strconv.FormatInt(chunkID, 10)
	return basePath + "/library/" + strconv.FormatInt(paperID, 10) + "/read?" +
		url.Values{"passage": {id}, "sentence": {strconv.Itoa(start) + "-" + strconv.Itoa(end)}}.Encode() + "#passage-" + id
}

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
