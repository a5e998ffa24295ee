package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/internal/jobs"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// parseDeadline bounds one background parse (all its engines).
const parseDeadline = 5 * time.Minute

// parseView is the paper page's parse block; nil without a parser.
func (s *Server) parseView(ctx context.Context, p store.Paper) (*views.ParseStatus, error) {
	if s.parser == nil {
		return nil, nil
	}
	job, open, err := s.openJob(ctx, p.ID, store.JobParse)
	if err != nil {
		return nil, err
	}
	running := open || s.parser.Running(p.ID)
	hasSource, err := s.parser.HasSource(ctx, p)
	if err != nil {
		return nil, err
	}
	return &views.ParseStatus{BasePath: s.cfg.BasePath, PaperID: p.ID, Status: p.ParseStatus, Error: p.ParseError,
		Running: running, Stale: p.ParseStatus == "parsing" && !running, CanStart: !running, JobID: job.ID,
		HasSource: hasSource}, nil
}

// libraryParse is POST /library/{id}/parse: the parse runs in the
// background, detached from the request; the page shows its state.
func (s *Server) libraryParse(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	if s.parser == nil {
		return apiError(http.StatusServiceUnavailable, "parsing_unavailable", "Parsing is not available on this server.")
	}
	back := "/library/" + strconv.FormatInt(p.ID, 10)
	_, err = s.paperJobs.StartPaper(c.Request().Context(), currentUser(c).ID, p.ID, store.JobParse, p.Title, parseDeadline,
		func(ctx context.Context, _ func(any)) error {
			_, err := s.parser.Parse(ctx, p.ID, nil)
			return err
		})
	if errors.Is(err, jobs.ErrRunning) {
		s.flash(c, "The paper is already being parsed.")
		return s.redirect(c, back)
	}
	if err != nil {
		return err
	}
	return s.redirect(c, back) // the parse block shows that it runs
}

// libraryParseStatus is GET /library/{id}/parse-status (polled by htmx).
func (s *Server) libraryParseStatus(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	d, err := s.parseView(c.Request().Context(), p)
	if err != nil {
		return err
	}
	if d == nil {
		return echo.ErrNotFound
	}
	return s.render(c, http.StatusOK, views.ParseStatusView(*d))
}

// libraryRead is GET /library/{id}/read: the reader.
func (s *Server) libraryRead(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	page, err := s.readerPage(c, p, views.NoteForm{})
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Reader(page))
}

func (s *Server) readerPage(c echo.Context, p store.Paper, form views.NoteForm) (views.ReaderPage, error) {
	ctx := c.Request().Context()
	content, err := s.st.PaperContent(ctx, p.ID)
	if errors.Is(err, store.ErrNotFound) {
		return views.ReaderPage{}, apiError(http.StatusNotFound, "not_parsed", "This paper has not been parsed for reading yet.")
	}
	if err != nil {
		return views.ReaderPage{}, err
	}
	passage, mark, err := s.readerPassage(ctx, c.QueryParam("passage"), p.ID, content.Markdown)
	if err == nil && mark != nil {
		narrowToSentence(mark, c.QueryParam("sentence"), content.Markdown)
	}
	if err != nil {
		return views.ReaderPage{}, err
	}
	var html string
	var toc []views.TOCEntry
	if mark != nil {
		var found bool
		html, toc, found, err = views.ReaderHTMLWithPassage(content.Markdown, *mark)
		passage.Missing = !found
	} else {
		html, toc, err = views.ReaderHTML(content.Markdown)
	}
	if err != nil {
		return views.ReaderPage{}, err
	}
	notes, err := s.st.PaperNotes(ctx, currentUser(c).ID, p.ID)
	if err != nil {
		return views.ReaderPage{}, err
	}
	chrome := s.chrome(c, p.Title, "library")
	chrome.Math = true
	page := views.ReaderPage{Chrome: chrome, Paper: paperRow(s.cfg.BasePath, p), Engine: content.Engine,
		ParsedAt: content.ParsedAt, HTML: html, TOC: toc, NoteForm: form, Passage: passage, AskEnabled: s.rag != nil}
	if s.rag != nil {
		status, err := s.rag.PaperStatus(ctx, p.ID)
		if err != nil {
			return views.ReaderPage{}, err
		}
		page.AskNote = paperIndexNote(status)
	}
	for _, n := range notes {
		page.Notes = append(page.Notes, noteRow(n))
	}
	return page, nil
}

func noteRow(n store.PaperNote) views.NoteRow {
	return views.NoteRow{ID: n.ID, Kind: n.Kind, Quote: n.Quote, Prefix: n.Prefix, Suffix: n.Suffix, Position: n.Position,
		Body: n.Body, Created: n.CreatedAt}
}

// NoteRequest is POST /api/papers/{id}/notes's body (and the note form's
// fields). Kind defaults to "note" with a body, "highlight" without.
type NoteRequest struct {
	Kind     string `json:"kind"`
	Quote    string `json:"quote"`
	Prefix   string `json:"prefix"`
	Suffix   string `json:"suffix"`
	Position *int   `json:"position"`
	Body     string `json:"body"`
}

// note validates a request into a note; the message is for the user.
func (r NoteRequest) note(userID, paperID int64) (store.PaperNote, string) {
	n := store.PaperNote{UserID: userID, PaperID: paperID, Kind: r.Kind, Quote: strings.TrimSpace(r.Quote),
		Prefix: cut(r.Prefix, 200), Suffix: cut(r.Suffix, 200), Body: strings.TrimSpace(r.Body), Position: -1}
	if r.Position != nil && *r.Position >= 0 {
		n.Position = *r.Position
	}
	switch {
	case n.Quote == "" && n.Body == "":
		return n, "Write a note or select a passage to highlight."
	case len(n.Quote) > 2000:
		return n, "The quote is too long (2,000 characters at most)."
	case len(n.Body) > 10000:
		return n, "The note is too long (10,000 characters at most)."
	}
	if n.Kind == "" {
		n.Kind = "note"
		if n.Body == "" {
			n.Kind = "highlight"
		}
	}
	if n.Kind != "note" && n.Kind != "highlight" {
		return n, `kind must be "note" or "highlight".`
	}
	return n, ""
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// notesPage is GET /library/notes?q=: search the user's notes.
func (s *Server) notesPage(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	var hits []store.PaperNote
	var err error
	if q == "" {
		// Before any search: the latest notes, so the page is never blank.
		hits, err = s.st.RecentNotes(c.Request().Context(), currentUser(c).ID, 30)
	} else {
		hits, err = s.st.SearchNotes(c.Request().Context(), currentUser(c).ID, q, 50)
	}
	if err != nil {
		return err
	}
	page := views.NotesSearchPage{Chrome: s.mathChrome(c, "Notes", "library"), Query: q}
	for _, h := range hits {
		page.Hits = append(page.Hits, views.NoteHit{NoteRow: noteRow(h), PaperID: h.PaperID, PaperTitle: h.PaperTitle})
	}
	return s.render(c, http.StatusOK, views.NotesSearch(page))
}

// ContentResponse is GET /api/papers/{id}/content's answer.
type ContentResponse struct {
	PaperID  int64     `json:"paper_id"`
	Engine   string    `json:"engine"`
	ParsedAt time.Time `json:"parsed_at"`
	Section  string    `json:"section,omitempty"`
	Markdown string    `json:"markdown"`
}

// apiPaperContent is GET /api/papers/{id}/content?section=.
func (s *Server) apiPaperContent(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	content, err := s.st.PaperContent(c.Request().Context(), p.ID)
	if errors.Is(err, store.ErrNotFound) {
		return apiError(http.StatusNotFound, "not_parsed", "This paper has not been parsed yet.")
	}
	if err != nil {
		return err
	}
	out := ContentResponse{PaperID: p.ID, Engine: content.Engine, ParsedAt: content.ParsedAt, Markdown: content.Markdown}
	if name := strings.TrimSpace(c.QueryParam("section")); name != "" {
		sec, ok := parse.FindSection(content.Markdown, name)
		if !ok {
			return apiError(http.StatusNotFound, "no_section", "The paper has no such section.")
		}
		out.Section, out.Markdown = strings.ReplaceAll(sec.Title, `\`, ""), content.Markdown[sec.Start:sec.End]
	}
	return c.JSON(http.StatusOK, out)
}

// apiAddNote is POST /api/papers/{id}/notes: 201 {note}.
func (s *Server) apiAddNote(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	var req NoteRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	n, msg := req.note(currentUser(c).ID, p.ID)
	if msg != "" {
		return apiError(http.StatusBadRequest, "invalid_request", msg)
	}
	saved, err := s.st.CreateNote(c.Request().Context(), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"note": saved})
}

// apiNotes is GET /api/papers/{id}/notes: the caller's notes on a paper.
func (s *Server) apiNotes(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	notes, err := s.st.PaperNotes(c.Request().Context(), currentUser(c).ID, p.ID)
	if err != nil {
		return err
	}
	if notes == nil {
		notes = []store.PaperNote{}
	}
	return c.JSON(http.StatusOK, map[string]any{"notes": notes})
}

// apiSearchNotes is GET /api/notes?q=: FTS5 over the caller's notes.
func (s *Server) apiSearchNotes(c echo.Context) error {
	hits, err := s.st.SearchNotes(c.Request().Context(), currentUser(c).ID, c.QueryParam("q"), 50)
	if err != nil {
		return err
	}
	if hits == nil {
		hits = []store.PaperNote{}
	}
	return c.JSON(http.StatusOK, map[string]any{"notes": hits})
}
