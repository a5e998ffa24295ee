package rag

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
)

// Passage is one indexed chunk of a paper's Markdown: Text is
// markdown[Start:End] (byte offsets) of the Markdown it was cut from.
type Passage struct {
	ID          int64  `db:"id" json:"id"`
	PaperID     int64  `db:"paper_id" json:"paper_id"`
	SectionPath string `db:"section_path" json:"section_path"`
	Start       int    `db:"start_byte" json:"start"`
	End         int    `db:"end_byte" json:"end"`
	Text        string `db:"text" json:"text"`
}

// Passage returns one passage by id; an error wrapping store.ErrNotFound
// when there is none (for example after the paper was re-indexed).
func (s *Service) Passage(ctx context.Context, chunkID int64) (Passage, error) {
	p, err := s.st.RagPassage(ctx, chunkID)
	if err != nil {
		return Passage{}, fmt.Errorf("rag: passage %d: %w", chunkID, err)
	}
	return Passage(p), nil
}

// PassageURL is the reader link that opens paperID scrolled to and
// highlighting passage chunkID (under basePath, the BASE_PATH prefix).
func PassageURL(basePath string, paperID, chunkID int64) string {
	id := strconv.FormatInt(chunkID, 10)
	return basePath + "/library/" + strconv.FormatInt(paperID, 10) + "/read?" +
		url.Values{"passage": {id}}.Encode() + "#passage-" + id
}

// SentenceURL is PassageURL with only the sentence at Markdown bytes
// [start, end) of the paper highlighted (a measurement's sentence); the
// reader falls back to the whole passage when the range is not inside it.
func SentenceURL(basePath string, paperID, chunkID int64, start, end int) string {
	id := strconv.FormatInt(chunkID, 10)
	return basePath + "/library/" + strconv.FormatInt(paperID, 10) + "/read?" +
		url.Values{"passage": {id}, "sentence": {strconv.Itoa(start) + "-" + strconv.Itoa(end)}}.Encode() + "#passage-" + id
}
