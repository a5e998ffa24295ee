package handlers

import (
	"context"
	"strconv"
	"sync"
)

// versionedCache memoises values computed from the library, keyed by a
// string and valid for one library version (store.LibraryVersion, which
// every write to the library bumps). A lookup first reads the current
// version; entries of an older version are dropped then, so a value is
// never served once a write that could change it has committed.
// Concurrent misses for the same key and version share one computation.
// It holds at most max entries. Safe for concurrent use.
type versionedCache[V any] struct {
	max int

	mu      sync.Mutex
	version int64
	entries map[string]V
	flights map[string]*cacheFlight[V]
}

// cacheFlight is one computation others wait for.
type cacheFlight[V any] struct {
	done chan struct{}
	val  V
	err  error
}

func newVersionedCache[V any](max int) *versionedCache[V] {
	return &versionedCache[V]{max: max, entries: map[string]V{}, flights: map[string]*cacheFlight[V]{}}
}

// get returns the value for key at the library version that version
// reports, computing it with compute on a miss. version must be read
// before compute reads anything, so a value is never filed under a newer
// version than the data it was computed from. Errors are not cached.
func (c *versionedCache[V]) get(ctx context.Context, key string, version func(context.Context) (int64, error),
	compute func(context.Context) (V, error)) (V, error) {
	var zero V
	v, err := version(ctx)
	if err != nil {
		return zero, err
	}
	c.mu.Lock()
	if v > c.version {
		c.version, c.entries = v, map[string]V{}
	}
	if v < c.version { // read before a newer request moved the cache on: compute, do not file
		c.mu.Unlock()
		return compute(ctx)
	}
	if val, ok := c.entries[key]; ok {
		c.mu.Unlock()
		return val, nil
	}
	fkey := strconv.FormatInt(v, 10) + "\x00" + key // a flight serves its own version only
	if f, ok := c.flights[fkey]; ok {
		c.mu.Unlock()
		select {
		case <-f.done:
			return f.val, f.err
		case <-ctx.Done():
			return zero, ctx.Err()
		}
	}
	f := &cacheFlight[V]{done: make(chan struct{})}
	c.flights[fkey] = f
	c.mu.Unlock()

	f.val, f.err = compute(context.WithoutCancel(ctx))
	c.mu.Lock()
	delete(c.flights, fkey)
	if f.err == nil && c.version == v {
		if len(c.entries) >= c.max {
			for k := range c.entries { // drop one: any will do for a bounded cache of pages
				delete(c.entries, k)
				break
			}
		}
		c.entries[key] = f.val
	}
	c.mu.Unlock()
	close(f.done)
	return f.val, f.err
}
