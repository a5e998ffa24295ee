package fs

import (
	"container/list"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/textcut"
)

// Default bounds of a FileCache (docs/features.md C10).
const (
	DefaultCacheEntries = 100
	DefaultCacheBytes   = 25 << 20
)

// leadAgent is the agent name the cache uses for the main agent.
const leadAgent = "lead"

// Entry is one remembered read_file result: which file, which range, what
// the file looked like and what the model was shown.
type Entry struct {
	Session string
	// Agent is "lead" or a sub-agent name: sub-agents have contexts of
	// their own, so what the lead has seen says nothing about them.
	Agent string
	// Path is the display path ("workspace/notes.md").
	Path    string
	ModTime time.Time
	Size    int64
	// Offset and Limit are the request, normalised (offset ≥ 1).
	Offset, Limit int
	// FirstLine and LastLine are the lines shown (1-based, inclusive).
	FirstLine, LastLine int
	// Hash identifies Content.
	Hash [32]byte
	// Content is the output the model saw (line-numbered).
	Content string
	ReadAt  time.Time
}

type cacheKey struct{ session, agent, path string }

// FileCache remembers recent reads per session and agent so that reading
// an unchanged file range again returns a short stub (docs/features.md T1), and so that
// compaction can restore recently read files (C10). It is an LRU bounded
// by entry count and by the bytes of remembered content. Construct it once
// and share it between the tools; it is safe for concurrent use, and a nil
// *FileCache remembers nothing.
//
// Whoever drops content from a model's context (compaction, a sub-agent
// starting afresh under a reused name) must call Forget or ForgetAgent,
// or the model would get stubs for text it no longer has.
type FileCache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	ll    *list.List // of *Entry, most recent at the front
	idx   map[cacheKey]*list.Element
	bytes int64
}

// NewFileCache returns a cache bounded by maxEntries entries and maxBytes
// bytes of content; zero or negative values take the defaults (100 and
// 25 MB).
func NewFileCache(maxEntries int, maxBytes int64) *FileCache {
	if maxEntries <= 0 {
		maxEntries = DefaultCacheEntries
	}
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	return &FileCache{maxEntries: maxEntries, maxBytes: maxBytes, ll: list.New(), idx: map[cacheKey]*list.Element{}}
}

func normAgent(agent string) string {
	if agent == "" {
		return leadAgent
	}
	return agent
}

func entrySize(e *Entry) int64 {
	return int64(len(e.Content) + len(e.Path) + len(e.Session) + len(e.Agent))
}

// Lookup returns the last read of path by the agent in the session and
// marks it recently used.
func (c *FileCache) Lookup(session, agent, path string) (Entry, bool) {
	if c == nil {
		return Entry{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.idx[cacheKey{session, normAgent(agent), path}]
	if !ok {
		return Entry{}, false
	}
	c.ll.MoveToFront(el)
	return *el.Value.(*Entry), true
}

// Put remembers a read, replacing the previous one of the same file by the
// same agent, and evicts the least recently used entries beyond the bounds.
// An entry larger than the whole byte budget is not kept.
func (c *FileCache) Put(e Entry) {
	if c == nil {
		return
	}
	e.Agent = normAgent(e.Agent)
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey{e.Session, e.Agent, e.Path}
	if el, ok := c.idx[k]; ok {
		c.remove(el)
	}
	size := entrySize(&e)
	if size > c.maxBytes {
		return
	}
	c.idx[k] = c.ll.PushFront(&e)
	c.bytes += size
	for c.ll.Len() > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.ll.Back())
	}
}

func (c *FileCache) remove(el *list.Element) {
	e := c.ll.Remove(el).(*Entry)
	delete(c.idx, cacheKey{e.Session, e.Agent, e.Path})
	c.bytes -= entrySize(e)
}

// Invalidate forgets every agent's read of path in the session (after a
// write, so the next read shows the new text in full).
func (c *FileCache) Invalidate(session, path string) {
	c.removeIf(func(e *Entry) bool { return e.Session == session && e.Path == path })
}

// Forget drops every entry of the session, for all its agents (after the
// lead's context was compacted).
func (c *FileCache) Forget(session string) {
	c.removeIf(func(e *Entry) bool { return e.Session == session })
}

// ForgetAgent drops one agent's entries in the session (when a sub-agent
// starts with a fresh context).
func (c *FileCache) ForgetAgent(session, agent string) {
	agent = normAgent(agent)
	c.removeIf(func(e *Entry) bool { return e.Session == session && e.Agent == agent })
}

func (c *FileCache) removeIf(match func(*Entry) bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.ll.Front(); el != nil; {
		next := el.Next()
		if match(el.Value.(*Entry)) {
			c.remove(el)
		}
		el = next
	}
}

// Snapshot returns the lead agent's entries of the session, most recently
// used first, with Content cut to maxChars characters (maxChars ≤ 0 keeps
// it whole). Compaction takes it before compressing and restores the
// first few afterwards (C10).
func (c *FileCache) Snapshot(session string, maxChars int) []Entry {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Entry
	for el := c.ll.Front(); el != nil; el = el.Next() {
		e := *el.Value.(*Entry)
		if e.Session != session || e.Agent != leadAgent {
			continue
		}
		if maxChars > 0 && utf8.RuneCountInString(e.Content) > maxChars {
			e.Content = textcut.Prefix(e.Content, maxChars)
		}
		out = append(out, e)
	}
	return out
}

// Len returns the number of entries.
func (c *FileCache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Bytes returns the bytes the entries account for.
func (c *FileCache) Bytes() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
