package literature

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
)

// TestSearchWithRealClients runs the real ADS and arXiv clients, through
// the guarded fetch client, against local fakes serving responses in the
// services' formats (the fixtures of those packages).
func TestSearchWithRealClients(t *testing.T) {
	adsBody, err := os.ReadFile("../ads/testdata/search_m87.json")
	if err != nil {
		t.Fatal(err)
	}
	atom, err := os.ReadFile("../arxiv/testdata/search_astroph.xml")
	if err != nil {
		t.Fatal(err)
	}
	adsSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" || !strings.HasSuffix(r.URL.Path, "/search/query") {
			http.Error(w, `{"error":"Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(adsBody)
	}))
	defer adsSrv.Close()
	axSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write(atom)
	}))
	defer axSrv.Close()
	web := fetch.New(fetch.Options{Allow: []string{adsSrv.URL, axSrv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	s := NewSearcher(ads.New(adsSrv.URL+"/v1", "tok", web), arxiv.New(axSrv.URL+"/api/query", web))
	res, err := s.Search(context.Background(), Query{Text: "M87", Rows: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 0 || res.ADS <= 0 || res.Arxiv <= 0 || len(res.Papers) < 3 {
		t.Fatalf("%+v", res)
	}
	seen := map[string]bool{}
	for _, p := range res.Papers {
		for _, k := range keys(p) {
			if seen[k] {
				t.Fatalf("duplicate %s in merged results", k)
			}
			seen[k] = true
		}
	}
	// Without a token ADS is skipped with a note and arXiv still answers.
	noToken := NewSearcher(ads.New(adsSrv.URL+"/v1", "", web), arxiv.New(axSrv.URL+"/api/query", web))
	res, err = noToken.Search(context.Background(), Query{Text: "M87"})
	if err != nil || len(res.Papers) == 0 || !strings.Contains(strings.Join(res.Notes, " "), "ADS_API_TOKEN") {
		t.Fatalf("no token: %+v %v", res, err)
	}
}
