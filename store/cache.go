package store

import "sync"

// cache is a small concurrency-safe map with a size bound: when full it is
// emptied rather than evicting one entry at a time (the data is always
// re-readable from the database, so a cold start costs only queries).
type cache[K comparable, V any] struct {
	mu  sync.RWMutex
	max int
	m   map[K]V
}

func newCache[K comparable, V any](max int) cache[K, V] {
	return cache[K, V]{max: max, m: make(map[K]V)}
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}

func (c *cache[K, V]) drop(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

func (c *cache[K, V]) dropIf(match func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range c.m {
		if match(k, v) {
			delete(c.m, k)
		}
	}
}
