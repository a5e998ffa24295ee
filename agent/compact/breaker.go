package compact

import (
	"sync"
	"time"
)

// Circuit breaker parameters of docs/features.md C9.
const (
	// BreakerThreshold is how many consecutive failures open the breaker.
	BreakerThreshold = 3
	// BreakerCooldown is how long the breaker stays open before it lets
	// one attempt through (half-open).
	BreakerCooldown = 300 * time.Second
)

// State is the state of a Breaker.
type State int

// Breaker states.
const (
	Closed   State = iota // compaction runs
	Open                  // compaction is skipped until the cooldown ends
	HalfOpen              // one trial compaction may run
)

func (s State) String() string {
	switch s {
	case Open:
		return "open"
	case HalfOpen:
		return "half-open"
	}
	return "closed"
}

// Breaker guards automatic compaction (docs/features.md C9): BreakerThreshold
// consecutive failures (a compaction that errored or did not reduce the
// message count) open it; after BreakerCooldown it is half-open and lets
// one attempt through, whose success closes it and whose failure opens it
// again. It also holds the recursion guard (Enter). Keep one per session:
// the cooldown spans turns. Safe for concurrent use.
type Breaker struct {
	now func() time.Time

	mu       sync.Mutex
	state    State
	failures int       // consecutive failures while closed
	openedAt time.Time // when it last opened
	probing  bool      // half-open: the one attempt is out
	inside   bool      // a compaction holds the recursion guard
}

// NewBreaker returns a closed breaker reading time from now (nil:
// time.Now).
func NewBreaker(now func() time.Time) *Breaker {
	if now == nil {
		now = time.Now
	}
	return &Breaker{now: now}
}

// settle moves an open breaker whose cooldown is over to half-open.
// b.mu must be held.
func (b *Breaker) settle() {
	if b.state == Open && b.now().Sub(b.openedAt) >= BreakerCooldown {
		b.state, b.probing = HalfOpen, false
	}
}

// State returns the current state.
func (b *Breaker) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	return b.state
}

// Allow reports whether an automatic compaction may run now: always when
// closed, never when open, and once when half-open (until Record). Every
// true answer must be followed by Record.
func (b *Breaker) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	switch b.state {
	case Closed:
		return true
	case HalfOpen:
		if b.probing {
			return false
		}
		b.probing = true
		return true
	}
	return false
}

// Record reports the outcome of an allowed compaction: success (it reduced
// the message count) closes the breaker and clears the failure count; a
// failure counts towards opening it, or reopens a half-open breaker.
func (b *Breaker) Record(success bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	b.probing = false
	if success {
		b.state, b.failures = Closed, 0
		return
	}
	switch b.state {
	case Closed:
		b.failures++
		if b.failures >= BreakerThreshold {
			b.state, b.openedAt = Open, b.now()
		}
	case HalfOpen:
		b.state, b.openedAt = Open, b.now()
	}
}

// abandon gives back an allowed attempt that ended without an outcome (its
// context was cancelled): a half-open breaker may try again.
func (b *Breaker) abandon() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
}

// Reset closes the breaker and clears its failures; a manual compaction
// (compress_context) does this. The recursion guard is not affected.
func (b *Breaker) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state, b.failures, b.probing = Closed, 0, false
}

// Enter takes the recursion guard: ok is false while another compaction
// holds it (compaction cannot run inside compaction). Call release, once
// or more, when done.
func (b *Breaker) Enter() (release func(), ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inside {
		return func() {}, false
	}
	b.inside = true
	return sync.OnceFunc(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.inside = false
	}), true
}
