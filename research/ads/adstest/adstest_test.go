package adstest

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/fetch"
)

// The fake answers the real ADS client as ADS would.
func TestFakeWithTheRealClient(t *testing.T) {
	srv := NewServer(t, "tok")
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	c := ads.New(srv.URL+"/v1", "tok", web)
	ctx := context.Background()
	if d, err := c.Lookup(ctx, "2019ApJ...875L...1E"); err != nil || d.ArxivID != "1906.11238" {
		t.Fatalf("lookup: %+v %v", d, err)
	}
	if d, err := c.Lookup(ctx, "arXiv:2401.01234"); err != nil || d.Bibcode != "2024ApJ...961...12F" {
		t.Fatalf("lookup by arXiv id: %+v %v", d, err)
	}
	if _, err := c.Lookup(ctx, "2402.99999"); !errors.Is(err, ads.ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	if r, err := c.Citations(ctx, "2019ApJ...875L...1E", 200, 0); err != nil || r.NumFound != 4637 || len(r.Docs) != 2 {
		t.Fatalf("citations: %+v %v", r, err)
	}
	if r, err := c.References(ctx, "2019ApJ...875L...1E", 200, 0); err != nil || r.NumFound != 3 || len(r.Docs) != 3 {
		t.Fatalf("references: %+v %v", r, err)
	}
	if _, err := c.Citations(ctx, FailingBibcode, 10, 0); !errors.Is(err, ads.ErrServer) {
		t.Fatalf("failing: %v", err)
	}
	if _, err := c.Citations(ctx, LimitedBibcode, 10, 0); !errors.Is(err, ads.ErrRateLimited) {
		t.Fatalf("limited: %v", err)
	}
	if _, err := ads.New(srv.URL+"/v1", "wrong", web).Citations(ctx, "2019ApJ...875L...1E", 10, 0); !errors.Is(err, ads.ErrUnauthorized) {
		t.Fatalf("bad token: %v", err)
	}
}
