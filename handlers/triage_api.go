package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/triage"
	"github.com/astroresearch/astroresearch/store"
)

// The triage JSON API (L10): settings, refresh, the digest, and
// feedback on a paper.

// triageSettingsJSON is the settings as the API shows them.
type triageSettingsJSON struct {
	Categories []string             `json:"categories"`
	Keywords   []string             `json:"keywords"`
	Objects    []string             `json:"objects"`
	Authors    []string             `json:"authors"`
	Resolved   []store.TriageObject `json:"resolved_objects"`
	Notes      []string             `json:"notes,omitempty"`
}

func settingsJSON(set store.TriageSettings, notes []string) triageSettingsJSON {
	out := triageSettingsJSON{Categories: set.Categories, Keywords: set.Keywords, Authors: set.Authors,
		Objects: []string{}, Resolved: set.Objects, Notes: notes}
	for _, o := range set.Objects {
		out.Objects = append(out.Objects, o.Name)
	}
	return out
}

// triageItemJSON is one paper of GET /api/triage.
type triageItemJSON struct {
	ArxivID    string   `json:"arxiv_id"`
	Title      string   `json:"title"`
	Authors    []string `json:"authors"`
	Categories []string `json:"categories"`
	Score      float64  `json:"score"`
	Reasons    []string `json:"reasons"`
	Summary    string   `json:"summary"`
	InLibrary  bool     `json:"in_library"`
	Abstract   string   `json:"abstract"`
	URL        string   `json:"url"`
	LibraryID  int64    `json:"library_id,omitempty"`
}

type triageProblemJSON struct {
	Category    string     `json:"category"`
	Day         string     `json:"day"`
	Error       string     `json:"error"`
	NextAttempt *time.Time `json:"next_attempt,omitempty"`
}

type triageDigestJSON struct {
	Date     string              `json:"date"`
	Items    []triageItemJSON    `json:"items"`
	Days     []string            `json:"days"`
	Problems []triageProblemJSON `json:"problems"`
	Waiting  bool                `json:"waiting"`
}

// needTriage answers 404 when the server has no triage.
func (s *Server) needTriage() error {
	if s.triage == nil {
		return apiError(http.StatusNotFound, "not_found", "The arXiv triage is not available on this server.")
	}
	return nil
}

// apiTriageSettings is GET /api/triage/settings.
func (s *Server) apiTriageSettings(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	set, err := s.triage.Settings(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, settingsJSON(set, nil))
}

// apiPutTriageSettings is PUT /api/triage/settings {categories, keywords,
// objects, authors}: 200 with the settings as stored (objects resolved)
// and notes; 400 naming an unknown category.
func (s *Server) apiPutTriageSettings(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	var in triage.SettingsInput
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	set, notes, err := s.triage.SaveSettings(c.Request().Context(), currentUser(c).ID, in)
	if err != nil {
		return triageError(err)
	}
	return c.JSON(http.StatusOK, settingsJSON(set, notes))
}

// triageError maps the triage's input errors to 400s.
func triageError(err error) error {
	var ce *triage.CategoryError
	var ie *triage.InputError
	switch {
	case errors.As(err, &ce):
		return apiError(http.StatusBadRequest, "unknown_category", ce.Error())
	case errors.As(err, &ie):
		return apiError(http.StatusBadRequest, "invalid_settings", ie.Error())
	case errors.Is(err, triage.ErrBadDate):
		return apiError(http.StatusBadRequest, "invalid_date", "The date must be YYYY-MM-DD.")
	case errors.Is(err, triage.ErrNotFetched):
		return apiError(http.StatusNotFound, "not_found", "No such paper in the triage.")
	}
	return err
}

// apiTriageRefresh is POST /api/triage/refresh: fetch what is due and rank
// again now, in the background (202).
func (s *Server) apiTriageRefresh(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	s.triage.Refresh(currentUser(c).ID)
	return c.JSON(http.StatusAccepted, struct {
		Status string `json:"status"`
	}{"refreshing"})
}

// apiTriage is GET /api/triage?date=YYYY-MM-DD: the digest, highest score
// first.
func (s *Server) apiTriage(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	d, err := s.triage.Digest(c.Request().Context(), currentUser(c).ID, c.QueryParam("date"))
	if err != nil {
		return triageError(err)
	}
	out := triageDigestJSON{Date: d.Date, Items: []triageItemJSON{}, Days: d.Days, Problems: []triageProblemJSON{}, Waiting: d.Waiting}
	if out.Days == nil {
		out.Days = []string{}
	}
	for _, it := range d.Items {
		out.Items = append(out.Items, triageItemJSON{ArxivID: it.ArxivID, Title: it.Title, Authors: nonNil(it.Authors),
			Categories: nonNil(it.Categories), Score: it.Score, Reasons: nonNil(it.Reasons), Summary: it.Summary,
			InLibrary: it.InLibrary, LibraryID: it.LibraryID, Abstract: it.Abstract, URL: arxivAbsURL(it.ArxivID)})
	}
	for _, p := range d.Problems {
		out.Problems = append(out.Problems, triageProblemJSON{Category: p.Category, Day: p.Day, Error: p.Error, NextAttempt: p.NextAttempt})
	}
	return c.JSON(http.StatusOK, out)
}

// apiTriageHide is POST /api/triage/papers/{arxiv_id}/hide ("Not
// interested"): 204.
func (s *Server) apiTriageHide(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	if err := s.triage.Hide(c.Request().Context(), currentUser(c).ID, c.Param("arxiv")); err != nil {
		return triageError(err)
	}
	return c.NoContent(http.StatusNoContent)
}

// apiTriageAdd is POST /api/triage/papers/{arxiv_id}/add ("Add to
// library"): 201 {paper}.
func (s *Server) apiTriageAdd(c echo.Context) error {
	if err := s.needTriage(); err != nil {
		return err
	}
	p, err := s.triage.Add(c.Request().Context(), currentUser(c).ID, c.Param("arxiv"))
	if err != nil {
		return triageError(err)
	}
	return c.JSON(http.StatusCreated, struct {
		Paper store.Paper `json:"paper"`
	}{p})
}

// arxivAbsURL is the paper's abstract page on arXiv.
func arxivAbsURL(id string) string { return "https://arxiv.org/abs/" + id }

// nonNil returns s, or an empty slice for nil (JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
