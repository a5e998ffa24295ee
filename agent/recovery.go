package agent

import (
	"context"
	"errors"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
)

// The recovery ladder (docs/features.md R6) for a model that refuses a request as too
// long (PromptTooLong) or runs out of tokens (TokenExhausted): each rung is
// tried at most once per turn, in order; ModelError and everything else go
// straight to Surface (the error is shown).
const (
	rungAggressive = "aggressive_compact" // drop all but the 2 newest tool results
	rungReactive   = "reactive_compact"   // LLM summary of the older part
	rungEscalate   = "escalate_tokens"    // completion limit raised to 64,000 for this turn
	rungMultiTurn  = "multi_turn"         // ask the model to continue in smaller steps
	// rungLearnt is not a rung of the ladder: the compaction to a window
	// just learnt from the refusal, tried once before the ladder.
	rungLearnt = "window_learnt"
)

// escalatedMaxTokens is EscalateTokens' completion limit; with a known
// window, at most what the window leaves, and the rung is skipped when that
// is under minEscalatedTokens.
const (
	escalatedMaxTokens = 64_000
	minEscalatedTokens = 1024
)

// multiTurnPrompt asks the model to split its work.
const multiTurnPrompt = "Your last reply could not be completed because it was too long for the model's limits. " +
	"Continue in smaller steps: give the first part of the answer now, concisely, and say what remains."

var ladder = []string{rungAggressive, rungReactive, rungEscalate, rungMultiTurn}

// callWithRecovery calls the model, climbing the recovery ladder while the
// failure is PromptTooLong or TokenExhausted and a rung is left.
func (t *turnRun) callWithRecovery(ctx context.Context, step int, defs []llm.ToolDef, transient ...llm.Message) (llm.Response, error) {
	for {
		resp, err := t.callModel(ctx, step, defs, transient...)
		if err == nil {
			return resp, nil
		}
		if errors.Is(err, errPromptTruncated) {
			if err := t.recoverTruncation(ctx, step); err != nil {
				return llm.Response{}, err
			}
			continue
		}
		class := llm.ClassOf(err)
		if ctx.Err() != nil || (class != llm.PromptTooLong && class != llm.TokenExhausted) {
			return llm.Response{}, err
		}
		if t.learnWindowFromError(err) && !t.rungsUsed[rungLearnt] {
			// The limits now fit the server: compact to them and retry
			// before climbing the ladder.
			if t.rungsUsed == nil {
				t.rungsUsed = map[string]bool{}
			}
			t.rungsUsed[rungLearnt] = true
			before := len(t.msgs)
			if err := t.recoverTruncation(ctx, step); err != nil {
				return llm.Response{}, err
			}
			if len(t.msgs) != before || t.tokens.Tokens(t.msgs) < t.budget().HardLimit {
				continue
			}
		}
		if !t.climb(ctx, step, err) {
			return llm.Response{}, err // Surface
		}
	}
}

// climb applies the next unused rung that changes something and reports
// whether one did.
func (t *turnRun) climb(ctx context.Context, step int, cause error) bool {
	if t.rungsUsed == nil {
		t.rungsUsed = map[string]bool{}
	}
	for _, rung := range ladder {
		if t.rungsUsed[rung] {
			continue
		}
		t.rungsUsed[rung] = true
		if t.applyRung(ctx, rung) {
			t.log().Info("recovering from a too-long request", "rung", rung, "step", step, "cause", cause)
			in := t.hookInput(HookNotification)
			in.Step, in.Message = step, "recovery: "+rung
			t.hooks().Run(ctx, in)
			return true
		}
	}
	return false
}

func (t *turnRun) applyRung(ctx context.Context, rung string) bool {
	before := len(t.msgs)
	switch rung {
	case rungAggressive:
		out, ok := compact.Aggressive(t.msgs)
		if !ok {
			return false
		}
		t.msgs = out
	case rungReactive:
		out, ok, err := compact.Reactive(ctx, t.msgs, t.r.d.Summarizer)
		if err != nil && !errors.Is(err, context.Canceled) {
			t.log().Warn("reactive compaction failed", "err", err)
		}
		if !ok {
			return false
		}
		t.msgs = out
	case rungEscalate:
		limit := escalatedMaxTokens
		if w := t.r.Limits().Window; w > 0 {
			// A server with a known window refuses prompt + max_tokens over
			// it: ask only for the room that is left.
			limit = min(limit, w-t.tokens.Tokens(t.msgs))
		}
		if limit < minEscalatedTokens || t.maxTokens >= limit {
			return false
		}
		t.maxTokens = limit
		return true
	case rungMultiTurn:
		t.msgs = append(t.msgs, llm.Message{Role: llm.RoleUser, Content: multiTurnPrompt})
		return true
	}
	t.tokens.Reset()
	t.emit(ctx, KindCompaction, CompactionData{Before: before, After: len(t.msgs), Method: rung})
	return true
}
