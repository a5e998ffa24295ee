package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/research/fetch"
)

// The parse services (GROBID, MinerU) usually live on a private network.
// Only their own client may reach them: the web client follows URLs taken
// from papers and publishers (landing pages' PDF links, DOI redirects), and
// one of those pointing at GROBID must be refused like any private address.
func TestParseServicesReachableOnlyThroughTheirOwnClient(t *testing.T) {
	grobid := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("true"))
	}))
	defer grobid.Close()
	mineru := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	defer mineru.Close()
	ads := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("{}"))
	}))
	defer ads.Close()

	web, services, err := newFetchers(config.Config{GrobidURL: grobid.URL, MinerUAPIURL: mineru.URL, ADSAPIURL: ads.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, u := range []string{grobid.URL + "/api/isalive", mineru.URL + "/file_parse"} {
		if _, err := web.Get(ctx, u); !errors.Is(err, fetch.ErrBlockedAddress) {
			t.Errorf("web client GET %s: err %v, want ErrBlockedAddress", u, err)
		}
		res, err := services.Get(ctx, u)
		if err != nil || res.Status != http.StatusOK {
			t.Errorf("services client GET %s: %v, %v; want 200", u, res, err)
		}
	}
	if res, err := web.Get(ctx, ads.URL+"/search"); err != nil || res.Status != http.StatusOK {
		t.Errorf("web client GET the configured ADS endpoint: %v, %v; want 200", res, err)
	}
	if _, err := services.Get(ctx, ads.URL+"/search"); !errors.Is(err, fetch.ErrBlockedAddress) {
		t.Errorf("services client GET the ADS endpoint: err %v, want ErrBlockedAddress", err)
	}
}
