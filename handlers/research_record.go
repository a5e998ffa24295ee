package handlers

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent/record"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// A session's research record (L10): a page, the record in four
// formats on the API, and "what is new since" (the session's literature
// searches run again).

// sessionRecord builds the record of the caller's session :id.
func (s *Server) sessionRecord(c echo.Context) (record.Record, error) {
	rec, _, err := s.sessionRecordWithEvents(c)
	return rec, err
}

// sessionRecordWithEvents is sessionRecord with the raw event log.
func (s *Server) sessionRecordWithEvents(c echo.Context) (record.Record, []store.AgentEvent, error) {
	a, err := s.ownSession(c)
	if err != nil {
		return record.Record{}, nil, err
	}
	return record.Build(c.Request().Context(), s.st, s.bibtex, currentUser(c).ID, a.ID, s.now())
}

// researchRecord is GET /research/{id}/record.
func (s *Server) researchRecord(c echo.Context) error {
	rec, err := s.sessionRecord(c)
	if err != nil {
		return err
	}
	html, err := views.MarkdownHTML(rec.Markdown())
	if err != nil {
		return err
	}
	api := s.cfg.BasePath + "/api/sessions/" + url.PathEscape(rec.SessionID) + "/record?format="
	p := views.RecordPage{Chrome: s.chrome(c, "Record: "+sessionTitle(rec.Title), "research"), SessionID: rec.SessionID, Title: rec.Title,
		HTML: html, NewURL: s.researchBase(rec.SessionID) + "/record/new",
		Downloads: []views.Link{{Text: "Markdown", Href: api + "md"}, {Text: "AASTeX", Href: api + "tex"},
			{Text: "JSON", Href: api + "json"}, {Text: "Zip (record, BibTeX, event log)", Href: api + "zip"}}}
	return s.render(c, http.StatusOK, views.Record(p))
}

// apiSessionRecord is GET /api/sessions/{id}/record?format=md|tex|json|zip
// (json when absent).
func (s *Server) apiSessionRecord(c echo.Context) error {
	format := c.QueryParam("format")
	switch format {
	case "", "json", "md", "tex", "zip":
	default:
		return apiError(http.StatusBadRequest, "invalid_format", "format must be md, tex, json or zip.")
	}
	rec, events, err := s.sessionRecordWithEvents(c)
	if err != nil {
		return err
	}
	name := "record-" + rec.SessionID
	attach := func(ext string) {
		c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+ext+`"`)
	}
	switch format {
	case "md":
		attach(".md")
		return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(rec.Markdown()))
	case "tex":
		attach(".tex")
		return c.Blob(http.StatusOK, "application/x-tex; charset=utf-8", []byte(rec.TeX()))
	case "zip":
		var buf bytes.Buffer
		if err := record.WriteZip(&buf, rec, events); err != nil {
			return err
		}
		attach(".zip")
		return c.Blob(http.StatusOK, "application/zip", buf.Bytes())
	}
	return c.JSON(http.StatusOK, rec)
}

// sessionReruns runs the session's literature searches again.
func (s *Server) sessionReruns(c echo.Context) (record.Record, []record.Rerun, error) {
	rec, err := s.sessionRecord(c)
	if err != nil {
		return record.Record{}, nil, err
	}
	reruns, err := record.NewSince(c.Request().Context(), rec, s.papers, s.st)
	return rec, reruns, err
}

// apiSessionNew is GET /api/sessions/{id}/new: per literature search of
// the session, the papers that appeared since.
func (s *Server) apiSessionNew(c echo.Context) error {
	_, reruns, err := s.sessionReruns(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, struct {
		Searches []record.Rerun `json:"searches"`
	}{reruns})
}

// researchRecordNew is GET /research/{id}/record/new.
func (s *Server) researchRecordNew(c echo.Context) error {
	rec, reruns, err := s.sessionReruns(c)
	if err != nil {
		return err
	}
	base := s.researchBase(rec.SessionID)
	p := views.RecordNewPage{Chrome: s.chrome(c, "What is new since: "+sessionTitle(rec.Title), "research"), SessionID: rec.SessionID,
		Title: rec.Title, RecordURL: base + "/record", AddURL: base + "/record/add"}
	if len(reruns) == 0 {
		p.Message = "This session ran no literature search, so there is nothing to run again."
	}
	for _, r := range reruns {
		v := views.RecordRerun{Query: r.Query, RanAt: r.RanAt, Error: r.Error, Notes: r.Notes}
		for _, np := range r.New {
			ref := firstOf(np.ArxivID, np.Bibcode, np.DOI)
			vp := views.RecordNewPaper{Title: np.Title, Authors: authorsLine(np.Authors), Date: np.Date, Ref: ref,
				IDs: strings.Join(nonEmpty("arXiv:"+np.ArxivID, np.ArxivID, np.Bibcode, np.Bibcode, "doi:"+np.DOI, np.DOI), " · ")}
			if np.LibraryID != 0 {
				vp.LibraryURL = s.cfg.BasePath + "/library/" + strconv.FormatInt(np.LibraryID, 10)
			}
			v.New = append(v.New, vp)
		}
		p.Reruns = append(p.Reruns, v)
	}
	return s.render(c, http.StatusOK, views.RecordNew(p))
}

// researchRecordAdd is POST /research/{id}/record/add (ref): one click to
// add a new paper to the library, back to the list.
func (s *Server) researchRecordAdd(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	back := "/research/" + url.PathEscape(a.ID) + "/record/new"
	p, created, err := s.importRef(c, strings.TrimSpace(c.FormValue("ref")))
	var ce *codedError
	switch {
	case err == nil && created:
		s.flash(c, "Imported “"+p.Title+"”.")
	case err == nil:
		s.flash(c, "“"+p.Title+"” was already in the library.")
	case errors.As(err, &ce):
		s.flash(c, "Could not import: "+ce.message)
	default:
		return err
	}
	return s.redirect(c, back)
}

// firstOf returns the first non-empty string.
func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// nonEmpty takes (label, value) pairs and keeps the labels whose value is
// set.
func nonEmpty(pairs ...string) []string {
	var out []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			out = append(out, pairs[i])
		}
	}
	return out
}
