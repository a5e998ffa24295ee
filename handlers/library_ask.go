package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/views"
)

// "Ask my library" (docs/features.md T12 for people): POST /library/ask answers a
// question from the library's passages with numbered citations that open
// the reader at each passage; POST /api/library/ask is the same as JSON.

// maxQuestion is the longest question accepted, in characters.
const maxQuestion = 1000

// excerptChars is how much of each source passage the page shows.
const excerptChars = 700

// askBox is the library page's ask panel (nil without a rag service). A
// failure to read the indexing progress only leaves the progress out.
func (s *Server) askBox(ctx context.Context, answer *views.AskAnswer) *views.AskBox {
	if s.rag == nil {
		return nil
	}
	box := &views.AskBox{BasePath: s.cfg.BasePath, KeywordOnly: !s.rag.VectorSearch(), Answer: answer}
	p, err := s.rag.Progress(ctx)
	if err != nil {
		s.log.Warn("library: indexing progress", "err", err)
		return box
	}
	box.Progress, box.Searchable = progressText(p), p.Indexed
	return box
}

// progressText says what indexing is doing, or why there is nothing to ask.
func progressText(p rag.Progress) string {
	var parts []string
	if p.Busy() {
		msg := fmt.Sprintf("Indexing %d of %s", p.Queued+p.Indexing, views.Plural(p.Queued+p.Indexing+p.Indexed, "paper", "papers"))
		if p.VectorSearch && p.Passages > 0 {
			msg += fmt.Sprintf(" (%d of %s embedded)", p.Embedded, views.Plural(p.Passages, "passage", "passages"))
		}
		parts = append(parts, msg+"; answers cover the papers indexed so far.")
	} else if p.Indexed == 0 {
		parts = append(parts, "No paper is indexed yet: parse a paper to ask questions about it.")
	}
	if p.Failed > 0 {
		parts = append(parts, fmt.Sprintf("Indexing failed for %d paper(s) (retried at the next start); passages already stored are still searched.", p.Failed))
	}
	return strings.Join(parts, " ")
}

// parseQuestion validates a question; the message says what is wrong.
func parseQuestion(raw string) (string, string) {
	q := strings.TrimSpace(raw)
	switch {
	case q == "":
		return "", "Type a question."
	case utf8.RuneCountInString(q) > maxQuestion:
		return "", "The question is longer than 1000 characters."
	}
	return q, ""
}

// parseAskFilter reads the form's tag and year; the message says what is
// wrong.
func parseAskFilter(tag, year string) (rag.Filter, string) {
	f := rag.Filter{Tag: tag}
	if utf8.RuneCountInString(tag) > 100 {
		return f, "The tag is longer than 100 characters."
	}
	if year != "" {
		n, err := strconv.Atoi(year)
		if err != nil || n < 1 || n > 9999 {
			return f, "The year must be a four-digit year such as 2024."
		}
		f.Year = n
	}
	return f, ""
}

// libraryAsk is POST /library/ask {question, tag?, year?}: the answer fragment for
// htmx, the library page with the answer otherwise.
func (s *Server) libraryAsk(c echo.Context) error {
	if s.rag == nil {
		return echo.ErrNotFound
	}
	q, msg := parseQuestion(c.FormValue("question"))
	tag, yearText := strings.TrimSpace(c.FormValue("tag")), strings.TrimSpace(c.FormValue("year"))
	f, fmsg := parseAskFilter(tag, yearText)
	if msg == "" {
		msg = fmsg
	}
	answer := views.AskAnswer{Question: q, Error: msg}
	status := http.StatusBadRequest
	if msg == "" {
		a, err := s.rag.Ask(c.Request().Context(), rag.Query{Text: q, Filter: f})
		if err != nil {
			return err
		}
		answer, status = askView(s.cfg.BasePath, a), http.StatusOK
	}
	answer.Tag, answer.Year = tag, yearText
	if isHTMX(c) {
		return s.render(c, http.StatusOK, views.AskAnswerView(answer))
	}
	results, lq, _, err := s.libraryResults(c)
	if err != nil {
		return err
	}
	page := s.libraryPage(c, lq, results, views.ImportForm{})
	page.Ask = s.askBox(c.Request().Context(), &answer)
	return s.render(c, status, views.Library(page))
}

// libraryPaperAsk is POST /library/{id}/ask {question}: the same path over
// one paper's passages, from the reader — the answer fragment for htmx, the
// reader with the answer otherwise.
func (s *Server) libraryPaperAsk(c echo.Context) error {
	if s.rag == nil {
		return echo.ErrNotFound
	}
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	var page views.ReaderPage
	if !isHTMX(c) { // the reader comes back: a paper without text has none (404) before any work
		if page, err = s.readerPage(c, p, views.NoteForm{}); err != nil {
			return err
		}
	}
	q, msg := parseQuestion(c.FormValue("question"))
	answer := views.AskAnswer{Question: q, Error: msg}
	status := http.StatusBadRequest
	if msg == "" {
		a, err := s.rag.Ask(c.Request().Context(), rag.Query{Text: q, Filter: rag.Filter{PaperIDs: []int64{p.ID}}})
		if err != nil {
			return err
		}
		answer, status = askView(s.cfg.BasePath, a), http.StatusOK
	}
	if isHTMX(c) {
		return s.render(c, http.StatusOK, views.AskAnswerView(answer))
	}
	page.Ask = &answer
	return s.render(c, status, views.Reader(page))
}

// paperIndexNote says why "Ask this paper" may miss parts of the paper.
func paperIndexNote(status string) string {
	switch status {
	case "indexed":
		return ""
	case "failed":
		return "Indexing this paper failed (it is retried at the next start); answers may miss it."
	case "":
		return "This paper is not indexed yet; answers will miss it until it is."
	}
	return "This paper is still being indexed; answers cover what is indexed so far."
}

// askView is the page's view of an answer.
func askView(base string, a rag.Answer) views.AskAnswer {
	v := views.AskAnswer{Question: a.Question, Note: a.Note, NoSupport: a.NoSupport, GenerationError: a.GenerationError,
		Removed: len(a.Removed)}
	if a.NoSupport {
		v.Message = rag.NoSupportText
	}
	urls := make([]string, len(a.Passages))
	for i, h := range a.Passages {
		urls[i] = rag.PassageURL(base, h.PaperID, h.ID)
		p := views.AskPassage{N: i + 1, ID: h.ID, Title: h.Title, Section: h.SectionPath, URL: urls[i],
			PaperURL: base + "/library/" + strconv.FormatInt(h.PaperID, 10),
			Excerpt:  textcut.Ellipsize(strings.TrimSpace(h.Text), excerptChars)}
		if h.Year != nil {
			p.Year = strconv.Itoa(*h.Year)
		}
		v.Passages = append(v.Passages, p)
	}
	for _, para := range a.Paragraphs {
		var out []views.AskSentence
		for _, sen := range para {
			vs := views.AskSentence{Text: sen.Text}
			for _, n := range sen.Cites {
				vs.Cites = append(vs.Cites, views.AskCite{N: n, URL: urls[n-1]})
			}
			out = append(out, vs)
		}
		v.Paragraphs = append(v.Paragraphs, out)
	}
	return v
}

// AskRequest is the body of POST /api/library/ask.
type AskRequest struct {
	Question string  `json:"question"`
	PaperIDs []int64 `json:"paper_ids,omitempty"`
	Tag      string  `json:"tag,omitempty"`
	Year     int     `json:"year,omitempty"`
	Limit    int     `json:"limit,omitempty"`
}

// AskResponse is the answer: the structured answer, its plain text with
// [n] markers, and the reader link of each passage n at links[n-1].
type AskResponse struct {
	Answer rag.Answer `json:"answer"`
	Text   string     `json:"text"`
	Links  []string   `json:"links"`
}

// apiLibraryAsk is POST /api/library/ask {question, paper_ids?, tag?, year?, limit?}.
func (s *Server) apiLibraryAsk(c echo.Context) error {
	if s.rag == nil {
		return apiError(http.StatusNotFound, "not_found", "Retrieval over the library is not available.")
	}
	var req AskRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	q, msg := parseQuestion(req.Question)
	if msg != "" {
		return apiError(http.StatusBadRequest, "invalid_question", msg)
	}
	if req.Limit < 0 || req.Limit > 20 || req.Year < 0 || req.Year > 9999 || len(req.PaperIDs) > 100 {
		return apiError(http.StatusBadRequest, "invalid_filter", "limit must be 0–20, year a four-digit year, and at most 100 paper ids.")
	}
	a, err := s.rag.Ask(c.Request().Context(), rag.Query{Text: q, Limit: req.Limit,
		Filter: rag.Filter{PaperIDs: req.PaperIDs, Tag: strings.TrimSpace(req.Tag), Year: req.Year}})
	if err != nil {
		return err
	}
	links := make([]string, len(a.Passages))
	for i, h := range a.Passages {
		links[i] = rag.PassageURL(s.cfg.BasePath, h.PaperID, h.ID)
	}
	return c.JSON(http.StatusOK, AskResponse{Answer: a, Text: a.Text(), Links: links})
}
