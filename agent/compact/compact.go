// Package compact keeps an agent conversation inside its context budget
// (docs/features.md §4 C3, C4, C7, C8, C9): token accounting (Tracker, Estimate),
// budget nudges (Nudge), the diminishing-returns stop (DiminishingReturns),
// the five-layer compress_with_fallback (Compress), safe cut points
// (SafeCut), and the circuit breaker and recursion guard around automatic
// compaction (Breaker, Auto, Manual).
//
// Every function here takes and returns conversations that keep the
// invariant agent.RepairHistory establishes (see Check): the system
// message first, and each assistant tool call followed by exactly one
// result. No layer ever separates a call from its result. Inputs are never
// modified.
package compact

import (
	"context"
	"strings"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// DefaultIdentity is who the agent is, for the L4 identity block.
const DefaultIdentity = "You are AstroResearch, an astrophysics research assistant: you search the literature " +
	"and data services with your tools, cite your sources, and write math in LaTeX."

// Options configure one compaction.
type Options struct {
	// Budget holds the limits; zero fields take the docs/features.md defaults.
	Budget Budget
	// Summarizer writes the L2 summary; nil skips L2 (straight to L3).
	Summarizer Summarizer
	// Question is the user's question of this turn, quoted by L4.
	Question string
	// Identity says who the agent is in the L4 block; "" means
	// DefaultIdentity.
	Identity string
	// Force runs L1 and L2 even when the conversation is within limits
	// (manual compress_context); the size checks apply again from L3 on.
	Force bool
}

// Result is the outcome of Compress.
type Result struct {
	// Messages is the compacted conversation; msgs itself when nothing
	// changed.
	Messages []llm.Message
	// Method names the layers that changed something, joined by "+" in the
	// order they ran: "snip", "micro", "auto", "aggressive", "identity"
	// (e.g. "snip+micro"); "" when nothing changed.
	Method string
	// Before and After are the message counts.
	Before, After int
	// SummaryError is why L2 failed when it fell through to L3; nil
	// otherwise. It is for logs, not for the model or the user.
	SummaryError error
}

// Compress is compress_with_fallback (docs/features.md C7). It applies, in order:
//
//	L0 snip        more than MaxMessages messages: keep the first SnipHead and the last MaxMessages−SnipHead
//	L1 micro       still over CharLimit·1.5 characters: old tool results → "[Previous: used {tool}]", newest MicroKeep kept
//	L2 auto        still over: the older part becomes one summary (≤ SummaryMaxChars); on failure fall through
//	L3 aggressive  still over: like L1 keeping only the newest AggressiveKeep
//	L4 identity    a compaction removed messages and at most IdentityMaxMessages are left: inject the identity block
//
// checking after each size layer and stopping as soon as the conversation
// is within CharLimit·1.5. L4 is a repair of what the size layers left,
// not a size layer, so it is checked whatever they achieved. The result
// never has more messages or characters than msgs, keeps the system
// message first and never separates a tool call from its result.
//
// The only error is ctx's, when it ends while L2 waits for the summary.
func Compress(ctx context.Context, msgs []llm.Message, opt Options) (Result, error) {
	b := opt.Budget.withDefaults()
	cur := msgs
	var methods []string
	apply := func(name string, out []llm.Message, changed bool) {
		if changed {
			cur = out
			methods = append(methods, name)
		}
	}
	over := func() bool { return Chars(cur) > b.charCeiling() }
	res := Result{Before: len(msgs)}

	out, ok := snip(cur, b)
	apply("snip", out, ok)
	if opt.Force || over() {
		out, ok := micro(cur, MicroKeep)
		apply("micro", out, ok)
	}
	if opt.Force || over() {
		out, ok, err := auto(withActive(ctx), cur, opt.Summarizer)
		if err != nil && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		res.SummaryError = err
		apply("auto", out, ok)
	}
	if over() {
		out, ok := micro(cur, AggressiveKeep)
		apply("aggressive", out, ok)
	}
	if len(cur) < len(msgs) {
		out, ok := identity(cur, opt)
		apply("identity", out, ok && len(out) <= len(msgs) && Chars(out) <= Chars(msgs))
	}

	res.Messages, res.Method, res.After = cur, strings.Join(methods, "+"), len(cur)
	return res, nil
}

// activeKey marks a context as belonging to a running compaction.
type activeKey struct{}

func withActive(ctx context.Context) context.Context {
	return context.WithValue(ctx, activeKey{}, true)
}

// Active reports whether ctx belongs to a running compaction (for example
// the context a Summarizer receives). Auto and Manual refuse to run in
// such a context: compaction cannot start inside compaction.
func Active(ctx context.Context) bool {
	v, _ := ctx.Value(activeKey{}).(bool)
	return v
}
