package handlers

import (
	"context"
	"errors"
	"strconv"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// readerPassage resolves the reader's ?passage={chunk id} (contract 2: a
// rag passage link): the passage to highlight, or one marked Missing when
// it is not part of this paper's current text (another paper's, gone
// after re-indexing, or cut from Markdown parsed differently since). No
// parameter (or no rag service) gives nil.
func (s *Server) readerPassage(ctx context.Context, raw string, paperID int64, md string) (*views.ReaderPassage, *views.PassageMark, error) {
	if raw == "" || s.rag == nil {
		return nil, nil, nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return nil, nil, nil
	}
	p, err := s.rag.Passage(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &views.ReaderPassage{ID: id, Missing: true}, nil, nil
	case err != nil:
		return nil, nil, err
	}
	if p.PaperID != paperID || p.End > len(md) || md[p.Start:p.End] != p.Text {
		return &views.ReaderPassage{ID: id, Missing: true}, nil, nil
	}
	return &views.ReaderPassage{ID: id, Section: p.SectionPath}, &views.PassageMark{ID: id, Start: p.Start, End: p.End}, nil
}
