package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
)

// Layer parameters of docs/features.md C7.
const (
	// SnipHead is how many leading messages L0 keeps; the tail is
	// MaxMessages − SnipHead (47 by default).
	SnipHead = 3
	// MicroKeep is how many of the newest tool results L1 leaves intact.
	MicroKeep = 8
	// AggressiveKeep is how many of the newest tool results L3 leaves intact.
	AggressiveKeep = 2
	// SummaryMaxChars bounds the L2 summary (characters).
	SummaryMaxChars = 500
	// AutoKeep is how many of the newest messages L2 keeps verbatim (moved
	// earlier to a safe cut, so a whole parallel batch stays).
	AutoKeep = 2
	// IdentityMaxMessages: at or below this many messages after a
	// compaction, L4 injects the identity block.
	IdentityMaxMessages = 4
)

// Prefixes of the messages compaction writes; they let a later compaction
// (and a reader of the log) recognise them.
const (
	SummaryPrefix  = "[Summary of the earlier conversation]"
	IdentityPrefix = "[Identity reminder]"
)

// errEmptySummary is an L2 failure: the summarizer returned nothing.
var errEmptySummary = errors.New("compact: the summarizer returned an empty summary")

// snip is L0: over MaxMessages messages, keep the first SnipHead and the
// last MaxMessages−SnipHead (both moved to safe cuts) and put a placeholder
// where the middle was. It does nothing unless at least two messages go,
// so the result never has more messages or characters than msgs.
func snip(msgs []llm.Message, b Budget) ([]llm.Message, bool) {
	if len(msgs) <= b.MaxMessages {
		return msgs, false
	}
	head := SafeCut(msgs, SnipHead)
	tail := SafeCut(msgs, len(msgs)-max(b.MaxMessages-SnipHead, 1))
	removed := tail - head
	if removed < 2 {
		return msgs, false
	}
	out := make([]llm.Message, 0, len(msgs)-removed+1)
	out = append(out, msgs[:head]...)
	out = append(out, llm.Message{Role: llm.RoleUser,
		Content: fmt.Sprintf("[%d earlier messages were removed to save space]", removed)})
	return append(out, msgs[tail:]...), true
}

// micro is L1 (keep = MicroKeep) and L3 (keep = AggressiveKeep): every
// tool result but the newest keep becomes "[Previous: used {tool}]". A
// result already shorter than its placeholder stays. Messages are never
// removed, so call/result pairs are untouched.
func micro(msgs []llm.Message, keep int) ([]llm.Message, bool) {
	var tools []int
	for i, m := range msgs {
		if m.Role == llm.RoleTool {
			tools = append(tools, i)
		}
	}
	if len(tools) <= keep {
		return msgs, false
	}
	var out []llm.Message
	for _, i := range tools[:len(tools)-keep] {
		stub := "[Previous: used " + toolName(msgs, i) + "]"
		if utf8.RuneCountInString(msgs[i].Content) <= utf8.RuneCountInString(stub) {
			continue
		}
		if out == nil {
			out = append([]llm.Message(nil), msgs...)
		}
		out[i].Content = stub
	}
	if out == nil {
		return msgs, false
	}
	return out, true
}

// auto is L2: the messages before the newest AutoKeep (after the system
// message, up to a safe cut) are replaced by one summary message of at
// most SummaryMaxChars characters. It needs at least two messages to
// summarize, and a result no larger than msgs; otherwise it does nothing.
// A summarizer error is returned (the caller falls through to L3).
func auto(ctx context.Context, msgs []llm.Message, s Summarizer) ([]llm.Message, bool, error) {
	start := 0
	if hasSystem(msgs) {
		start = 1
	}
	cut := SafeCut(msgs, len(msgs)-AutoKeep)
	if s == nil || cut-start < 2 {
		return msgs, false, nil
	}
	text, err := s.Summarize(ctx, msgs[start:cut], SummaryMaxChars)
	if err != nil {
		return msgs, false, fmt.Errorf("compact: summarize: %w", err)
	}
	text = textcut.Ellipsize(strings.TrimSpace(text), SummaryMaxChars)
	if text == "" {
		return msgs, false, errEmptySummary
	}
	out := make([]llm.Message, 0, len(msgs)-(cut-start)+1)
	out = append(out, msgs[:start]...)
	out = append(out, llm.Message{Role: llm.RoleUser, Content: SummaryPrefix + "\n" + text})
	out = append(out, msgs[cut:]...)
	if Chars(out) > Chars(msgs) {
		return msgs, false, nil
	}
	return out, true, nil
}

// identityQuestionMax bounds the question quoted in the identity block.
const identityQuestionMax = 2000

// identity is L4: when at most IdentityMaxMessages messages are left, a
// block reminding the model who it is and what the user asked goes right
// after the system message (unless one is already there).
func identity(msgs []llm.Message, opt Options) ([]llm.Message, bool) {
	if len(msgs) > IdentityMaxMessages {
		return msgs, false
	}
	for _, m := range msgs {
		if strings.HasPrefix(m.Content, IdentityPrefix) {
			return msgs, false
		}
	}
	who := opt.Identity
	if who == "" {
		who = DefaultIdentity
	}
	lines := []string{IdentityPrefix, who, "The earlier conversation was compacted to save space."}
	if q := strings.TrimSpace(opt.Question); q != "" {
		lines = append(lines, "The user's question is:", textcut.Ellipsize(q, identityQuestionMax))
	}
	lines = append(lines, "Continue working on it from where the conversation left off.")
	at := 0
	if hasSystem(msgs) {
		at = 1
	}
	out := make([]llm.Message, 0, len(msgs)+1)
	out = append(out, msgs[:at]...)
	out = append(out, llm.Message{Role: llm.RoleUser, Content: strings.Join(lines, "\n")})
	return append(out, msgs[at:]...), true
}
