package rag

import "sync"

// progressCache keeps the last computed Progress until the indexing state
// changes. Every function of this package that writes rag_documents calls
// changed (deferred, so after its commit); Progress then recomputes. The
// library page shows progress on every load, and without the cache that
// GROUP BY was a third of the page's cost. Safe for concurrent use.
type progressCache struct {
	mu    sync.Mutex
	gen   uint64 // bumped by changed
	valid bool
	at    uint64 // the gen p was computed at
	p     Progress
}

// changed records that rag_documents was written.
func (c *progressCache) changed() {
	c.mu.Lock()
	c.gen++
	c.mu.Unlock()
}

// get returns the cached progress when nothing changed since it was
// computed, and the current generation to pass to put otherwise.
func (c *progressCache) get() (p Progress, gen uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.p, c.gen, c.valid && c.at == c.gen
}

// put stores p computed at generation gen (read before the query began:
// a write that commits meanwhile bumps gen, so p is not served as current).
func (c *progressCache) put(p Progress, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen >= c.at {
		c.p, c.at, c.valid = p, gen, true
	}
}
