package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/astroresearch/astroresearch/store/storetest"
)

func TestVersionedCache(t *testing.T) {
	ctx := context.Background()
	c := newVersionedCache[string](2)
	var version atomic.Int64
	ver := func(context.Context) (int64, error) { return version.Load(), nil }
	var computed atomic.Int32
	compute := func(val string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { computed.Add(1); return val, nil }
	}
	if v, _ := c.get(ctx, "a", ver, compute("a0")); v != "a0" {
		t.Fatal(v)
	}
	if v, _ := c.get(ctx, "a", ver, compute("other")); v != "a0" || computed.Load() != 1 {
		t.Fatalf("hit: %q after %d computations", v, computed.Load())
	}
	// A write bumps the version: the next lookup computes afresh.
	version.Add(1)
	if v, _ := c.get(ctx, "a", ver, compute("a1")); v != "a1" {
		t.Fatalf("after a write: %q", v)
	}
	// A lookup that read an older version computes but files nothing.
	old := func(context.Context) (int64, error) { return 0, nil }
	if v, _ := c.get(ctx, "a", old, compute("stale")); v != "stale" {
		t.Fatal(v)
	}
	if v, _ := c.get(ctx, "a", ver, compute("x")); v != "a1" {
		t.Fatalf("an old-version value was filed: %q", v)
	}
	// Errors are not cached; the size is bounded.
	boom := errors.New("boom")
	if _, err := c.get(ctx, "e", ver, func(context.Context) (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if v, _ := c.get(ctx, "e", ver, compute("e1")); v != "e1" {
		t.Fatalf("error cached: %q", v)
	}
	c.get(ctx, "f", ver, compute("f1"))
	if len(c.entries) > 2 {
		t.Fatalf("%d entries, max 2", len(c.entries))
	}
	// Version errors are returned.
	if _, err := c.get(ctx, "a", func(context.Context) (int64, error) { return 0, boom }, compute("x")); !errors.Is(err, boom) {
		t.Fatal(err)
	}
}

func TestVersionedCacheSharesConcurrentMisses(t *testing.T) {
	ctx := context.Background()
	c := newVersionedCache[int](8)
	ver := func(context.Context) (int64, error) { return 7, nil }
	var computed atomic.Int32
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var wg sync.WaitGroup
		results := make([]int, 32)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := c.get(ctx, "k", ver, func(context.Context) (int, error) {
					computed.Add(1)
					<-release
					return 42, nil
				})
				if err != nil {
					t.Error(err)
				}
				results[i] = v
			}()
		}
		synctest.Wait() // every caller now waits on the one computation
		close(release)
		wg.Wait()
		for _, r := range results {
			if r != 42 {
				t.Fatalf("results %v", results)
			}
		}
	})
	if n := computed.Load(); n != 1 {
		t.Fatalf("%d computations for one key, want 1", n)
	}
	// A waiter whose context ends stops waiting.
	block := make(chan struct{})
	defer close(block)
	inFlight := make(chan struct{})
	go c.get(ctx, "slow", ver, func(context.Context) (int, error) { close(inFlight); <-block; return 1, nil })
	<-inFlight // the flight exists before compute runs
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.get(cctx, "slow", ver, func(context.Context) (int, error) { return 2, nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
}

// The cached list never shows stale data: each kind of write is visible
// on the very next page load.
func TestLibraryListCacheNeverStale(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	seedPapers(t, a, 3)
	first := c.get("/library")
	if rows(first.body) != 3 {
		t.Fatal("seeded list")
	}
	expectContains(t, "cached again", c.get("/library").body, "3 papers")
	// Import through the form.
	id := importPaper(t, c)
	expectContains(t, "after import", c.get("/library").body, "4 papers", "Cold gas in ultra-faint dwarf galaxies")
	// Tag edit.
	expectStatus(t, "tag", c.postForm("/library/"+id+"/tags", url.Values{"tags": {"dwarfs"}}), 303)
	if n := rows(c.get("/library?tag=dwarfs").body); n != 1 {
		t.Fatalf("tag filter after a tag edit: %d rows", n)
	}
	expectStatus(t, "untag", c.postForm("/library/"+id+"/tags/remove", url.Values{"tag": {"dwarfs"}}), 303)
	if n := rows(c.get("/library?tag=dwarfs").body); n != 0 {
		t.Fatalf("tag filter after removing the tag: %d rows", n)
	}
	// Download status (written by the downloader, not a handler).
	expectContains(t, "before status", c.get("/library?status=failed").body, "No paper in the library matches.")
	storetest.Exec(t, a.store, `UPDATE papers SET download_status = 'failed' WHERE id = ?`, id)
	if n := rows(c.get("/library?status=failed").body); n != 1 {
		t.Fatalf("status filter after a status change: %d rows", n)
	}
	// A metadata change and a delete, straight in SQL.
	storetest.Exec(t, a.store, `UPDATE papers SET title = 'Renamed paper' WHERE id = ?`, id)
	expectContains(t, "after rename", c.get("/library").body, "Renamed paper")
	storetest.Exec(t, a.store, `DELETE FROM papers WHERE id = ?`, id)
	body := c.get("/library").body
	expectContains(t, "after delete", body, "3 papers")
	expectLacks(t, "after delete", body, "Renamed paper", fmt.Sprintf(`href="/library/%s"`, id))
}
