package compact

import (
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTestBreaker() (*Breaker, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return NewBreaker(c.now), c
}

func fail(t *testing.T, b *Breaker, n int) {
	t.Helper()
	for range n {
		if !b.Allow() {
			t.Fatalf("not allowed in state %v", b.State())
		}
		b.Record(false)
	}
}

func TestBreakerOpensAfterThreeConsecutiveFailures(t *testing.T) {
	b, _ := newTestBreaker()
	fail(t, b, 2)
	b.Allow()
	b.Record(true) // a success in between resets the count
	fail(t, b, 2)
	if b.State() != Closed {
		t.Fatalf("state %v after 2 failures", b.State())
	}
	fail(t, b, 1)
	if b.State() != Open || b.Allow() {
		t.Fatalf("state %v after 3 failures", b.State())
	}
}

func TestBreakerHalfOpen(t *testing.T) {
	b, clock := newTestBreaker()
	fail(t, b, 3)
	clock.advance(BreakerCooldown - time.Second)
	if b.Allow() {
		t.Fatal("allowed before the cooldown")
	}
	clock.advance(time.Second)
	if b.State() != HalfOpen {
		t.Fatalf("state %v after the cooldown", b.State())
	}
	if !b.Allow() || b.Allow() {
		t.Fatal("half-open must allow exactly one attempt")
	}
	b.Record(false)
	if b.State() != Open || b.Allow() {
		t.Fatalf("failed trial: state %v", b.State())
	}
	clock.advance(BreakerCooldown)
	if !b.Allow() {
		t.Fatal("second trial not allowed")
	}
	b.Record(true)
	if b.State() != Closed {
		t.Fatalf("successful trial: state %v", b.State())
	}
	fail(t, b, 2) // the count starts again from zero
	if b.State() != Closed {
		t.Fatal("failures not cleared by the successful trial")
	}
}

func TestBreakerAbandonedTrial(t *testing.T) {
	b, clock := newTestBreaker()
	fail(t, b, 3)
	clock.advance(BreakerCooldown)
	b.Allow()
	b.abandon()
	if b.State() != HalfOpen || !b.Allow() {
		t.Fatal("an abandoned trial must give the attempt back")
	}
}

func TestBreakerReset(t *testing.T) {
	b, _ := newTestBreaker()
	fail(t, b, 3)
	b.Reset()
	if b.State() != Closed || !b.Allow() {
		t.Fatal("Reset must close the breaker")
	}
	b.Record(false)
	b.Record(false)
	if b.State() != Closed {
		t.Fatal("Reset must clear the failure count")
	}
}

func TestBreakerEnter(t *testing.T) {
	b := NewBreaker(nil)
	release, ok := b.Enter()
	if !ok {
		t.Fatal("first Enter refused")
	}
	if _, ok := b.Enter(); ok {
		t.Fatal("nested Enter allowed")
	}
	release()
	release() // idempotent
	r2, ok := b.Enter()
	if !ok {
		t.Fatal("Enter refused after release")
	}
	r2()
}

func TestBreakerConcurrentUse(t *testing.T) {
	b, clock := newTestBreaker()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				if b.Allow() {
					b.Record((i+j)%3 == 0)
				}
				if rel, ok := b.Enter(); ok {
					rel()
				}
				clock.advance(time.Second)
				_ = b.State()
			}
		})
	}
	wg.Wait()
}
