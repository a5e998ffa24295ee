package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

// ImportRequest is the body of POST /api/papers/import.
type ImportRequest struct {
	Ref string `json:"ref"`
}

// PaperResponse wraps one paper: {"paper": {...}}.
type PaperResponse struct {
	Paper   store.Paper `json:"paper"`
	Created bool        `json:"created"`
}

// apiImportPaper is POST /api/papers/import {ref}: 201 {paper} for a new
// entry, 200 when the library already had it (import is idempotent).
func (s *Server) apiImportPaper(c echo.Context) error {
	var req ImportRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, created, err := s.importRef(c, req.Ref)
	if err != nil {
		return err
	}
	return importResponse(c, p, created)
}

// importResponse answers an import: 201 with {paper} when the paper is new
// to the library, 200 when it was already there.
func importResponse(c echo.Context, p store.Paper, created bool) error {
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, PaperResponse{Paper: p, Created: created})
}

// apiPaper is GET /api/papers/{id}.
func (s *Server) apiPaper(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, PaperResponse{Paper: p})
}

// apiPapers is GET /api/papers?q=&tag=&year=&status=&sort=&limit=&offset=.
func (s *Server) apiPapers(c echo.Context) error {
	f := store.PaperFilter{Query: strings.TrimSpace(c.QueryParam("q")), Tag: c.QueryParam("tag"), Status: c.QueryParam("status"),
		Sort: store.PaperSort(c.QueryParam("sort"))}
	if f.Status != "" && !downloadStatuses[f.Status] {
		return apiError(http.StatusBadRequest, "invalid_request", "status must be none, downloading, downloaded or failed.")
	}
	if !store.ValidSort(f.Sort) {
		return apiError(http.StatusBadRequest, "invalid_request", "sort must be relevance, newest, year, title or cited.")
	}
	for name, dst := range map[string]*int{"year": &f.Year, "limit": &f.Limit, "offset": &f.Offset} {
		if v := c.QueryParam(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return apiError(http.StatusBadRequest, "invalid_request", name+" must be a non-negative whole number.")
			}
			*dst = n
		}
	}
	if len(f.Query) > 500 {
		return apiError(http.StatusBadRequest, "invalid_request", "The query is longer than 500 characters.")
	}
	papers, total, err := s.st.ListPapers(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if papers == nil {
		papers = []store.Paper{}
	}
	return c.JSON(http.StatusOK, map[string]any{"papers": papers, "total": total})
}

// importRef parses raw and imports the paper for the signed-in user. Its
// errors are *codedError values (the API's error mapping), so the JSON API
// and the library page report the same status and message.
func (s *Server) importRef(c echo.Context, raw string) (store.Paper, bool, error) {
	ref, err := library.ParseRef(raw)
	if err != nil {
		return store.Paper{}, false, apiError(http.StatusBadRequest, "invalid_ref", "The ref is not an arXiv id, bibcode, DOI or a paper URL this server recognises.")
	}
	p, created, err := s.library.Import(c.Request().Context(), currentUser(c).ID, ref)
	if err != nil {
		return store.Paper{}, false, libraryError(err)
	}
	return p, created, nil
}

// paperByParam loads the paper named by the route's :id; unknown or
// malformed ids are a 404.
func (s *Server) paperByParam(c echo.Context) (store.Paper, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return store.Paper{}, apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
	}
	p, err := s.st.PaperByID(c.Request().Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Paper{}, apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
	}
	return p, err
}

func libraryError(err error) error {
	switch {
	case errors.Is(err, library.ErrNotFound):
		return apiError(http.StatusNotFound, "not_found", "Neither ADS nor arXiv knows that paper.")
	case errors.Is(err, ads.ErrNoToken):
		return apiError(http.StatusUnprocessableEntity, "ads_token_missing", "Looking this up needs NASA ADS: set ADS_API_TOKEN (https://ui.adsabs.harvard.edu/user/settings/token), or import by arXiv id.")
	case errors.Is(err, ads.ErrRateLimited):
		return apiError(http.StatusServiceUnavailable, "upstream_rate_limited", "NASA ADS is rate-limiting this server (daily quota); try again later.")
	}
	return &codedError{status: http.StatusBadGateway, code: "upstream_error", message: "ADS or arXiv could not answer: " + shortErr(err)}
}

func shortErr(err error) string {
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg
}

// apiPaperBibTeX is GET /api/papers/{id}/bibtex.
func (s *Server) apiPaperBibTeX(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	return s.sendBibTeX(c, []store.Paper{p})
}

// apiPapersBibTeX is GET /api/papers/bibtex?ids=1,2,3 (no ids: the whole
// library).
func (s *Server) apiPapersBibTeX(c echo.Context) error {
	ctx := c.Request().Context()
	var papers []store.Paper
	if raw := strings.TrimSpace(c.QueryParam("ids")); raw != "" {
		for _, part := range strings.Split(raw, ",") {
			id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return apiError(http.StatusBadRequest, "invalid_request", "ids must be a comma-separated list of library paper ids.")
			}
			p, err := s.st.PaperByID(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				return apiError(http.StatusNotFound, "not_found", "Paper "+part+" is not in the library.")
			}
			if err != nil {
				return err
			}
			papers = append(papers, p)
		}
		if len(papers) > 5000 {
			return apiError(http.StatusBadRequest, "invalid_request", "At most 5000 papers per export.")
		}
	} else {
		for offset := 0; ; offset += 500 {
			page, _, err := s.st.ListPapers(ctx, store.PaperFilter{Limit: 500, Offset: offset})
			if err != nil {
				return err
			}
			papers = append(papers, page...)
			if len(page) < 500 {
				break
			}
		}
	}
	return s.sendBibTeX(c, papers)
}

func (s *Server) sendBibTeX(c echo.Context, papers []store.Paper) error {
	var exp library.Exporter
	if s.bibtex != nil {
		exp = s.bibtex
	}
	if c.Response().Header().Get("Content-Disposition") == "" {
		c.Response().Header().Set("Content-Disposition", `inline; filename="astroresearch.bib"`)
	}
	return c.Blob(http.StatusOK, "application/x-bibtex; charset=utf-8", []byte(library.BibTeX(c.Request().Context(), papers, exp)))
}
