package fetch

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"sync"
	"time"
)

// cache is an LRU of responses bounded by entry count and bytes, with a TTL
// per entry. It is safe for concurrent use.
type cache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	bytes int64
	lru   *list.List // of *cacheEntry, most recent first
	items map[string]*list.Element
}

type cacheEntry struct {
	key     string
	resp    *Response
	expires time.Time
	size    int64
}

func newCache(maxEntries int, maxBytes int64) *cache {
	return &cache{maxEntries: maxEntries, maxBytes: maxBytes, lru: list.New(), items: map[string]*list.Element{}}
}

// get returns a copy of the live entry for key.
func (c *cache) get(key string, now time.Time) (*Response, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !now.Before(e.expires) {
		c.remove(el)
		return nil, false
	}
	c.lru.MoveToFront(el)
	r := e.resp.clone()
	r.Cached = true
	return r, true
}

// put stores a copy of r until expires, evicting least recently used
// entries to stay within bounds. A response bigger than a quarter of the
// byte budget is not stored, so one download cannot flush the cache.
func (c *cache) put(key string, r *Response, expires time.Time) {
	size := responseSize(r)
	if size > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	e := &cacheEntry{key: key, resp: r.clone(), expires: expires, size: size}
	c.items[key] = c.lru.PushFront(e)
	c.bytes += size
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
}

func (c *cache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*cacheEntry)
	delete(c.items, e.key)
	c.bytes -= e.size
}

// responseSize approximates the memory a cached response holds.
func responseSize(r *Response) int64 {
	n := int64(len(r.Body)) + 256
	for k, vs := range r.Header {
		n += int64(len(k))
		for _, v := range vs {
			n += int64(len(v))
		}
	}
	return n
}

// cacheKey identifies a request for caching: a hash of method, URL and every
// request header, so that callers with different credentials (Authorization)
// or negotiation headers never share an entry, and no token sits in memory
// in the clear.
func cacheKey(req *http.Request) string {
	h := sha256.New()
	h.Write([]byte(req.Method + " " + req.URL.String() + "\n"))
	keys := make([]string, 0, len(req.Header))
	for k := range req.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range req.Header[k] {
			h.Write([]byte(k + ": " + v + "\n"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
