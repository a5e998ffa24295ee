package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// fakeServer is an httptest server on loopback counting the requests it
// receives.
type fakeServer struct {
	*httptest.Server
	hits atomic.Int64
}

func newFakeServer(t *testing.T, h http.HandlerFunc) *fakeServer {
	t.Helper()
	fs := &fakeServer{}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(fs.Close)
	return fs
}

// port returns the server's port as a string.
func (fs *fakeServer) port() string {
	return fmt.Sprint(fs.Listener.Addr().(interface{ AddrPort() netip.AddrPort }).AddrPort().Port())
}

// testOptions is Options without rate limits, the usual set-up for fakes.
func testOptions(allow ...string) Options {
	return Options{Allow: allow, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}}
}

// staticResolver answers host names from a table and fails for the rest, so
// no test reaches real DNS.
func staticResolver(table map[string][]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, s := range table[host] {
			out = append(out, netip.MustParseAddr(s))
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no such host %q", host)
		}
		return out, nil
	}
}

// fakeClock is a manual clock whose Sleep records the duration and, when
// advance is set, moves the clock forward by it.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	advance bool
	sleeps  []time.Duration
}

func newFakeClock(advance bool) *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), advance: advance}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	if c.advance {
		c.now = c.now.Add(d)
	}
	return nil
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
