package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The library pages (docs/features.md L2–L4): GET /library lists and searches the
// papers, POST /library/import adds one, GET /library/{id} shows one. The
// PDF download and file routes are in library_download.go.

// libraryPageSize is the number of papers per list page.
const libraryPageSize = 50

// libraryQuery is the parsed query string of the list page.
type libraryQuery struct {
	q, tag, year, status, sort string
	page                       int
}

// downloadStatuses are the values of the status filter.
var downloadStatuses = map[string]bool{"none": true, "downloading": true, "downloaded": true, "failed": true}

// parseLibraryQuery reads q, tag, year and page; a malformed value comes
// back as a message for the list.
func parseLibraryQuery(c echo.Context) (libraryQuery, store.PaperFilter, string) {
	lq := libraryQuery{q: strings.TrimSpace(c.QueryParam("q")), tag: strings.TrimSpace(c.QueryParam("tag")),
		year: strings.TrimSpace(c.QueryParam("year")), status: strings.TrimSpace(c.QueryParam("status")),
		sort: strings.TrimSpace(c.QueryParam("sort")), page: 1}
	f := store.PaperFilter{Query: lq.q, Tag: lq.tag, Limit: libraryPageSize}
	if !store.ValidSort(store.PaperSort(lq.sort)) {
		return lq, f, "The order must be relevance, newest, year, title or cited."
	}
	f.Sort = store.PaperSort(lq.sort)
	if lq.status != "" {
		if !downloadStatuses[lq.status] {
			return lq, f, "The status must be none, downloading, downloaded or failed."
		}
		f.Status = lq.status
	}
	if utf8.RuneCountInString(lq.q) > maxSearchQuery {
		return lq, f, "The search is longer than 500 characters."
	}
	if lq.year != "" {
		n, err := strconv.Atoi(lq.year)
		if err != nil || n < 1 || n > 9999 {
			return lq, f, "The year must be a four-digit year such as 2024."
		}
		f.Year = n
	}
	if v := c.QueryParam("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return lq, f, "The page must be a positive whole number."
		}
		lq.page = n
	}
	f.Offset = (lq.page - 1) * libraryPageSize
	return lq, f, ""
}

// url is the list page for these filters at page n.
func (q libraryQuery) url(base string, n int) string {
	v := url.Values{}
	for k, val := range map[string]string{"q": q.q, "tag": q.tag, "year": q.year, "status": q.status, "sort": q.sort} {
		if val != "" {
			v.Set(k, val)
		}
	}
	if n > 1 {
		v.Set("page", strconv.Itoa(n))
	}
	if len(v) == 0 {
		return base + "/library"
	}
	return base + "/library?" + v.Encode()
}

// libraryResults returns the rendered results block for the request's
// query and its status (400 with the message for a refused filter).
// Blocks are cached per query and library version (see versionedCache):
// the version is bumped by every write to the library, so a cached block
// is never shown after a change.
func (s *Server) libraryResults(c echo.Context) (string, libraryQuery, int, error) {
	lq, f, msg := parseLibraryQuery(c)
	out := views.LibraryResults{BasePath: s.cfg.BasePath, Query: lq.q, Filtered: lq.q != "" || lq.tag != "" || lq.year != "" || lq.status != "", Page: lq.page}
	ctx := c.Request().Context()
	if msg != "" {
		out.Error = msg
		html, err := renderString(ctx, views.LibraryResultsList(out))
		return html, lq, http.StatusBadRequest, err
	}
	html, err := s.listCache.get(ctx, lq.url("", lq.page), s.st.LibraryVersion, func(ctx context.Context) (string, error) {
		papers, total, err := s.st.ListPapers(ctx, f)
		if err != nil {
			return "", err
		}
		out.Total, out.Papers = total, make([]views.PaperRow, 0, len(papers))
		for _, p := range papers {
			out.Papers = append(out.Papers, paperRow(s.cfg.BasePath, p))
		}
		if lq.page > 1 {
			out.PrevURL = lq.url(s.cfg.BasePath, lq.page-1)
		}
		if f.Offset+len(papers) < total {
			out.NextURL = lq.url(s.cfg.BasePath, lq.page+1)
		}
		return renderString(ctx, views.LibraryResultsList(out))
	})
	if err != nil {
		return "", lq, 0, err
	}
	return html, lq, http.StatusOK, nil
}

// renderString renders comp to a string.
func renderString(ctx context.Context, comp templ.Component) (string, error) {
	var b strings.Builder
	if err := comp.Render(ctx, &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// libraryList is GET /library. An htmx request from the search box gets
// only the results (always 200, so htmx swaps a refused query's message).
func (s *Server) libraryList(c echo.Context) error {
	results, lq, status, err := s.libraryResults(c)
	if err != nil {
		return err
	}
	if isHTMX(c) && c.Request().Header.Get("HX-Target") == "library-results" {
		return c.HTML(http.StatusOK, results)
	}
	return s.render(c, status, views.Library(s.libraryPage(c, lq, results, views.ImportForm{})))
}

func (s *Server) libraryPage(c echo.Context, lq libraryQuery, results string, form views.ImportForm) views.LibraryPage {
	// Titles have formulas (arXiv's "$z\sim6$"), and so do the ask panel's
	// answers; math.js fetches KaTeX only once a formula is on the page.
	chrome := s.mathChrome(c, "Library", "library")
	return views.LibraryPage{Chrome: chrome, Query: lq.q, Tag: lq.tag, Year: lq.year, Status: lq.status,
		Sort: lq.sort, Import: form, ResultsHTML: results,
		Ask: s.askBox(c.Request().Context(), nil)}
}

// libraryImport is POST /library/import {ref, return?}: 303 to the
// paper's page, or the list again with the reason (the API's status and
// message). With return (a library page, e.g. the paper whose reference
// list offered the add) the answer goes back there, the outcome in the
// flash.
func (s *Server) libraryImport(c echo.Context) error {
	raw := strings.TrimSpace(c.FormValue("ref"))
	back := libraryReturn(c.FormValue("return"))
	p, created, err := s.importRef(c, raw)
	if err == nil {
		if created {
			s.flash(c, "Imported “"+p.Title+"”.")
		} else {
			s.flash(c, "“"+p.Title+"” was already in the library.")
		}
		if back != "" {
			return s.redirect(c, back)
		}
		return s.redirect(c, "/library/"+strconv.FormatInt(p.ID, 10))
	}
	var ce *codedError
	if !errors.As(err, &ce) {
		return err
	}
	if back != "" {
		s.flash(c, "Could not import "+raw+": "+ce.message)
		return s.redirect(c, back)
	}
	results, lq, _, lerr := s.libraryResults(c)
	if lerr != nil {
		return lerr
	}
	form := views.ImportForm{Ref: raw, Error: ce.message}
	return s.render(c, ce.status, views.Library(s.libraryPage(c, lq, results, form)))
}

// libraryReturn is p when it is a library page to come back to after an
// import (a local path under /library/), "" otherwise.
func libraryReturn(p string) string {
	if !strings.HasPrefix(p, "/library/") || safeNext(p) == "" {
		return ""
	}
	return p
}

// libraryPaper is GET /library/{id}.
func (s *Server) libraryPaper(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	page, err := s.paperPage(c, p)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.PaperDetail(page))
}

// paperPage builds the paper page's view model.
func (s *Server) paperPage(c echo.Context, p store.Paper) (views.PaperPage, error) {
	dl, err := s.downloadView(c, p)
	if err != nil {
		return views.PaperPage{}, err
	}
	parse, err := s.parseView(c.Request().Context(), p)
	if err != nil {
		return views.PaperPage{}, err
	}
	// The title and the abstract have formulas.
	page := views.PaperPage{Chrome: s.mathChrome(c, p.Title, "library"), Paper: paperRow(s.cfg.BasePath, p),
		Volume: p.Volume, PageNo: p.Page, Abstract: p.Abstract, Keywords: p.Keywords, Tags: s.tagsView(c, p.ID, p.Tags),
		Citations: p.CitationCount, Download: dl, Parse: parse}
	page.Paper.Authors = p.Authors
	if page.Links, err = s.linksView(c, p); err != nil {
		return views.PaperPage{}, err
	}
	return page, nil
}

// paperRow is the list's (and the detail header's) view of a paper.
func paperRow(base string, p store.Paper) views.PaperRow {
	r := views.PaperRow{BasePath: base, ID: p.ID, Title: p.Title, Authors: p.Authors, Year: p.Year, Journal: p.Journal,
		Status: p.DownloadStatus, Tags: p.Tags}
	if p.Bibcode != nil && *p.Bibcode != "" {
		r.IDs = append(r.IDs, views.Identifier{Kind: "bibcode", Label: *p.Bibcode,
			URL: "https://ui.adsabs.harvard.edu/abs/" + url.PathEscape(*p.Bibcode)})
	}
	if p.ArxivID != nil && *p.ArxivID != "" {
		label := "arXiv:" + *p.ArxivID
		if p.ArxivVersion != nil && *p.ArxivVersion > 0 {
			label += "v" + strconv.Itoa(*p.ArxivVersion)
		}
		r.IDs = append(r.IDs, views.Identifier{Kind: "arxiv", Label: label, URL: "https://arxiv.org/abs/" + escapeSegments(*p.ArxivID)})
	}
	if p.DOI != nil && *p.DOI != "" {
		r.IDs = append(r.IDs, views.Identifier{Kind: "doi", Label: "doi:" + *p.DOI, URL: "https://doi.org/" + escapeSegments(*p.DOI)})
	}
	return r
}

// escapeSegments escapes each /-separated part of an identifier used as a
// URL path (old-style arXiv ids and DOIs contain slashes).
func escapeSegments(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
