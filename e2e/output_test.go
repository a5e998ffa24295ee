package e2e

import (
	"fmt"
	"sync"
)

// tailBuffer is an io.Writer that keeps only the last limit bytes written
// to it, so a chatty process cannot exhaust memory. It is safe for
// concurrent use.
type tailBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte
	dropped int64 // bytes discarded from the front
}

func newTailBuffer(limit int) *tailBuffer {
	return &tailBuffer{limit: limit}
}

// Write appends p, discarding the oldest bytes beyond the limit. It never
// fails.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	// Compact only when twice over the limit, so writes stay amortised O(1).
	if over := len(b.buf) - b.limit; over > b.limit {
		b.buf = append(b.buf[:0], b.buf[over:]...)
		b.dropped += int64(over)
	}
	return len(p), nil
}

// String returns the kept output, noting how much was dropped.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped == 0 {
		return string(b.buf)
	}
	return fmt.Sprintf("[... %d earlier bytes dropped ...]\n%s", b.dropped, b.buf)
}
