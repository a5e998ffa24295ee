package shell

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// capture keeps the first and the last bytes written to it and counts the
// rest, so a command printing gigabytes costs a fixed amount of memory.
// It is safe for concurrent use.
type capture struct {
	mu    sync.Mutex
	head  []byte // the first headCap bytes, appended until full
	tail  []byte // ring buffer of the last bytes after head, len == tailCap
	next  int    // where the next tail byte goes in the ring
	full  bool   // the ring has wrapped at least once
	total int64  // every byte written
	hcap  int
}

// newCapture keeps about limit bytes: half from the start, half from the end.
func newCapture(limit int) *capture {
	limit = max(limit, 2)
	h := limit / 2
	return &capture{head: make([]byte, 0, h), tail: make([]byte, limit-h), hcap: h}
}

// Write implements io.Writer; it never fails.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.total += int64(n)
	if room := c.hcap - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= len(c.tail) {
		copy(c.tail, p[len(p)-len(c.tail):])
		c.next, c.full = 0, true
		return n, nil
	}
	for len(p) > 0 {
		k := copy(c.tail[c.next:], p)
		p = p[k:]
		c.next += k
		if c.next == len(c.tail) {
			c.next, c.full = 0, true
		}
	}
	return n, nil
}

// Total is the number of bytes written so far.
func (c *capture) Total() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// String returns the kept text as valid UTF-8 and whether anything was
// dropped; the dropped middle is replaced by "[... N bytes omitted ...]",
// N counting the bytes of runes cut at the seams too.
func (c *capture) String() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var tail []byte
	if c.full {
		tail = append(append(tail, c.tail[c.next:]...), c.tail[:c.next]...)
	} else {
		tail = append(tail, c.tail[:c.next]...)
	}
	kept := int64(len(c.head) + len(tail))
	if kept == c.total {
		return strings.ToValidUTF8(string(c.head)+string(tail), "\uFFFD"), false
	}
	head := trimPartialEnd(c.head)
	tail = trimPartialStart(tail)
	omitted := c.total - int64(len(head)+len(tail))
	return strings.ToValidUTF8(string(head), "\uFFFD") +
		fmt.Sprintf("\n[... %d bytes omitted ...]\n", omitted) +
		strings.ToValidUTF8(string(tail), "\uFFFD"), true
}

// trimPartialEnd drops an incomplete UTF-8 sequence at the end of b.
func trimPartialEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// trimPartialStart drops continuation bytes at the start of b (the rest of
// a rune whose first bytes were omitted).
func trimPartialStart(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return b
}
