package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Retry policy (docs/features.md R4).
const (
	// maxRetries is how many times one call is retried after its first attempt.
	maxRetries = 10
	// baseDelay doubles on each retry up to maxDelay; jitter adds up to
	// jitterFraction of the delay on top.
	baseDelay      = 500 * time.Millisecond
	maxDelay       = 32 * time.Second
	jitterFraction = 0.25
	// maxRetryAfter is the longest Retry-After we wait for inside one call:
	// a longer wait is surfaced instead (an interactive turn should not hang
	// for minutes; the user sees the error and can try later).
	maxRetryAfter = 5 * time.Minute
)

// attemptFunc runs one attempt. delivered reports whether anything reached
// the caller's onDelta during the attempt.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// retry runs try until it succeeds or fails in a way retrying cannot fix.
// Only RateLimited and Overloaded errors are retried, never quota errors,
// and never once the attempt delivered deltas: the caller has already shown
// part of an answer, and a second answer would be appended to it. Waits go
// through Config.Sleep, so a cancelled ctx ends them at once.
func (c *Client) retry(ctx context.Context, op string, try attemptFunc) error {
	for attempt := 0; ; attempt++ {
		delivered, err := try(ctx)
		if err == nil {
			return nil
		}
		var e *Error
		if !errors.As(err, &e) || !retryable(e) || delivered || attempt >= maxRetries {
			return err
		}
		delay := c.backoff(attempt, e.RetryAfter)
		c.cfg.Log.LogAttrs(ctx, slog.LevelWarn, "llm: retrying",
			slog.String("op", op), slog.String("class", e.Class.String()),
			slog.Int("retry", attempt+1), slog.Duration("delay", delay), slog.String("message", e.Message))
		if err := c.cfg.Sleep(ctx, delay); err != nil {
			if ctx.Err() != nil {
				return contextError(ctx.Err())
			}
			return fmt.Errorf("llm: %s: wait before retry: %w", op, err)
		}
	}
}

// retryable reports whether waiting may fix e.
func retryable(e *Error) bool {
	return (e.Class == RateLimited || e.Class == Overloaded) && !e.Quota && e.RetryAfter <= maxRetryAfter
}

// backoff is min(500ms·2^attempt, 32s) plus up to 25% jitter, but at
// least the server's Retry-After.
func (c *Client) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := maxDelay
	if attempt < 7 { // 500ms·2^6 = 32s already
		d = min(baseDelay<<attempt, maxDelay)
	}
	d += time.Duration(float64(d) * jitterFraction * c.cfg.Rand())
	return max(d, retryAfter)
}
