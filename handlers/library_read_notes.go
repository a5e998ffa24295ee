package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// libraryAddNote is POST /library/{id}/notes: the reader's note form and
// its selection bar. htmx gets the notes panel's body back (the form with
// its error, if any), so the reader stays where it was; a plain post is
// redirected to the section of the quoted passage (#sec-…), or to the note
// when it quotes nothing; Accept: application/json gets 201 {note}.
func (s *Server) libraryAddNote(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	req := NoteRequest{Kind: c.FormValue("kind"), Quote: c.FormValue("quote"), Prefix: c.FormValue("prefix"),
		Suffix: c.FormValue("suffix"), Body: c.FormValue("body")}
	if pos, err := strconv.Atoi(c.FormValue("position")); err == nil {
		req.Position = &pos
	}
	n, msg := req.note(currentUser(c).ID, p.ID)
	if msg != "" {
		form := views.NoteForm{Quote: req.Quote, Body: req.Body, Error: msg}
		if isHTMX(c) {
			return s.renderNotes(c, p, form, msg)
		}
		page, err := s.readerPage(c, p, form)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusUnprocessableEntity, views.Reader(page))
	}
	saved, err := s.st.CreateNote(c.Request().Context(), n)
	if err != nil {
		return err
	}
	switch {
	case c.Request().Header.Get("Accept") == "application/json":
		return c.JSON(http.StatusCreated, map[string]any{"note": saved})
	case isHTMX(c):
		status := "Note saved."
		if saved.Kind == "highlight" {
			status = "Highlight saved."
		}
		return s.renderNotes(c, p, views.NoteForm{}, status)
	}
	s.flash(c, "Note saved.")
	return s.redirect(c, s.passageReturn(c, p.ID, saved, "note-"+strconv.FormatInt(saved.ID, 10)))
}

// libraryDeleteNote is POST /library/{id}/notes/{note}/delete: htmx gets
// the notes panel's body back; a plain post is redirected to the section
// of the note's passage, or to the notes panel.
func (s *Server) libraryDeleteNote(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	user := currentUser(c).ID
	id, err := strconv.ParseInt(c.Param("note"), 10, 64)
	var gone store.PaperNote
	if err == nil {
		gone, err = s.userNote(ctx, user, p.ID, id)
	}
	if err == nil {
		err = s.st.DeleteNote(ctx, user, p.ID, id)
	}
	var numErr *strconv.NumError
	switch {
	case errors.Is(err, store.ErrNotFound), errors.As(err, &numErr):
		return apiError(http.StatusNotFound, "not_found", "There is no such note.")
	case err != nil:
		return err
	}
	if isHTMX(c) {
		return s.renderNotes(c, p, views.NoteForm{}, "Note deleted.")
	}
	s.flash(c, "Note deleted.")
	return s.redirect(c, s.passageReturn(c, p.ID, gone, "notes-panel"))
}

// userNote is one of the user's notes on the paper; ErrNotFound when the
// user has no such note there.
func (s *Server) userNote(ctx context.Context, userID, paperID, id int64) (store.PaperNote, error) {
	notes, err := s.st.PaperNotes(ctx, userID, paperID)
	if err != nil {
		return store.PaperNote{}, err
	}
	for _, n := range notes {
		if n.ID == id {
			return n, nil
		}
	}
	return store.PaperNote{}, store.ErrNotFound
}

// renderNotes answers htmx with the notes panel's body and the status
// message (200 even for a refused note: htmx swaps only 2xx answers, and
// the form shows the refusal).
func (s *Server) renderNotes(c echo.Context, p store.Paper, form views.NoteForm, status string) error {
	notes, err := s.st.PaperNotes(c.Request().Context(), currentUser(c).ID, p.ID)
	if err != nil {
		return err
	}
	v := views.ReaderNotes{Paper: paperRow(s.cfg.BasePath, p), Form: form, Status: status, PassageID: formPassage(c)}
	for _, n := range notes {
		v.Notes = append(v.Notes, noteRow(n))
	}
	return s.render(c, http.StatusOK, views.ReaderNotesSwap(v))
}

// passageReturn is the reader's path with the anchor a page without
// JavaScript goes back to after a note on n's passage is saved or deleted:
// the section of the quoted passage, else fallback (an element id); the
// cited passage the form sent along stays highlighted (?passage=).
func (s *Server) passageReturn(c echo.Context, paperID int64, n store.PaperNote, fallback string) string {
	anchor := fallback
	if n.Quote != "" {
		if content, err := s.st.PaperContent(c.Request().Context(), paperID); err == nil {
			if id := views.QuoteAnchor(content.Markdown, n.Quote, n.Prefix); id != "" {
				anchor = id
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("reader: paper text for the return anchor", "paper", paperID, "err", err)
		}
	}
	path := "/library/" + strconv.FormatInt(paperID, 10) + "/read"
	if id := formPassage(c); id > 0 {
		path += "?passage=" + strconv.FormatInt(id, 10)
	}
	return path + "#" + anchor
}

// formPassage is the reader's cited passage a note form sent along (0:
// none or not a passage id).
func formPassage(c echo.Context) int64 {
	id, err := strconv.ParseInt(c.FormValue("passage"), 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}
