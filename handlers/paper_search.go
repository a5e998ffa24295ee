package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// PaperSearcher searches ADS and arXiv together.
type PaperSearcher interface {
	Search(ctx context.Context, q literature.Query) (literature.Result, error)
}

// paperSearchPage is GET /library/search?q=&sort=: merged ADS + arXiv
// results, each addable to the library with one click.
func (s *Server) paperSearchPage(c echo.Context) error {
	page := views.PaperSearchPage{Chrome: s.mathChrome(c, "Search ADS and arXiv", "library"), // titles have formulas
		Query: strings.TrimSpace(c.QueryParam("q")), Sort: c.QueryParam("sort")}
	switch page.Sort {
	case "", "relevance", "date", "citations":
	default:
		page.Sort = ""
	}
	if page.Query == "" {
		return s.render(c, http.StatusOK, views.PaperSearch(page))
	}
	if len(page.Query) > 1000 {
		page.Error = "The search is longer than 1000 characters."
		return s.render(c, http.StatusBadRequest, views.PaperSearch(page))
	}
	res, err := s.papers.Search(c.Request().Context(), literature.Query{Text: page.Query, Rows: 20, Sort: literature.Sort(page.Sort)})
	page.Notes = res.Notes
	if errors.Is(err, literature.ErrNoSource) {
		page.Error = "Neither ADS nor arXiv could be searched right now."
		return s.render(c, http.StatusBadGateway, views.PaperSearch(page))
	}
	if err != nil {
		return err
	}
	for _, p := range res.Papers {
		page.Hits = append(page.Hits, s.paperHit(c.Request().Context(), p))
	}
	return s.render(c, http.StatusOK, views.PaperSearch(page))
}

func (s *Server) paperHit(ctx context.Context, p literature.Paper) views.PaperHit {
	h := views.PaperHit{Title: p.Title}
	if len(p.Authors) > 0 {
		h.Authors = views.ShortAuthorList(p.Authors)
	}
	var where []string
	if p.Year != 0 {
		where = append(where, fmt.Sprint(p.Year))
	}
	if p.Journal != "" {
		where = append(where, p.Journal)
	}
	if p.CitationCount != nil {
		where = append(where, views.Plural(*p.CitationCount, "citation", "citations"))
	}
	if len(where) > 0 {
		h.Where = " · " + strings.Join(where, ", ")
	}
	var ids []string
	if p.ArxivID != "" {
		ids, h.Ref = append(ids, "arXiv:"+p.ArxivID), p.ArxivID
	}
	if p.Bibcode != "" {
		ids = append(ids, p.Bibcode)
		if h.Ref == "" {
			h.Ref = p.Bibcode
		}
	}
	if p.DOI != "" {
		ids = append(ids, "doi:"+p.DOI)
		if h.Ref == "" {
			h.Ref = p.DOI
		}
	}
	h.IDs = strings.Join(ids, " · ")
	if lp, err := s.st.PaperByIdentifier(ctx, store.PaperIDs{ArxivID: p.ArxivID, Bibcode: p.Bibcode, DOI: p.DOI}); err == nil {
		h.LibraryID = lp.ID
	}
	return h
}
