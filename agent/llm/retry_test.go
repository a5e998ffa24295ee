package llm_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestRetryHonoursRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{"http date", map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}, 3 * time.Second},
		{"milliseconds header", map[string]string{"Retry-After-Ms": "1500"}, 1500 * time.Millisecond},
		{"shorter than backoff", map[string]string{"Retry-After": "0.1"}, 500 * time.Millisecond},
		{"absent", nil, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(llmtest.HTTPError(429, tt.header, "Rate limit reached for requests"), llmtest.Text("ok"))
			c, sleeps := newClient(t, s, func(cfg *llm.Config) { cfg.Now = func() time.Time { return now } })
			resp, err := c.Stream(t.Context(), userRequest("q"), nil)
			if err != nil || resp.Message.Content != "ok" {
				t.Fatalf("resp %+v err %v", resp, err)
			}
			if w := sleeps.Waits(); len(w) != 1 || w[0] != tt.want {
				t.Errorf("waits %v, want [%v]", w, tt.want)
			}
			if n := len(s.Requests()); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
		})
	}
}

func TestRetryScheduleGivesUpAfterTenRetries(t *testing.T) {
	s := llmtest.New(t)
	for range 11 {
		s.Enqueue(llmtest.HTTPError(429, nil, "Too Many Requests"))
	}
	c, sleeps := newClient(t, s)
	_, err := c.Stream(t.Context(), userRequest("q"), nil)
	if llm.ClassOf(err) != llm.RateLimited {
		t.Fatalf("err %v, want RateLimited", err)
	}
	s500 := 500 * time.Millisecond
	want := []time.Duration{s500, 2 * s500, 4 * s500, 8 * s500, 16 * s500, 32 * s500, 32 * time.Second, 32 * time.Second, 32 * time.Second, 32 * time.Second}
	if w := sleeps.Waits(); !slices.Equal(w, want) {
		t.Errorf("waits %v, want %v", w, want)
	}
	if n := len(s.Requests()); n != 11 || s.Pending() != 0 {
		t.Errorf("%d requests, %d pending", n, s.Pending())
	}
}

func TestRetryJitterWithinQuarter(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.HTTPError(429, nil, "rate limit"), llmtest.HTTPError(429, nil, "rate limit"), llmtest.Text("ok"))
	c, sleeps := newClient(t, s, func(cfg *llm.Config) { cfg.Rand = func() float64 { return 0.5 } })
	if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{562500 * time.Microsecond, 1125 * time.Millisecond} // +12.5%
	if w := sleeps.Waits(); !slices.Equal(w, want) {
		t.Errorf("waits %v, want %v", w, want)
	}
}

func TestInStreamRateLimitBeforeDeltasIsRetried(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.StreamError(llmtest.APIError{Message: "Rate limit reached", Type: "rate_limit_error"}), llmtest.Text("ok"))
	c, sleeps := newClient(t, s)
	onDelta, deltas := collect()
	resp, err := c.Stream(t.Context(), userRequest("q"), onDelta)
	if err != nil || resp.Message.Content != "ok" || len(*deltas) != 1 {
		t.Fatalf("resp %+v deltas %v err %v", resp, *deltas, err)
	}
	if len(sleeps.Waits()) != 1 {
		t.Errorf("waits %v", sleeps.Waits())
	}
}

func TestRetryAfterBeyondLimitIsSurfaced(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.HTTPError(429, map[string]string{"Retry-After": "86400"}, "rate limit"))
	c, sleeps := newClient(t, s)
	_, err := c.Stream(t.Context(), userRequest("q"), nil)
	if e := asError(t, err); e.Class != llm.RateLimited || e.RetryAfter <= 5*time.Minute {
		t.Errorf("error %+v", e)
	}
	if len(sleeps.Waits()) != 0 || len(s.Requests()) != 1 {
		t.Errorf("retried: waits %v", sleeps.Waits())
	}
}

func TestCancelWhileWaitingToRetry(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.HTTPError(429, map[string]string{"Retry-After": "240"}, "rate limit"))
	waiting := make(chan struct{})
	c, _ := newClient(t, s, func(cfg *llm.Config) {
		cfg.Sleep = func(ctx context.Context, d time.Duration) error {
			close(waiting)
			return llm.SleepContext(ctx, d) // a real 4-minute wait, ended by the cancel
		}
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		<-waiting
		cancel()
	}()
	_, err := c.Stream(ctx, userRequest("q"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if llm.ClassOf(err) == llm.Timeout {
		t.Error("a user stop classified as Timeout")
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests after cancel", n)
	}
}

func TestCompleteRetriesOverload(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.HTTPError(529, nil, "overloaded"), llmtest.Text("sum"))
	c, sleeps := newClient(t, s)
	resp, err := c.Complete(t.Context(), userRequest("q"))
	if err != nil || resp.Message.Content != "sum" || len(sleeps.Waits()) != 1 {
		t.Fatalf("resp %+v err %v waits %v", resp, err, sleeps.Waits())
	}
}
