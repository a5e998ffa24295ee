package compact

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
)

// Summarizer writes the L2 summary of msgs in at most maxChars characters,
// in the language of the user's messages. Compress cuts a longer answer.
type Summarizer interface {
	Summarize(ctx context.Context, msgs []llm.Message, maxChars int) (string, error)
}

// SummarizerFunc adapts a function to Summarizer.
type SummarizerFunc func(ctx context.Context, msgs []llm.Message, maxChars int) (string, error)

// Summarize calls f.
func (f SummarizerFunc) Summarize(ctx context.Context, msgs []llm.Message, maxChars int) (string, error) {
	return f(ctx, msgs, maxChars)
}

// Completer is a non-streaming chat completion; *llm.Client implements it.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (llm.Response, error)
}

// ModelSummarizer is the Summarizer that sends SummaryPrompt to c, with no
// tools and thinking off.
func ModelSummarizer(c Completer) Summarizer {
	return SummarizerFunc(func(ctx context.Context, msgs []llm.Message, maxChars int) (string, error) {
		resp, err := c.Complete(ctx, llm.Request{Messages: SummaryPrompt(msgs, maxChars), MaxTokens: 4 * maxChars})
		if err != nil {
			return "", fmt.Errorf("compact: summary call: %w", err)
		}
		text := strings.TrimSpace(resp.Message.Content)
		if text == "" {
			return "", errEmptySummary
		}
		return text, nil
	})
}

// Transcript bounds for SummaryPrompt, in characters: each message, each
// tool call's arguments, and the whole transcript (its middle goes first).
const (
	transcriptMessageMax = 1500
	transcriptArgsMax    = 300
	transcriptMax        = 60000
)

const summarySystemPrompt = `You compress the earlier part of a conversation between a user and AstroResearch, an astrophysics research assistant that uses tools (literature search, paper reading, astronomical data services).

Write a summary of at most %d characters that lets the assistant continue the work without the original messages. Keep, in this order of priority:
1. what the user asked for and any constraints or preferences they stated;
2. findings so far, with their sources exactly as given (bibcodes, arXiv ids, DOIs, object names, numbers with units);
3. what was tried and did not work;
4. what remains to be done.

Write in the language the user writes in (if the user writes Chinese, write Chinese). Plain prose or short bullet points; no preamble, no headings, nothing invented.`

// SummaryPrompt is the request L2 sends to the model: a system message
// with the instructions and a user message with a transcript of msgs (long
// messages and tool outputs shortened).
func SummaryPrompt(msgs []llm.Message, maxChars int) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Content: fmt.Sprintf(summarySystemPrompt, maxChars)},
		{Role: llm.RoleUser, Content: "Conversation to summarize:\n\n" + transcript(msgs)},
	}
}

// transcript renders msgs as labelled plain text.
func transcript(msgs []llm.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		text := textcut.Ellipsize(strings.TrimSpace(m.Content), transcriptMessageMax)
		switch m.Role {
		case llm.RoleUser:
			fmt.Fprintf(&b, "USER: %s\n", text)
		case llm.RoleAssistant:
			fmt.Fprintf(&b, "ASSISTANT: %s\n", text)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "  called %s(%s)\n", c.Name, textcut.Ellipsize(c.Arguments, transcriptArgsMax))
			}
		case llm.RoleTool:
			fmt.Fprintf(&b, "RESULT of %s: %s\n", toolName(msgs, i), text)
		default:
			fmt.Fprintf(&b, "%s: %s\n", strings.ToUpper(string(m.Role)), text)
		}
	}
	return truncateMiddle(b.String(), transcriptMax)
}

// truncateMiddle keeps the first quarter and the last three quarters of n
// characters of s, marking the cut: the start holds the request, the end
// the freshest findings.
func truncateMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := n / 4
	tail := n - head
	return string(r[:head]) + fmt.Sprintf("\n[… %d characters omitted …]\n", len(r)-n) + string(r[len(r)-tail:])
}
