package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestHostLimitsSequential(t *testing.T) {
	tests := []struct {
		name    string
		perHost map[string]rate.Limit
		def     rate.Limit
		hosts   []string
		want    []time.Duration
	}{
		{"arXiv one per 3s", DefaultPerHost(), 2, []string{"export.arxiv.org", "export.arxiv.org", "export.arxiv.org"},
			[]time.Duration{3 * time.Second, 3 * time.Second}},
		{"ADS 5 per second", DefaultPerHost(), 2, []string{"api.adsabs.harvard.edu", "api.adsabs.harvard.edu"},
			[]time.Duration{200 * time.Millisecond}},
		{"host names fold case and trailing dot", DefaultPerHost(), 2, []string{"Export.ArXiv.org.", "export.arxiv.org"},
			[]time.Duration{3 * time.Second}},
		{"default rate", nil, 2, []string{"example.org", "example.org"}, []time.Duration{500 * time.Millisecond}},
		{"hosts are independent", nil, 1, []string{"a.example", "b.example", "c.example"}, nil},
		{"unlimited", nil, rate.Inf, []string{"x.example", "x.example", "x.example"}, nil},
		{"non-positive per-host value means default", map[string]rate.Limit{"x.example": 0}, 4,
			[]string{"x.example", "x.example"}, []time.Duration{250 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newFakeClock(true)
			opt := Options{PerHost: tt.perHost, DefaultRate: tt.def, Now: clk.Now, Sleep: clk.Sleep}.withDefaults()
			h := newHostLimits(opt)
			for _, host := range tt.hosts {
				if err := h.wait(t.Context(), host); err != nil {
					t.Fatal(err)
				}
			}
			if got := clk.Sleeps(); !slices.Equal(got, tt.want) {
				t.Fatalf("sleeps = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHostLimitsConcurrentOrdering: concurrent callers get successive slots
// of the bucket — none share a slot, none is starved.
func TestHostLimitsConcurrentOrdering(t *testing.T) {
	clk := newFakeClock(false) // the clock stands still: each wait is its slot
	h := newHostLimits(Options{DefaultRate: 1, Now: clk.Now, Sleep: clk.Sleep}.withDefaults())
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := h.wait(t.Context(), "ads.example"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got := clk.Sleeps()
	slices.Sort(got)
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("sleeps = %v, want %v", got, want)
	}
}

func TestHostLimitsDeadlineAndCancel(t *testing.T) {
	clk := newFakeClock(true)
	h := newHostLimits(Options{DefaultRate: rate.Every(3 * time.Second), Now: clk.Now, Sleep: clk.Sleep}.withDefaults())
	if err := h.wait(t.Context(), "x.example"); err != nil {
		t.Fatal(err)
	}
	// A deadline closer than the wait fails at once, without sleeping.
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if err := h.wait(ctx, "x.example"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	// A cancelled wait fails too.
	cctx, ccancel := context.WithCancel(t.Context())
	ccancel()
	if err := h.wait(cctx, "x.example"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want Canceled", err)
	}
	// Both gave their slot back: the next caller waits one interval, not three.
	if err := h.wait(t.Context(), "x.example"); err != nil {
		t.Fatal(err)
	}
	if got, want := clk.Sleeps(), []time.Duration{3 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("sleeps = %v, want %v", got, want)
	}
}

func TestHostLimitsSweep(t *testing.T) {
	clk := newFakeClock(true)
	h := newHostLimits(Options{DefaultRate: 1, Now: clk.Now, Sleep: clk.Sleep}.withDefaults())
	for i := range maxIdleLimiters + 10 {
		if err := h.wait(t.Context(), fmt.Sprintf("h%d.example", i)); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Second) // every earlier bucket refills
	}
	if n := len(h.limiters); n > maxIdleLimiters {
		t.Fatalf("%d limiters kept, want at most %d", n, maxIdleLimiters)
	}
}

// TestClientRateLimited: the limit applies per request sent, redirects
// included, through the Client.
func TestClientRateLimited(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/", http.StatusFound)
		}
	})
	clk := newFakeClock(true)
	opt := testOptions(srv.URL)
	opt.PerHost = map[string]rate.Limit{"127.0.0.1": rate.Every(time.Second)}
	opt.Now, opt.Sleep = clk.Now, clk.Sleep
	c := New(opt)
	for _, path := range []string{"/", "/", "/redirect"} {
		if _, err := c.Get(t.Context(), srv.URL+path); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := clk.Sleeps(), []time.Duration{time.Second, time.Second, time.Second}; !slices.Equal(got, want) {
		t.Fatalf("sleeps = %v, want %v", got, want)
	}
	if srv.hits.Load() != 4 {
		t.Fatalf("hits = %d, want 4", srv.hits.Load())
	}
}
