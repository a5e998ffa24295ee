// Package flight coalesces concurrent calls with the same key into one
// execution, like golang.org/x/sync/singleflight but with a context for
// each waiter. The outbound HTTP cache (research/fetch) and the library
// page cache (handlers) share it.
package flight

import (
	"context"
	"sync"
)

// Group runs one call per key at a time. The zero value is ready to use.
// Safe for concurrent use.
type Group[V any] struct {
	mu sync.Mutex
	m  map[string]*call[V]
}

type call[V any] struct {
	done chan struct{}
	val  V // shared by every waiter: callers must not mutate it
	err  error
}

// Do runs fn once per key at a time, in its own goroutine, and waits for
// its result or for ctx to end; a caller whose ctx has already ended starts
// no run. A caller arriving while fn runs for the same key waits for that
// run instead of starting another. fn runs to completion even if every
// waiter gives up, so fn must bound its own run time and must not depend on
// any one caller's cancellation.
func (g *Group[V]) Do(ctx context.Context, key string, fn func() (V, error)) (V, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*call[V]{}
	}
	c, ok := g.m[key]
	if !ok {
		if err := ctx.Err(); err != nil {
			// A caller that has already given up starts nothing: the run
			// would spend work (an API quota) nobody waits for.
			g.mu.Unlock()
			var zero V
			return zero, err
		}
		c = &call[V]{done: make(chan struct{})}
		g.m[key] = c
		go g.run(key, c, fn)
	}
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.val, c.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

func (g *Group[V]) run(key string, c *call[V], fn func() (V, error)) {
	defer close(c.done)
	c.val, c.err = fn()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}
