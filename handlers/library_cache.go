package handlers

import (
	"context"
	"strconv"
	"sync"

	"github.com/astroresearch/astroresearch/internal/flight"
)

// versionedCache memoises values computed from the library, keyed by a
// string and valid for one library version (store.LibraryVersion, which
// every write to the library bumps). A lookup first reads the current
// version; entries of an older version are dropped then, so a value is
// never served once a write that could change it has committed.
// Concurrent misses for the same key and version share one computation
// (a flight.Group; a miss arriving just as it finishes may run another).
// It holds at most max entries. Safe for concurrent use.
type versionedCache[V any] struct {
	max int

	mu      sync.Mutex
	version int64
	entries map[string]V
	flights flight.Group[V]
}

func newVersionedCache[V any](max int) *versionedCache[V] {
	return &versionedCache[V]{max: max, entries: map[string]V{}}
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
	c.mu.Unlock()
	fkey := strconv.FormatInt(v, 10) + "\x00" + key // a flight serves its own version only
	return c.flights.Do(ctx, fkey, func() (V, error) {
		val, err := compute(context.WithoutCancel(ctx))
		if err == nil {
			c.file(v, key, val)
		}
		return val, err
	})
}

// file keeps val for key, unless the cache has moved to a newer version
// while it was computed.
func (c *versionedCache[V]) file(v int64, key string, val V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != v {
		return
	}
	if len(c.entries) >= c.max {
		for k := range c.entries { // drop one: any will do for a bounded cache of pages
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = val
}
