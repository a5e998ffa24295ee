package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer answers "n=<hit number>" with the given status.
func countingServer(t *testing.T, status int) *fakeServer {
	t.Helper()
	var n atomic.Int64
	return newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, "n=%d auth=%s", n.Add(1), r.Header.Get("Authorization"))
	})
}

func TestCacheHitMissTTL(t *testing.T) {
	srv := countingServer(t, http.StatusOK)
	clk := newFakeClock(true)
	opt := testOptions(srv.URL)
	opt.Now = clk.Now
	c := New(opt)
	get := func(opts ...Option) *Response {
		t.Helper()
		r, err := c.Get(t.Context(), srv.URL+"/q?x=1", opts...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1 := get(WithCache(time.Minute))
	r1.Body[0] = 'X' // callers own their copy
	r2 := get(WithCache(time.Minute))
	if r1.Cached || !r2.Cached || string(r2.Body) != "n=1 auth=" {
		t.Fatalf("first cached %v, second cached %v body %q", r1.Cached, r2.Cached, r2.Body)
	}
	if r := get(); r.Cached || string(r.Body) != "n=2 auth=" {
		t.Fatalf("call without WithCache: cached %v body %q", r.Cached, r.Body)
	}
	clk.Add(time.Minute)
	if r := get(WithCache(time.Minute)); r.Cached || string(r.Body) != "n=3 auth=" {
		t.Fatalf("after TTL: cached %v body %q", r.Cached, r.Body)
	}
	if r := get(WithCache(time.Minute)); !r.Cached || string(r.Body) != "n=3 auth=" {
		t.Fatalf("refreshed entry: cached %v body %q", r.Cached, r.Body)
	}
	if srv.hits.Load() != 3 {
		t.Fatalf("server hits = %d, want 3", srv.hits.Load())
	}
}

func TestCacheKeyIncludesHeaders(t *testing.T) {
	srv := countingServer(t, http.StatusOK)
	c := New(testOptions(srv.URL))
	get := func(token string) *Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		r, err := c.Do(t.Context(), req, WithCache(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b, a2 := get("alice"), get("bob"), get("alice")
	if !strings.Contains(string(a.Body), "alice") || !strings.Contains(string(b.Body), "bob") || !a2.Cached || string(a2.Body) != string(a.Body) {
		t.Fatalf("bodies %q %q %q (third cached %v)", a.Body, b.Body, a2.Body, a2.Cached)
	}
}

func TestCacheOnlyStoresOK(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusNoContent} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := countingServer(t, status)
			c := New(testOptions(srv.URL))
			for range 2 {
				r, err := c.Get(t.Context(), srv.URL, WithCache(time.Hour))
				if err != nil || r.Status != status || r.Cached {
					t.Fatalf("got %v, %v", r, err)
				}
			}
			if srv.hits.Load() != 2 {
				t.Fatalf("hits = %d, want 2", srv.hits.Load())
			}
		})
	}
}

func TestCachePerCallerChecks(t *testing.T) {
	srv := countingServer(t, http.StatusOK)
	c := New(testOptions(srv.URL))
	if _, err := c.Get(t.Context(), srv.URL, WithCache(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), srv.URL, WithCache(time.Hour), WithMaxBytes(3)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("smaller cap on a cached body: err = %v, want ErrTooLarge", err)
	}
	if _, err := c.Get(t.Context(), srv.URL, WithCache(time.Hour), WithExpectType("application/pdf")); !errors.Is(err, ErrUnexpectedType) {
		t.Fatalf("type check on a cached body: err = %v, want ErrUnexpectedType", err)
	}
	if srv.hits.Load() != 1 {
		t.Fatalf("hits = %d, want 1", srv.hits.Load())
	}
}

// TestCacheCoalescesConcurrent: concurrent identical cached calls spend one
// request between them, whether they join the request in flight or arrive
// after it filled the cache.
func TestCacheCoalescesConcurrent(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		fmt.Fprint(w, "quota-spending answer")
	})
	c := New(testOptions(srv.URL))
	const callers = 8
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		wg.Go(func() {
			r, err := c.Get(t.Context(), srv.URL+"/search", WithCache(time.Hour))
			if err == nil && string(r.Body) != "quota-spending answer" {
				err = fmt.Errorf("body %q", r.Body)
			}
			errs <- err
		})
	}
	<-entered
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if srv.hits.Load() != 1 {
		t.Fatalf("hits = %d, want 1", srv.hits.Load())
	}
}

// TestCacheLeaderGivesUp: the caller whose request is in flight leaving does
// not waste the request: its answer still reaches the cache.
func TestCacheLeaderGivesUp(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		fmt.Fprint(w, "answer")
	})
	c := New(testOptions(srv.URL))
	ctx, cancel := context.WithCancel(t.Context())
	leader := make(chan error, 1)
	go func() {
		_, err := c.Get(ctx, srv.URL, WithCache(time.Hour))
		leader <- err
	}()
	<-entered
	cancel()
	if err := <-leader; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader err = %v, want Canceled", err)
	}
	close(release)
	r, err := c.Get(t.Context(), srv.URL, WithCache(time.Hour))
	if err != nil || string(r.Body) != "answer" {
		t.Fatalf("got %v, %v", r, err)
	}
	if srv.hits.Load() != 1 {
		t.Fatalf("hits = %d, want 1", srv.hits.Load())
	}
}

func TestCacheBounds(t *testing.T) {
	now := time.Now()
	resp := func(n int) *Response { return &Response{Status: 200, Body: make([]byte, n), Header: http.Header{}} }
	t.Run("entries LRU", func(t *testing.T) {
		c := newCache(2, 1<<20)
		c.put("a", resp(1), now.Add(time.Hour))
		c.put("b", resp(1), now.Add(time.Hour))
		c.get("a", now) // a is now most recent
		c.put("c", resp(1), now.Add(time.Hour))
		if _, ok := c.get("b", now); ok {
			t.Error("least recently used entry b kept")
		}
		for _, k := range []string{"a", "c"} {
			if _, ok := c.get(k, now); !ok {
				t.Errorf("entry %s evicted", k)
			}
		}
	})
	t.Run("bytes", func(t *testing.T) {
		c := newCache(100, 4000)
		for i := range 10 {
			c.put(fmt.Sprint(i), resp(700), now.Add(time.Hour))
		}
		if c.bytes > 4000 || c.lru.Len() != len(c.items) {
			t.Errorf("bytes %d, lru %d, items %d", c.bytes, c.lru.Len(), len(c.items))
		}
		c.put("big", resp(2000), now.Add(time.Hour)) // over a quarter of the budget
		if _, ok := c.get("big", now); ok {
			t.Error("oversized entry stored")
		}
	})
	t.Run("expiry", func(t *testing.T) {
		c := newCache(10, 1<<20)
		c.put("a", resp(1), now.Add(time.Second))
		if _, ok := c.get("a", now.Add(time.Second)); ok {
			t.Error("expired entry served")
		}
		if c.lru.Len() != 0 || c.bytes != 0 {
			t.Errorf("expired entry not removed: %d entries, %d bytes", c.lru.Len(), c.bytes)
		}
	})
}
