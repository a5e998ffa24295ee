package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
)

// maxExportIDs bounds one BibTeX export of selected papers.
const maxExportIDs = 5000

// libraryBibTeX is GET /library/bibtex?ids=1&ids=2: the library page's
// "Export BibTeX of the selected papers" (a plain form of checkboxes, so
// it works without JavaScript). Nothing selected sends the user back to
// the list with a note.
func (s *Server) libraryBibTeX(c echo.Context) error {
	ids, ok := exportIDs(c.QueryParams()["ids"])
	switch {
	case !ok:
		return echo.NewHTTPError(http.StatusBadRequest, "The selection is not a list of library papers.")
	case len(ids) == 0:
		s.flash(c, "Select at least one paper (the boxes beside the titles), then export.")
		return s.redirect(c, "/library")
	case len(ids) > maxExportIDs:
		return echo.NewHTTPError(http.StatusBadRequest, "At most 5000 papers can be exported at once; export the whole library instead.")
	}
	papers, err := s.papersByIDs(c.Request().Context(), ids)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="astroresearch-selection.bib"`)
	return s.sendBibTeX(c, papers)
}

// papersByIDs loads library papers in the order given; an unknown id is a
// 404 naming it.
func (s *Server) papersByIDs(ctx context.Context, ids []int64) ([]store.Paper, error) {
	out := make([]store.Paper, 0, len(ids))
	for _, id := range ids {
		p, err := s.st.PaperByID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("Paper %d is not in the library.", id))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// exportIDs reads paper ids from repeated values, each of which may also
// be a comma-separated list; ok is false when one is not an id.
func exportIDs(values []string) (ids []int64, ok bool) {
	seen := map[int64]bool{}
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			id, err := strconv.ParseInt(part, 10, 64)
			if err != nil || id <= 0 {
				return nil, false
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, true
}
