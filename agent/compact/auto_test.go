package compact

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

var overSoft = DefaultBudget().SoftLimit + 1

func TestAutoBelowTheTriggerDoesNothing(t *testing.T) {
	b, _ := newTestBreaker()
	sum := &fixedSummary{text: "s"}
	res, ran, err := Auto(context.Background(), b, chat(60, 10), 32000, Options{Summarizer: sum})
	if ran || err != nil || res.Messages != nil || sum.calls != 0 {
		t.Fatalf("ran %v, err %v", ran, err)
	}
}

func TestAutoRecordsOutcomesAndOpens(t *testing.T) {
	b, clock := newTestBreaker()
	// Nothing to remove: each automatic attempt fails (no fewer messages).
	small := conv(sys(), user("q"))
	for i := range BreakerThreshold {
		_, ran, err := Auto(context.Background(), b, small, overSoft, Options{})
		if !ran || err != nil {
			t.Fatalf("attempt %d: ran %v, err %v", i+1, ran, err)
		}
	}
	if b.State() != Open {
		t.Fatalf("state %v", b.State())
	}
	big := chat(60, 10)
	if _, ran, _ := Auto(context.Background(), b, big, overSoft, Options{}); ran {
		t.Fatal("ran while open")
	}
	clock.advance(BreakerCooldown)
	res, ran, err := Auto(context.Background(), b, big, overSoft, Options{})
	if !ran || err != nil || res.Method != "snip" || b.State() != Closed {
		t.Fatalf("trial: ran %v, method %q, state %v, err %v", ran, res.Method, b.State(), err)
	}
}

func TestManualBypassesAndResetsTheBreaker(t *testing.T) {
	b, _ := newTestBreaker()
	fail(t, b, BreakerThreshold)
	in := conv(sys(), user("q"), step("r", "a"), reply(strings.Repeat("i", 1000)), user("more"), step("r", "b"))
	res, err := Manual(context.Background(), b, in, Options{Summarizer: &fixedSummary{text: "s"}})
	if err != nil || !strings.HasPrefix(res.Method, "auto") {
		t.Fatalf("method %q, err %v", res.Method, err)
	}
	if b.State() != Closed {
		t.Fatalf("state %v after a manual compaction", b.State())
	}
}

func TestRecursionGuard(t *testing.T) {
	b, _ := newTestBreaker()
	in := overByUser(step("r", "b"))
	opt := Options{Budget: Budget{CharLimit: 1000}}
	var innerRan bool
	var innerErr error
	// A summarizer that (through some hook or agent) tries to compact again.
	opt.Summarizer = SummarizerFunc(func(ctx context.Context, msgs []llm.Message, _ int) (string, error) {
		if !Active(ctx) {
			t.Error("the summarizer's context is not marked")
		}
		_, innerRan, _ = Auto(ctx, b, in, overSoft, opt)
		_, innerErr = Manual(ctx, b, in, opt)
		// Another breaker (another session's) is refused too: the context says so.
		_, err := Manual(ctx, NewBreaker(nil), in, opt)
		if !errors.Is(err, ErrBusy) {
			t.Errorf("fresh breaker inside compaction: %v", err)
		}
		return "s", nil
	})
	res, ran, err := Auto(context.Background(), b, in, overSoft, opt)
	if !ran || err != nil || !strings.HasPrefix(res.Method, "auto") {
		t.Fatalf("outer: ran %v, method %q, err %v", ran, res.Method, err)
	}
	if innerRan || !errors.Is(innerErr, ErrBusy) {
		t.Errorf("inner compaction: ran %v, err %v", innerRan, innerErr)
	}

	// The guard held by someone else (same session, another goroutine).
	release, _ := b.Enter()
	if _, ran, _ := Auto(context.Background(), b, in, overSoft, opt); ran {
		t.Error("Auto ran while the guard was held")
	}
	if _, err := Manual(context.Background(), b, in, opt); !errors.Is(err, ErrBusy) {
		t.Errorf("Manual while the guard was held: %v", err)
	}
	release()
}

func TestAutoCancelledGivesTheTrialBack(t *testing.T) {
	b, clock := newTestBreaker()
	fail(t, b, BreakerThreshold)
	clock.advance(BreakerCooldown)
	ctx, cancel := context.WithCancel(context.Background())
	opt := Options{Budget: Budget{CharLimit: 1000}, Summarizer: SummarizerFunc(
		func(ctx context.Context, _ []llm.Message, _ int) (string, error) { cancel(); return "", ctx.Err() })}
	if _, ran, err := Auto(ctx, b, overByUser(step("r", "b")), overSoft, opt); ran || !errors.Is(err, context.Canceled) {
		t.Fatalf("ran %v, err %v", ran, err)
	}
	if b.State() != HalfOpen || !b.Allow() {
		t.Fatalf("state %v", b.State())
	}
}
