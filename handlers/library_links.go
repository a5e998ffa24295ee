package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// A paper's citations and references (docs/features.md L5): GET /library/{id}/links
// is the block (fetched from ADS the first time; htmx loads it), POST
// /library/{id}/links fetches again. The JSON API is GET
// /api/papers/{id}/citations and /references (?refresh=true fetches
// again).

// Messages for a block that cannot be fetched.
const (
	linksNoToken   = "Citations and references come from NASA ADS: set ADS_API_TOKEN (get one at https://ui.adsabs.harvard.edu/user/settings/token) and restart to list them."
	linksNoBibcode = "This paper has no bibcode, arXiv id or DOI, so ADS cannot list its citations and references."
	linksNotInADS  = "NASA ADS does not know this paper yet (new preprints take a few days to appear there), so it cannot list its citations and references."
)

// linksView builds the block from what is stored; nothing is fetched.
func (s *Server) linksView(c echo.Context, p store.Paper) (*views.PaperLinks, error) {
	if s.links == nil {
		return nil, nil
	}
	v := &views.PaperLinks{BasePath: s.cfg.BasePath, PaperID: p.ID}
	if msg := linksRefusal(s.links.Check(p)); msg != "" {
		v.State, v.Message = "unavailable", msg
		return v, nil
	}
	cites, refs, ok, err := s.links.Stored(c.Request().Context(), p)
	if err != nil {
		return nil, err
	}
	if !ok {
		v.State = "pending"
		return v, nil
	}
	s.fillLinks(v, p, cites, refs)
	return v, nil
}

// linksRefusal is the user's message when Check refuses, "" otherwise.
func linksRefusal(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ads.ErrNoToken):
		return linksNoToken
	case errors.Is(err, library.ErrNoBibcode):
		return linksNoBibcode
	}
	return "Citations and references cannot be listed for this paper."
}

// fillLinks fills a ready block; p has a bibcode (lists are only stored
// for papers that have one).
func (s *Server) fillLinks(v *views.PaperLinks, p store.Paper, cites, refs store.LinkList) {
	v.State, v.FetchedAt = "ready", cites.FetchedAt
	bibcode := ""
	if p.Bibcode != nil {
		bibcode = *p.Bibcode
	}
	abs := "https://ui.adsabs.harvard.edu/abs/" + url.PathEscape(bibcode)
	v.Citations = s.linkListView("citations", cites, abs+"/citations")
	v.References = s.linkListView("references", refs, abs+"/references")
}

func (s *Server) linkListView(kind string, l store.LinkList, adsURL string) views.LinkListView {
	out := views.LinkListView{Kind: kind, Total: l.Total, ADSURL: adsURL}
	for _, ln := range l.Links {
		r := views.LinkRow{Title: ln.Title, Authors: ln.Authors, Journal: ln.Journal, Citations: ln.CitationCount, Bibcode: ln.Bibcode,
			ADSURL: "https://ui.adsabs.harvard.edu/abs/" + url.PathEscape(ln.Bibcode) + "/abstract"}
		if ln.Year != nil {
			r.Year = strconv.Itoa(*ln.Year)
		}
		if ln.LibraryID != nil {
			r.LibraryURL = s.cfg.BasePath + "/library/" + strconv.FormatInt(*ln.LibraryID, 10)
			if ln.DownloadStatus != nil {
				r.Status = *ln.DownloadStatus
			}
		}
		out.Rows = append(out.Rows, r)
	}
	if out.Total < len(out.Rows) {
		out.Total = len(out.Rows)
	}
	return out
}

// libraryLinks is GET /library/{id}/links (the block, fetched from ADS
// when never fetched) and POST /library/{id}/links (fetched again).
// Without htmx the answer is a 303 to the paper's block, with a failure as
// the flash.
func (s *Server) libraryLinks(c echo.Context) error {
	if s.links == nil {
		return echo.ErrNotFound
	}
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	refresh := c.Request().Method == http.MethodPost
	v := &views.PaperLinks{BasePath: s.cfg.BasePath, PaperID: p.ID}
	if msg := linksRefusal(s.links.Check(p)); msg != "" {
		v.State, v.Message = "unavailable", msg
	} else if cites, refs, err := s.links.Lists(c.Request().Context(), p, refresh); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
		}
		s.log.Warn("citations and references", "paper", p.ID, "err", err)
		v.State, v.Message = "error", linksFailure(err).message
	} else {
		if p.Bibcode == nil || *p.Bibcode == "" { // ADS has just given it one
			if p, err = s.st.PaperByID(c.Request().Context(), p.ID); err != nil {
				return err
			}
		}
		s.fillLinks(v, p, cites, refs)
	}
	if !isHTMX(c) {
		if v.State == "error" || v.State == "unavailable" {
			s.flash(c, v.Message)
		}
		return c.Redirect(http.StatusSeeOther, s.cfg.BasePath+"/library/"+strconv.FormatInt(p.ID, 10)+"#paper-links")
	}
	return s.render(c, http.StatusOK, views.PaperLinksView(*v))
}

// linksFailure is what the user is told when ADS could not list a
// paper's citations and references: a reason in words, never ADS's own
// error text (which is logged).
func linksFailure(err error) *codedError {
	switch {
	case errors.Is(err, ads.ErrNoToken):
		return apiError(http.StatusUnprocessableEntity, "ads_token_missing", linksNoToken)
	case errors.Is(err, ads.ErrUnauthorized):
		return apiError(http.StatusBadGateway, "upstream_unauthorized", "NASA ADS rejected this server's token: check ADS_API_TOKEN.")
	case errors.Is(err, ads.ErrRateLimited):
		return apiError(http.StatusServiceUnavailable, "upstream_rate_limited", "NASA ADS is rate-limiting this server (daily quota); try again later.")
	case errors.Is(err, context.DeadlineExceeded):
		return apiError(http.StatusGatewayTimeout, "upstream_timeout", "NASA ADS did not answer in time; try again.")
	case errors.Is(err, library.ErrNotInADS):
		return apiError(http.StatusUnprocessableEntity, "not_in_ads", linksNotInADS)
	case errors.Is(err, ads.ErrMalformedID):
		return apiError(http.StatusUnprocessableEntity, "no_bibcode", "The paper's bibcode is malformed, so ADS cannot list its citations and references.")
	}
	return apiError(http.StatusBadGateway, "upstream_error", "NASA ADS could not list them just now (an error on its side or on the way); try again later.")
}

// LinksResponse is the answer of GET /api/papers/{id}/citations (in
// "citations") and /references (in "references").
type LinksResponse struct {
	Citations  *[]store.LinkedPaper `json:"citations,omitempty"`
	References *[]store.LinkedPaper `json:"references,omitempty"`
	Total      int                  `json:"total"`
	FetchedAt  string               `json:"fetched_at"`
}

// apiPaperLinks is GET /api/papers/{id}/citations and /references.
func (s *Server) apiPaperLinks(kind store.LinkKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.links == nil {
			return apiError(http.StatusNotFound, "not_found", "Citations and references are not available on this server.")
		}
		p, err := s.paperByParam(c)
		if err != nil {
			return err
		}
		switch err := s.links.Check(p); {
		case errors.Is(err, ads.ErrNoToken):
			return apiError(http.StatusUnprocessableEntity, "ads_token_missing", linksNoToken)
		case errors.Is(err, library.ErrNoBibcode):
			return apiError(http.StatusUnprocessableEntity, "no_bibcode", linksNoBibcode)
		}
		refresh, _ := strconv.ParseBool(c.QueryParam("refresh"))
		cites, refs, err := s.links.Lists(c.Request().Context(), p, refresh)
		if errors.Is(err, store.ErrNotFound) {
			return apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
		}
		if err != nil {
			s.log.Warn("citations and references", "paper", p.ID, "err", err)
			return linksFailure(err)
		}
		list := refs
		if kind == store.LinkCitation {
			list = cites
		}
		papers := list.Links
		if papers == nil {
			papers = []store.LinkedPaper{}
		}
		out := LinksResponse{Total: list.Total, FetchedAt: list.FetchedAt.UTC().Format("2006-01-02T15:04:05Z")}
		if kind == store.LinkCitation {
			out.Citations = &papers
		} else {
			out.References = &papers
		}
		return c.JSON(http.StatusOK, out)
	}
}
