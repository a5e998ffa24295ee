package fetch

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxIdleLimiters is the map size above which limiters that have refilled
// (and so behave exactly like new ones) are dropped.
const maxIdleLimiters = 1024

// hostLimits is a token bucket per host name, on an injectable clock. It is
// safe for concurrent use.
type hostLimits struct {
	perHost map[string]rate.Limit
	def     rate.Limit
	burst   int
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error

	mu       sync.Mutex
	limiters map[string]*rate.Limiter
}

func newHostLimits(o Options) *hostLimits {
	per := make(map[string]rate.Limit, len(o.PerHost))
	for h, l := range o.PerHost {
		per[normHost(h)] = l
	}
	return &hostLimits{
		perHost: per, def: o.DefaultRate, burst: o.Burst,
		now: o.Now, sleep: o.Sleep, limiters: map[string]*rate.Limiter{},
	}
}

// normHost lower-cases a host name and drops a trailing dot.
func normHost(h string) string {
	return strings.ToLower(strings.TrimSuffix(h, "."))
}

// limitFor is the configured rate for host.
func (h *hostLimits) limitFor(host string) rate.Limit {
	if l, ok := h.perHost[host]; ok && l > 0 {
		return l
	}
	return h.def
}

// wait blocks until a request to host may go, or fails — returning the
// token — when ctx ends first or its deadline is too close to wait that long.
func (h *hostLimits) wait(ctx context.Context, host string) error {
	host = normHost(host)
	if h.limitFor(host) == rate.Inf {
		return nil
	}
	now := h.now()
	r := h.limiter(host, now).ReserveN(now, 1)
	if !r.OK() {
		return fmt.Errorf("rate limit for %s: burst too small", host)
	}
	d := r.DelayFrom(now)
	if d <= 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		r.CancelAt(now)
		return fmt.Errorf("rate limit for %s: wait of %v would pass the deadline: %w", host, d, context.DeadlineExceeded)
	}
	if err := h.sleep(ctx, d); err != nil {
		r.CancelAt(h.now())
		return fmt.Errorf("rate limit for %s: %w", host, err)
	}
	return nil
}

// limiter returns host's bucket, creating it, and sweeps full buckets when
// the map has grown large.
func (h *hostLimits) limiter(host string, now time.Time) *rate.Limiter {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l, ok := h.limiters[host]; ok {
		return l
	}
	if len(h.limiters) >= maxIdleLimiters {
		for k, l := range h.limiters {
			if l.TokensAt(now) >= float64(l.Burst()) {
				delete(h.limiters, k)
			}
		}
	}
	l := rate.NewLimiter(h.limitFor(host), h.burst)
	h.limiters[host] = l
	return l
}
