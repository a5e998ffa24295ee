package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/fetch"
)

// fakeADS is a local NASA ADS search API in its real (Solr JSON) format:
// citations(...) answers with the ads package's citations fixture,
// references(...) with the library package's references fixture, and
// bibcode:/doi:/identifier: lookups with the matching record of either;
// queries naming adsFailingBibcode get a 500, adsLimitedBibcode a 429.
// Any bearer token is accepted; none gets ADS's 401.
func fakeADS(t testing.TB) *httptest.Server {
	t.Helper()
	var files [2]map[string]any
	var docs []map[string]any
	for i, name := range []string{"../research/ads/testdata/citations.json", "../research/library/testdata/references.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &files[i]); err != nil {
			t.Fatal(err)
		}
		for _, d := range files[i]["response"].(map[string]any)["docs"].([]any) {
			docs = append(docs, d.(map[string]any))
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
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
		case strings.Contains(q, adsFailingBibcode): // ADS's own 500
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"responseHeader": {"status": 500}, "error": {"msg": "java.lang.NullPointerException", "code": 500}}`))
		case strings.Contains(q, adsLimitedBibcode): // the daily quota is spent
			w.Header().Set("X-RateLimit-Limit", "5000")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", "1900000000")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error": "Too many requests"}`))
		case strings.HasPrefix(q, "citations("):
			json.NewEncoder(w).Encode(files[0])
		case strings.HasPrefix(q, "references("):
			json.NewEncoder(w).Encode(files[1])
		default:
			_, want, _ := strings.Cut(q, ":")
			want = strings.Trim(want, `"`)
			var hits []map[string]any
			for _, d := range docs {
				for _, id := range d["identifier"].([]any) {
					if strings.EqualFold(id.(string), want) {
						hits = append(hits, d)
						break
					}
				}
			}
			json.NewEncoder(w).Encode(map[string]any{"responseHeader": map[string]any{"status": 0},
				"response": map[string]any{"numFound": len(hits), "start": 0, "docs": hits}})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Bibcodes for which the fake ADS fails: a server error, a spent quota.
const (
	adsFailingBibcode = "2000ApJ...500..500E"
	adsLimitedBibcode = "2000ApJ...500..501L"
)

// fakeADSClient is an ADS client for srv with token ("" = none).
func fakeADSClient(srv *httptest.Server, token string) *ads.Client {
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return ads.New(srv.URL+"/v1", token, web)
}
