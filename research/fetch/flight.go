package fetch

import (
	"context"
	"sync"
)

// flightGroup coalesces concurrent calls with the same key into one
// execution (like x/sync/singleflight), so identical concurrent cached
// requests spend one unit of an API quota. It is safe for concurrent use.
type flightGroup struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done chan struct{}
	resp *Response // shared: callers must clone before handing out
	err  error
}

// do runs fn once per key at a time, in its own goroutine, and waits for its
// result or for ctx to end. fn runs to completion even if every waiter gives
// up, so fn must bound its own run time and must not depend on any one
// caller's cancellation.
func (g *flightGroup) do(ctx context.Context, key string, fn func() (*Response, error)) (*Response, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*flight{}
	}
	f, ok := g.m[key]
	if !ok {
		f = &flight{done: make(chan struct{})}
		g.m[key] = f
		go g.run(key, f, fn)
	}
	g.mu.Unlock()
	select {
	case <-f.done:
		return f.resp, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *flightGroup) run(key string, f *flight, fn func() (*Response, error)) {
	defer close(f.done)
	f.resp, f.err = fn()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
}
