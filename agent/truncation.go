package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
)

// Real servers cut too: Ollama silently drops the beginning of a prompt
// longer than its num_ctx (the system prompt and the tools go first), and
// any server stops an output at max_tokens. Both are caught here (C12).

// errPromptTruncated: the server reported far fewer prompt tokens than
// were sent. callWithRecovery compacts and retries once.
var errPromptTruncated = errors.New("the server silently truncated the prompt")

// Silent truncation is assumed when the reported prompt_tokens is below
// truncatedShare percent of the estimate, for prompts of at least
// minTruncationCheck estimated tokens (small prompts are too noisy).
const (
	truncatedShare     = 60
	minTruncationCheck = 1024
)

// fixSmallWindow is the fix the pages and warnings give for a small window.
const fixSmallWindow = "start Ollama with a larger window (OLLAMA_CONTEXT_LENGTH=32768 ollama serve), " +
	"or pick a model with a larger num_ctx, or set LLM_CONTEXT_WINDOW to the server's real window"

// minTruncatedReport: a server that truncates keeps about a window's
// worth, and no window the agent can use is smaller; lower figures are a
// server (or a script) that does not count, not a truncation.
const minTruncatedReport = 1000

// promptTruncated reports whether a server's prompt_tokens shows it cut a
// prompt estimated at sent tokens, given the known window (0 = unknown; a
// prompt well inside a known window is never cut).
func promptTruncated(sent, reported, window int) bool {
	if reported < minTruncatedReport || sent < minTruncationCheck || reported*100 >= sent*truncatedShare {
		return false
	}
	return window == 0 || sent*10 > window*9
}

// checkTruncation is called with every successful response before it is
// recorded. On the first silent truncation of the turn it warns on the
// timeline, learns the window from the figure and returns
// errPromptTruncated (the response is discarded and the step retried).
func (t *turnRun) checkTruncation(ctx context.Context, step int, sent int, resp llm.Response) error {
	reported := resp.Usage.PromptTokens
	if !promptTruncated(sent, reported, t.r.Limits().Window) {
		return nil
	}
	lim := t.r.learnWindow(resp.Model, reported+resp.Usage.CompletionTokens, "inferred from a truncated prompt")
	if t.truncationRetried {
		t.log().Warn("prompt truncated again after compaction", "sent", sent, "reported", reported)
		return nil
	}
	t.truncationRetried = true
	t.log().Warn("the server silently truncated the prompt", "sent", sent, "reported", reported, "model", resp.Model)
	t.emit(ctx, KindWarning, WarningData{Code: "prompt_truncated", Step: step, Model: resp.Model,
		SentTokens: sent, ReportedTokens: reported, Window: lim.Window,
		Message: fmt.Sprintf("The model server read only about %d of the ~%d tokens sent: it silently cut the beginning of the "+
			"conversation (instructions and tools included), so its context window is too small. The conversation was "+
			"compacted and the step retried. To fix it, %s.", reported, sent, fixSmallWindow)})
	return errPromptTruncated
}

// recoverTruncation compacts after a silent truncation: the full layers,
// then the aggressive rung if the conversation is still over budget.
func (t *turnRun) recoverTruncation(ctx context.Context, step int) error {
	tokens := t.tokens.Tokens(t.msgs)
	if err := t.compactNow(ctx, step, true, tokens); err != nil {
		return err
	}
	if compact.Trigger(t.tokens.Tokens(t.msgs), t.budget()) {
		if out, ok := compact.Aggressive(t.msgs); ok {
			before := len(t.msgs)
			t.msgs = out
			t.tokens.Reset()
			t.emit(ctx, KindCompaction, CompactionData{Before: before, After: len(t.msgs), Method: rungAggressive})
		}
	}
	return nil
}

// learnWindow records a window inferred from a truncated prompt (rounded
// up to a multiple of 1,024 tokens) when none is configured and the known
// one is larger or unknown; it returns the limits in force.
func (r *Runtime) learnWindow(model string, seen int, source string) Limits {
	cur := r.Limits()
	if r.cfg.ContextWindow > 0 || seen <= 0 {
		return cur
	}
	w := (seen + 1023) / 1024 * 1024
	if cur.Window > 0 && cur.Window <= w {
		return cur
	}
	if model == "" {
		model = cur.Model
	}
	return r.setWindow(model, llm.Window{Tokens: w, Source: source, Provisional: true})
}

// outputCutNote tells the model its output hit the length limit.
const outputCutNote = "Your previous reply was cut off because it reached the output length limit, so its tool call " +
	"was not run (its arguments were incomplete). Continue: make the call again with shorter arguments, " +
	"or split the work into smaller steps."

// dropCutCalls handles finish_reason "length": tool calls of a cut output
// are never executed. It reports whether it dropped any (the model is then
// told with outputCutNote).
func (t *turnRun) dropCutCalls(ctx context.Context, step int, resp *llm.Response) bool {
	if resp.FinishReason != "length" || len(resp.Message.ToolCalls) == 0 {
		return false
	}
	t.log().Warn("output cut at the length limit; its tool calls are dropped", "calls", len(resp.Message.ToolCalls))
	t.emit(ctx, KindWarning, WarningData{Code: "output_truncated", Step: step, Model: resp.Model,
		Message: "The model's output was cut off at its length limit, so the tool call it was writing was not run; the model was asked to retry with shorter arguments."})
	resp.Message.ToolCalls = nil
	if strings.TrimSpace(resp.Message.Content) == "" {
		// An assistant message needs content or calls (OpenAI refuses
		// one with neither when the conversation is sent again).
		resp.Message.Content = "[output cut off at the length limit]"
	}
	return true
}

// windowInError finds the window a server names when it refuses a prompt
// ("This model's maximum context length is 8192 tokens", vLLM and OpenAI;
// "context length of only 4096 tokens", others).
var windowInError = regexp.MustCompile(`(?i)(?:maximum context length is|context length of(?: only)?|context window of)\s*(\d{3,8})\s*tokens`)

// learnWindowFromError records the window a refusal names, when none is
// configured, so later requests are sized to fit it; it reports whether
// the limits changed.
func (t *turnRun) learnWindowFromError(err error) bool {
	var le *llm.Error
	if !errors.As(err, &le) {
		return false
	}
	m := windowInError.FindStringSubmatch(le.Message)
	if m == nil {
		return false
	}
	n, convErr := strconv.Atoi(m[1])
	if convErr != nil {
		return false
	}
	before := t.r.Limits().Window
	lim := t.r.learnWindow(t.r.d.Model.ActiveModel(), n, "named by the server when it refused a prompt")
	if lim.Window == before {
		return false
	}
	t.log().Info("context window learnt from a refusal", "window", lim.Window)
	return true
}
