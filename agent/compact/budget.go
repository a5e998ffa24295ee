package compact

import (
	"fmt"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// Budget holds the context limits of docs/features.md C3 and C7. Zero fields take the
// docs/features.md defaults (see DefaultBudget).
type Budget struct {
	SoftLimit   int // AGENT_TOKEN_SOFT_LIMIT: compaction trigger and "over soft" nudge (32,000 tokens)
	HardLimit   int // AGENT_TOKEN_HARD_LIMIT: "answer now" nudge (40,000 tokens)
	MaxMessages int // AGENT_MAX_MESSAGES: L0 snip threshold (50 messages)
	CharLimit   int // AGENT_CONTEXT_CHAR_LIMIT: L1–L3 work until chars ≤ CharLimit·1.5 (16,000)
}

// DefaultBudget returns the docs/features.md defaults.
func DefaultBudget() Budget {
	return Budget{SoftLimit: 32000, HardLimit: 40000, MaxMessages: 50, CharLimit: 16000}
}

// withDefaults fills zero fields from DefaultBudget.
func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	if b.SoftLimit <= 0 {
		b.SoftLimit = d.SoftLimit
	}
	if b.HardLimit <= 0 {
		b.HardLimit = max(d.HardLimit, b.SoftLimit)
	}
	if b.MaxMessages <= 0 {
		b.MaxMessages = d.MaxMessages
	}
	if b.CharLimit <= 0 {
		b.CharLimit = d.CharLimit
	}
	return b
}

// charCeiling is the size L1–L3 compress down to: CharLimit·1.5.
func (b Budget) charCeiling() int { return b.CharLimit * 3 / 2 }

// messageOverhead is the per-message token cost of the chat format (role,
// separators, tool call framing).
const messageOverhead = 4

// Estimate is the rough token count of msgs as sent to the model: about
// four bytes per token (which also roughly fits CJK text, three bytes per
// character) plus a small overhead per message. Thought is not counted: it
// is never sent back.
func Estimate(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		b := len(m.Content) + len(m.Name) + len(m.ToolCallID)
		for _, c := range m.ToolCalls {
			b += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		n += b/4 + messageOverhead
	}
	return n
}

// Chars is the size of msgs in characters (runes) as C7 counts it: message
// text plus tool call names and arguments.
func Chars(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += messageChars(m)
	}
	return n
}

func messageChars(m llm.Message) int {
	n := utf8.RuneCountInString(m.Content)
	for _, c := range m.ToolCalls {
		n += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Arguments)
	}
	return n
}

// Tracker keeps the token count of a growing conversation (docs/features.md C9): the
// API's prompt_tokens of the last call when known, plus an estimate of the
// messages added since; a rough estimate of everything otherwise. The zero
// value is ready to use. Not safe for concurrent use (one per turn).
type Tracker struct {
	known  bool
	prompt int // prompt_tokens of the last call that reported it
	sent   int // number of messages in that call's request
	fixed  int // tokens sent besides the messages (see SetFixed)
}

// SetFixed sets the tokens every request carries besides its messages
// (the tool definitions), counted only while there is no API baseline
// (prompt_tokens already includes them).
func (t *Tracker) SetFixed(tokens int) { t.fixed = max(0, tokens) }

// Observe records a completed call: promptTokens from its usage and sent,
// the number of messages in its request. A zero promptTokens (a provider
// that reports no usage) keeps the previous baseline.
func (t *Tracker) Observe(promptTokens, sent int) {
	if promptTokens <= 0 || sent < 0 {
		return
	}
	t.known, t.prompt, t.sent = true, promptTokens, sent
}

// Reset forgets the API baseline. Call it after msgs were rewritten (a
// compaction): the old prompt_tokens no longer describe them.
func (t *Tracker) Reset() { *t = Tracker{fixed: t.fixed} }

// Tokens is the current size of msgs in tokens: the baseline plus the
// estimate of msgs[sent:], or Estimate(msgs) when there is no baseline or
// msgs is shorter than the request it describes.
func (t *Tracker) Tokens(msgs []llm.Message) int {
	if !t.known || t.sent > len(msgs) {
		return Estimate(msgs) + t.fixed
	}
	return t.prompt + Estimate(msgs[t.sent:])
}

// Trigger reports whether automatic compaction should run: tokens over the
// soft limit (docs/features.md C9).
func Trigger(tokens int, b Budget) bool {
	return tokens > b.withDefaults().SoftLimit
}

// nearSoftPercent is the "near the soft limit" threshold of C3.
const nearSoftPercent = 80

// Nudge returns the one budget reminder for this step (docs/features.md C3), chosen by
// priority: over the hard limit, over the soft limit, near the soft limit
// (≥ 80 %). ok is false when tokens are below all three.
func Nudge(tokens int, b Budget) (msg string, ok bool) {
	b = b.withDefaults()
	switch {
	case tokens > b.HardLimit:
		return fmt.Sprintf("You are over the context budget: answer now with what you have (%d of %d tokens). "+
			"Do not call more tools; say plainly what is still missing.", tokens, b.HardLimit), true
	case tokens > b.SoftLimit:
		return fmt.Sprintf("You are over the soft context budget (%d of %d tokens). Stop exploring: make at most "+
			"one or two essential tool calls, then write your answer.", tokens, b.SoftLimit), true
	case tokens*100 >= b.SoftLimit*nearSoftPercent:
		return fmt.Sprintf("You are near the context budget (%d of %d tokens). Prefer targeted tool calls "+
			"over broad ones and start preparing your answer.", tokens, b.SoftLimit), true
	}
	return "", false
}

// DefinitionTokens estimates what tool definitions cost in a request: four
// characters a token over their JSON as sent. (The API's prompt_tokens,
// the Tracker's baseline, already includes them.)
func DefinitionTokens(defs []llm.ToolDef) int {
	n := 0
	for _, d := range defs {
		// {"type":"function","function":{"name":..,"description":..,"parameters":..}}
		n += len(d.Name) + len(d.Description) + len(d.Parameters) + 60
	}
	return n / 4
}
