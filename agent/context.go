package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
	fstools "github.com/astroresearch/astroresearch/agent/tools/fs"
)

// Context management in the loop (docs/features.md C3–C10): before every model call
// the conversation is compacted when it is over budget (or when the model
// asked with compress_context), files it had read are restored, and a
// budget nudge may ride along with the request.

// restoreFiles and restoreChars bound the C10 restore after compaction.
const (
	restoreFiles = 5
	restoreChars = 4000
)

// FileCache is the read_file state the runtime snapshots around a
// compaction (the fs package's cache).
type FileCache interface {
	Snapshot(session string, maxChars int) []fstools.Entry
	Forget(session string)
}

// breakerFor returns the session's compaction circuit breaker; it lives
// across turns (its cool-down is 300 s).
func (r *Runtime) breakerFor(session string) *compact.Breaker {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.breakers[session]
	if !ok {
		b = compact.NewBreaker(r.d.Now)
		r.breakers[session] = b
	}
	return b
}

// breakerKey names the breaker of this agent: the session's for the lead,
// its own for a sub-agent.
func (t *turnRun) breakerKey() string {
	if t.agent == LeadAgent {
		return t.session.ID
	}
	return t.session.ID + "/" + t.agent
}

// forgetBreaker drops a finished sub-agent's breaker.
func (r *Runtime) forgetBreaker(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.breakers, key)
}

func (t *turnRun) compactOptions() compact.Options {
	return compact.Options{Budget: t.budget(), Summarizer: t.r.d.Summarizer, Question: t.question}
}

// manageContext runs before each model call: a requested or triggered
// compaction, then the step's budget nudge (returned, sent with this
// request only).
func (t *turnRun) manageContext(ctx context.Context, step int) ([]llm.Message, error) {
	if t.r.Limits().Window > 0 {
		// Limits derived from a window cover the whole request: count the
		// tool definitions too until the server reports prompt_tokens.
		t.tokens.SetFixed(compact.DefinitionTokens(t.registry.Definitions()))
	}
	tokens := t.tokens.Tokens(t.msgs)
	manual := t.compactRequested.Swap(false)
	if manual || compact.Trigger(tokens, t.budget()) {
		if err := t.compactNow(ctx, step, manual, tokens); err != nil {
			return nil, err
		}
	}
	if msg, ok := compact.Nudge(t.tokens.Tokens(t.msgs), t.budget()); ok {
		return []llm.Message{{Role: llm.RoleUser, Content: msg}}, nil
	}
	if msg, ok := t.todoNag(step); ok {
		return []llm.Message{{Role: llm.RoleUser, Content: msg}}, nil
	}
	return nil, nil
}

// todoNagAfter is how many steps may pass without todo_write in a
// multi-step task before the model is reminded (C5).
const todoNagAfter = 3

const todoNagPrompt = "Reminder: this task has taken several steps. Record or update your plan with todo_write " +
	"(mark finished tasks completed, the current one in_progress) so the user can follow it."

// todoNag returns the C5 reminder when todo_write exists and was not used
// in the last todoNagAfter steps of this turn.
func (t *turnRun) todoNag(step int) (string, bool) {
	if step <= todoNagAfter || step-t.lastTodoStep <= todoNagAfter {
		return "", false
	}
	if _, ok := t.registry.Get("todo_write"); !ok {
		return "", false
	}
	t.lastTodoStep = step // one reminder, then another only after todoNagAfter more steps
	return todoNagPrompt, true
}

// compactNow compresses t.msgs (C7), with the PreCompact/PostCompact hooks,
// a compaction event, and the file-state restore (C10).
func (t *turnRun) compactNow(ctx context.Context, step int, manual bool, tokens int) error {
	in := t.hookInput(HookPreCompact)
	in.Step, in.Message = step, fmt.Sprintf("%d messages, ~%d tokens", len(t.msgs), tokens)
	t.hooks().Run(ctx, in)
	var snapshot []fstools.Entry
	files := t.r.d.Files
	if t.child {
		files = nil // the file cache is the lead's (per session)
	}
	if files != nil {
		snapshot = files.Snapshot(t.session.ID, restoreChars)
	}
	b := t.r.breakerFor(t.breakerKey())
	var res compact.Result
	var err error
	ran := true
	if manual {
		res, err = compact.Manual(ctx, b, t.msgs, t.compactOptions())
	} else {
		res, ran, err = compact.Auto(ctx, b, t.msgs, tokens, t.compactOptions())
	}
	switch {
	case errors.Is(err, compact.ErrBusy):
		return nil
	case err != nil:
		return err
	case !ran || res.Method == "":
		return nil
	}
	if res.SummaryError != nil {
		t.log().Warn("compaction summary failed; fell back", "err", res.SummaryError)
	}
	t.dropped = append(t.dropped, compact.Dropped(t.msgs, res.Messages)...)
	t.msgs = append(res.Messages, restoreBlocks(snapshot)...)
	t.tokens.Reset()
	if files != nil {
		files.Forget(t.session.ID) // the model no longer holds what it read
	}
	t.emit(ctx, KindCompaction, CompactionData{Before: res.Before, After: len(t.msgs), Method: res.Method})
	out := t.hookInput(HookPostCompact)
	out.Step, out.Message = step, res.Method
	t.hooks().Run(ctx, out)
	return nil
}

// restoreBlocks turns the most recent file reads into
// "[restored after compaction: path]" messages.
func restoreBlocks(snapshot []fstools.Entry) []llm.Message {
	if len(snapshot) == 0 {
		return nil
	}
	var b strings.Builder
	for i, e := range snapshot {
		if i == restoreFiles {
			break
		}
		fmt.Fprintf(&b, "[restored after compaction: %s]\n%s\n\n", e.Path, e.Content)
	}
	return []llm.Message{{Role: llm.RoleUser, Content: strings.TrimSpace(b.String())}}
}
