// Package adstest is a local NASA ADS search API for tests, answering in
// the API's real format (Solr JSON) from recorded fixtures:
//
//   - bibcode:"2019ApJ...875L...1E" → the EHT paper I (Fixtures.Lookup);
//   - citations(...) → two citing records of 4637 (Fixtures.Citations);
//   - references(...) → three cited records (Fixtures.References);
//   - bibcode:/doi:/identifier: lookups of any record of those lists;
//   - object:"…" → three records about NGC 4258 (Fixtures ObjectSearch),
//     or with facet=true its refereed papers per year (ObjectYears);
//     an object query naming "nothing" finds none;
//   - anything else → no records;
//   - a query naming FailingBibcode → ADS's 500, LimitedBibcode → 429
//     with a spent daily quota;
//   - a request without "Authorization: Bearer <token>" → 401.
package adstest

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The recorded answers.
var (
	//go:embed testdata/citations.json
	Citations []byte
	//go:embed testdata/references.json
	References []byte
	//go:embed testdata/lookup_eht.json
	Lookup []byte
	//go:embed testdata/object_search.json
	ObjectSearch []byte
	//go:embed testdata/object_years.json
	ObjectYears []byte
)

// Bibcodes for which the fake fails.
const (
	FailingBibcode = "2000ApJ...500..500E" // ADS's own 500
	LimitedBibcode = "2000ApJ...500..501L" // 429, daily quota spent
)

// NewServer starts the fake, closed when the test ends. token is the
// bearer token it accepts ("" accepts any).
func NewServer(tb testing.TB, token string) *httptest.Server {
	tb.Helper()
	var docs []map[string]any
	for _, f := range [][]byte{Citations, References} {
		var page struct {
			Response struct {
				Docs []map[string]any `json:"docs"`
			} `json:"response"`
		}
		if err := json.Unmarshal(f, &page); err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, page.Response.Docs...)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || (token != "" && auth != token) {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error": "Unauthorized"}`))
			return
		}
		if r.URL.Path != "/v1/search/query" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		q := r.URL.Query().Get("q")
		switch {
		case strings.Contains(q, FailingBibcode):
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"responseHeader": {"status": 500}, "error": {"msg": "java.lang.NullPointerException", "code": 500}}`))
		case strings.Contains(q, LimitedBibcode):
			w.Header().Set("X-RateLimit-Limit", "5000")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "1900000000")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error": "Too many requests"}`))
		case strings.HasPrefix(q, "object:") && strings.Contains(strings.ToLower(q), "nothing"):
			w.Write([]byte(`{"responseHeader": {"status": 0}, "response": {"numFound": 0, "start": 0, "docs": []}, "facet_counts": {"facet_fields": {"year": []}}}`))
		case strings.HasPrefix(q, "object:") && r.URL.Query().Get("facet") == "true":
			w.Write(ObjectYears)
		case strings.HasPrefix(q, "object:"):
			w.Write(ObjectSearch)
		case q == `bibcode:"2019ApJ...875L...1E"`:
			w.Write(Lookup)
		case strings.HasPrefix(q, "citations("):
			w.Write(Citations)
		case strings.HasPrefix(q, "references("):
			w.Write(References)
		default:
			hits := matching(docs, q)
			json.NewEncoder(w).Encode(map[string]any{"responseHeader": map[string]any{"status": 0},
				"response": map[string]any{"numFound": len(hits), "start": 0, "docs": hits}})
		}
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// matching returns the records one of whose identifiers is the value of
// a fielded lookup (bibcode:"…", doi:"…", identifier:"…").
func matching(docs []map[string]any, q string) []map[string]any {
	_, want, ok := strings.Cut(q, ":")
	if !ok {
		return []map[string]any{}
	}
	want = strings.Trim(want, `"`)
	hits := []map[string]any{}
	for _, d := range docs {
		ids, _ := d["identifier"].([]any)
		for _, id := range ids {
			if s, _ := id.(string); strings.EqualFold(s, want) {
				hits = append(hits, d)
				break
			}
		}
	}
	return hits
}
