package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
)

// HistoryHitJSON is a search hit. The snippet is plain text; the matched
// spans are listed separately, so clients need not parse markup.
type HistoryHitJSON struct {
	store.HistoryHit
	// Snippet is plain text; Highlights are [start, end) byte offsets of
	// the matched terms within it.
	Highlights [][2]int `json:"highlights"`
}

// apiSearchHistory is GET /api/search/history?q=&session=: full-text hits
// over the caller's sessions and messages, best first (docs/features.md L6). By default
// only the user's and the lead's messages are searched; &all=1 adds tool
// results, sub-agents and the memory extractor.
func (s *Server) apiSearchHistory(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if len(q) > 500 {
		return apiError(http.StatusBadRequest, "invalid_request", "The query is longer than 500 characters.")
	}
	limit := 50
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 200 {
			return apiError(http.StatusBadRequest, "invalid_request", "limit must be a number from 1 to 200.")
		}
		limit = n
	}
	session := c.QueryParam("session")
	if session != "" {
		if _, err := s.st.AgentSession(c.Request().Context(), currentUser(c).ID, session); err != nil {
			return agentError(err)
		}
	}
	search := s.st.SearchHistory // the user's and the lead's messages
	if c.QueryParam("all") == "1" {
		search = s.st.SearchHistoryAll // tool results, sub-agents and the memory extractor too
	}
	hits, err := search(c.Request().Context(), currentUser(c).ID, q, session, limit)
	if err != nil {
		return err
	}
	out := make([]HistoryHitJSON, len(hits))
	for i, h := range hits {
		out[i] = HistoryHitJSON{HistoryHit: h}
		out[i].Snippet, out[i].Highlights = splitMarks(h.Snippet)
	}
	return c.JSON(http.StatusOK, map[string][]HistoryHitJSON{"hits": out})
}

// splitMarks removes the store's highlight markers from a snippet and
// returns the plain text with the byte ranges that were marked.
func splitMarks(s string) (string, [][2]int) {
	var b strings.Builder
	marks := [][2]int{}
	start := -1
	for _, r := range s {
		switch string(r) {
		case store.MarkStart:
			start = b.Len()
		case store.MarkEnd:
			if start >= 0 {
				marks = append(marks, [2]int{start, b.Len()})
				start = -1
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), marks
}
