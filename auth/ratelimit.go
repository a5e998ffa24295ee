package auth

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is a keyed token-bucket rate limiter with an explicit clock, used
// for login attempts per IP and per account. It is safe for concurrent use.
// Buckets that have refilled completely are forgotten, so memory stays
// bounded by the number of recently active keys.
type Limiter struct {
	mu      sync.Mutex
	every   time.Duration
	burst   int
	buckets map[string]*rate.Limiter
	swept   time.Time
}

// NewLimiter allows burst events at once per key and one more every every.
func NewLimiter(every time.Duration, burst int) *Limiter {
	return &Limiter{every: every, burst: burst, buckets: map[string]*rate.Limiter{}}
}

func (l *Limiter) bucket(key string, now time.Time) *rate.Limiter {
	l.sweep(now)
	b, ok := l.buckets[key]
	if !ok {
		b = rate.NewLimiter(rate.Every(l.every), l.burst)
		l.buckets[key] = b
	}
	return b
}

// Check reports whether an event for key is allowed at now without using a
// token; when it is not, wait is how long until one is available.
func (l *Limiter) Check(key string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
	if tokens := b.TokensAt(now); tokens < 1 {
		return false, time.Duration(math.Ceil((1 - tokens) * float64(l.every)))
	}
	return true, 0
}

// Take uses one token for key at now. It reports false, with the wait until
// the next token, when the bucket is empty.
func (l *Limiter) Take(key string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
	if b.AllowN(now, 1) {
		return true, 0
	}
	tokens := b.TokensAt(now)
	return false, time.Duration(math.Ceil((1 - tokens) * float64(l.every)))
}

// Reset forgets key, refilling its bucket (after a successful login).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.buckets, key)
}

// sweep drops full buckets at most once a minute. Caller holds mu.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, k)
		}
	}
}
