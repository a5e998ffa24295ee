package handlers

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The history search page (docs/features.md L6): GET /search renders the whole page
// (the form's plain submit), GET /search/results only the result list
// (the htmx fragment the search box asks for while typing).

// maxSearchQuery bounds a query (characters).
const maxSearchQuery = 500

// searchRequest is the parsed query string of both routes.
type searchRequest struct {
	q       string
	session store.AgentSession // ID "" when no session was given
	only    bool
}

// parseSearch reads q, session and only; someone else's (or an unknown)
// session is a 404.
func (s *Server) parseSearch(c echo.Context) (searchRequest, error) {
	r := searchRequest{q: strings.TrimSpace(c.QueryParam("q")), only: c.QueryParam("only") != ""}
	if id := c.QueryParam("session"); id != "" {
		a, err := s.st.AgentSession(c.Request().Context(), currentUser(c).ID, id)
		if err != nil {
			return r, agentError(err)
		}
		r.session = a
	}
	return r, nil
}

// searchResults runs the search; a refused query comes back as the list's
// error with status 400.
func (s *Server) searchResults(c echo.Context, r searchRequest) (views.SearchResults, int, error) {
	out := views.SearchResults{BasePath: s.cfg.BasePath, Query: r.q}
	if r.q == "" {
		return out, http.StatusOK, nil
	}
	if utf8.RuneCountInString(r.q) > maxSearchQuery {
		out.Error = "The search is longer than 500 characters."
		return out, http.StatusBadRequest, nil
	}
	scope := ""
	if r.only {
		scope = r.session.ID
	}
	hits, err := s.st.SearchHistory(c.Request().Context(), currentUser(c).ID, r.q, scope, 50)
	if err != nil {
		return out, 0, err
	}
	for _, h := range hits {
		out.Hits = append(out.Hits, views.SearchHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle,
			Turn: h.Turn, Role: h.Role, Parts: snippetParts(h.Snippet), When: h.CreatedAt})
	}
	return out, http.StatusOK, nil
}

// snippetParts splits a store snippet into plain and matched runs, using
// the same offsets the JSON API reports. The text stays plain: the
// template escapes it, and only the <mark> elements are markup.
func snippetParts(snippet string) []views.SnippetPart {
	text, marks := splitMarks(snippet)
	var parts []views.SnippetPart
	at := 0
	for _, m := range marks {
		if m[0] > at {
			parts = append(parts, views.SnippetPart{Text: text[at:m[0]]})
		}
		if m[1] > m[0] {
			parts = append(parts, views.SnippetPart{Text: text[m[0]:m[1]], Mark: true})
		}
		at = m[1]
	}
	if at < len(text) {
		parts = append(parts, views.SnippetPart{Text: text[at:]})
	}
	return parts
}

// searchPage is GET /search.
func (s *Server) searchPage(c echo.Context) error {
	r, err := s.parseSearch(c)
	if err != nil {
		return err
	}
	results, status, err := s.searchResults(c, r)
	if err != nil {
		return err
	}
	return s.render(c, status, views.Search(views.SearchPage{
		Chrome: s.chrome(c, "Search", "search"), Query: r.q,
		SessionID: r.session.ID, SessionTitle: r.session.Title, Only: r.only && r.session.ID != "",
		Results: results,
	}))
}

// searchFragment is GET /search/results: the result list alone. htmx swaps
// only 2xx answers by default, so a refused query is answered 200 here
// with the message in the list.
func (s *Server) searchFragment(c echo.Context) error {
	r, err := s.parseSearch(c)
	if err != nil {
		return err
	}
	results, status, err := s.searchResults(c, r)
	if err != nil {
		return err
	}
	if status != http.StatusOK && isHTMX(c) {
		status = http.StatusOK
	}
	return s.render(c, status, views.SearchResultsList(results))
}
