package compact

import (
	"context"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// The recovery ladder (docs/features.md R6) uses single layers directly when the model
// refuses a request as too long.

// Aggressive is the L3 layer on its own: every tool result but the newest
// AggressiveKeep becomes "[Previous: used {tool}]". It reports whether
// anything changed.
func Aggressive(msgs []llm.Message) ([]llm.Message, bool) {
	return micro(msgs, AggressiveKeep)
}

// Reactive is the L2 layer on its own: the older part of the conversation
// becomes one summary written by s. It reports whether anything changed;
// a summarizer failure is returned (the ladder then moves on).
func Reactive(ctx context.Context, msgs []llm.Message, s Summarizer) ([]llm.Message, bool, error) {
	if s == nil {
		return msgs, false, nil
	}
	return auto(withActive(ctx), msgs, s)
}
