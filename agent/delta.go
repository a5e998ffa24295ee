package agent

import (
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// Streamed text is coalesced into events of at most this size and age, so
// a fast model does not write one database row per token, while a slow
// one still shows its words within deltaMaxAge.
const (
	deltaMaxChars = 512
	deltaMaxAge   = 50 * time.Millisecond
)

// deltaBuffer coalesces consecutive deltas of one kind. A timer flushes
// text that waits longer than deltaMaxAge (a model pausing mid-sentence).
// Safe for concurrent use; emit is called with the buffer locked, so events
// keep their order.
type deltaBuffer struct {
	emit  func(Kind, string)
	mu    sync.Mutex
	kind  Kind
	buf   strings.Builder
	timer *time.Timer
}

func newDeltaBuffer(emit func(Kind, string)) *deltaBuffer { return &deltaBuffer{emit: emit} }

func (b *deltaBuffer) add(d llm.Delta) {
	if d.Text == "" {
		return
	}
	kind := KindTextDelta
	if d.Kind == llm.DeltaThinking {
		kind = KindThought
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 0 && kind != b.kind {
		b.flushLocked()
	}
	if b.buf.Len() == 0 {
		b.kind = kind
		b.timer = time.AfterFunc(deltaMaxAge, b.flush)
	}
	b.buf.WriteString(d.Text)
	if b.buf.Len() >= deltaMaxChars {
		b.flushLocked()
	}
}

// flush emits whatever is buffered.
func (b *deltaBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *deltaBuffer) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if b.buf.Len() == 0 {
		return
	}
	b.emit(b.kind, b.buf.String())
	b.buf.Reset()
}
