package fs

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestFileCacheBounds(t *testing.T) {
	c := NewFileCache(3, 1000)
	put := func(session, path string, size int) {
		c.Put(Entry{Session: session, Path: path, Content: strings.Repeat("x", size)})
	}
	put("s", "a", 10)
	put("s", "b", 10)
	put("s", "c", 10)
	if _, ok := c.Lookup("s", "", "a"); !ok { // a becomes most recent
		t.Fatal("a missing")
	}
	put("s", "d", 10) // evicts b, the least recently used
	if _, ok := c.Lookup("s", "lead", "b"); ok || c.Len() != 3 {
		t.Fatalf("b not evicted (len %d)", c.Len())
	}
	put("s", "big", 900) // over the byte budget with the others: evict old ones
	if c.Bytes() > 1000 {
		t.Fatalf("bytes %d over budget", c.Bytes())
	}
	if _, ok := c.Lookup("s", "", "big"); !ok {
		t.Fatal("newest entry evicted")
	}
	put("s", "huge", 2000) // larger than the whole budget: not kept
	if _, ok := c.Lookup("s", "", "huge"); ok {
		t.Fatal("oversized entry kept")
	}
	// Replacing an entry keeps the accounting right.
	c2 := NewFileCache(0, 0)
	c2.Put(Entry{Session: "s", Path: "p", Content: "abc"})
	c2.Put(Entry{Session: "s", Path: "p", Content: "abcdef"})
	if c2.Len() != 1 || c2.Bytes() != int64(len("abcdef")+len("p")+len("s")+len("lead")) {
		t.Fatalf("len %d bytes %d", c2.Len(), c2.Bytes())
	}
}

func TestFileCacheSnapshotForget(t *testing.T) {
	c := NewFileCache(0, 0)
	for i := range 7 {
		c.Put(Entry{Session: "s1", Path: fmt.Sprintf("workspace/f%d.md", i), Content: fmt.Sprintf("content %d é", i)})
	}
	c.Put(Entry{Session: "s1", Agent: "sub_1", Path: "workspace/sub.md", Content: "sub"})
	c.Put(Entry{Session: "s2", Path: "workspace/other.md", Content: "other"})
	snap := c.Snapshot("s1", 10)
	if len(snap) != 7 || snap[0].Path != "workspace/f6.md" || snap[6].Path != "workspace/f0.md" {
		t.Fatalf("snapshot order: %+v", snap)
	}
	if snap[0].Content != "content 6 " {
		t.Fatalf("content not cut to 10 chars: %q", snap[0].Content)
	}
	if full := c.Snapshot("s1", 0); full[0].Content != "content 6 é" {
		t.Fatalf("maxChars 0 cut the content: %q", full[0].Content)
	}
	c.ForgetAgent("s1", "sub_1")
	if _, ok := c.Lookup("s1", "sub_1", "workspace/sub.md"); ok {
		t.Fatal("ForgetAgent kept the entry")
	}
	c.Invalidate("s1", "workspace/f3.md")
	if len(c.Snapshot("s1", 0)) != 6 {
		t.Fatal("Invalidate did not drop the entry")
	}
	c.Forget("s1")
	if len(c.Snapshot("s1", 0)) != 0 || c.Len() != 1 {
		t.Fatalf("Forget left %d entries", c.Len())
	}
	var nilCache *FileCache
	nilCache.Put(Entry{Session: "s"})
	if _, ok := nilCache.Lookup("s", "", ""); ok || nilCache.Snapshot("s", 1) != nil {
		t.Fatal("nil cache remembered something")
	}
}

func TestFileCacheConcurrent(t *testing.T) {
	c := NewFileCache(50, 4096)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				s := fmt.Sprintf("s%d", g%3)
				p := fmt.Sprintf("p%d", i%70)
				c.Put(Entry{Session: s, Path: p, Content: strings.Repeat("y", i%100)})
				c.Lookup(s, "", p)
				if i%50 == 0 {
					c.Snapshot(s, 5)
					c.Invalidate(s, p)
				}
				if i%200 == 0 {
					c.Forget(s)
				}
			}
		})
	}
	wg.Wait()
	if c.Len() > 50 || c.Bytes() > 4096 {
		t.Fatalf("bounds broken: %d entries, %d bytes", c.Len(), c.Bytes())
	}
}
