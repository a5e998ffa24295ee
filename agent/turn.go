package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// turnRun is one turn of one agent: the ReAct loop of docs/features.md R1 written as
// named steps (begin → build context → [call model → execute tools]* →
// finish).
type turnRun struct {
	r        *Runtime
	userID   int64
	session  store.AgentSession
	turn     int
	question string
	thinking bool
	agent    string
	registry *tools.Registry
	dups     *dupDetector
	handle   *runningTurn // nil for turns not started by StartTurn (recovery)

	msgs     []llm.Message // the conversation sent to the model
	answer   string
	steps    int
	firstSeq int64 // seq of the turn's first event (for the trajectory)
	finished bool  // done emitted

	tokens            compact.Tracker            // prompt size: API figure + estimate since
	returns           compact.DiminishingReturns // C4
	compactRequested  atomic.Bool                // set by compress_context
	rungsUsed         map[string]bool            // recovery ladder rungs tried this turn (R6)
	maxTokens         int                        // completion limit; raised by EscalateTokens
	lastTodoStep      int                        // last step that used todo_write (or was reminded), C5
	dropped           []llm.Message              // messages compaction removed (for memory extraction)
	truncationRetried bool                       // a silent truncation was retried this turn
	notes             []llm.Message              // sent with the next request only (a cut output's note)
	silent            bool                       // a background sub-agent: no events, no questions
	child             bool                       // a sub-agent (T21): events, but no questions to the user
	maxSteps          int                        // step limit; 0 = Config.MaxSteps
	coord             *coordinator               // set in coordinator mode (T25)
	newTitle          string                     // the title this turn gave the session ("" = none)
}

// stepLimit is the turn's step limit.
func (t *turnRun) stepLimit() int {
	if t.maxSteps > 0 {
		return t.maxSteps
	}
	return t.r.cfg.MaxSteps
}

// finalAnswerPrompt is sent (without tools) when the step limit is reached.
const finalAnswerPrompt = "You have used every step available for this question. Do not call tools. " +
	"Answer now with what you have found, say plainly what is still uncertain or missing, and cite your sources."

// run executes the turn until an answer, the step limit, an error or a stop.
// A panic anywhere in the turn (a hook, a tool's own rule) is recovered
// into an error and done, never a crashed server.
func (t *turnRun) run(ctx context.Context) {
	log := t.log()
	defer func() {
		if p := recover(); p != nil {
			log.Error("turn panicked", "panic", p, "stack", string(debug.Stack()))
			t.closeCoordinator()
			t.emit(ctx, KindError, ErrorData{Message: "An internal error stopped this turn; it has been logged.", Class: "internal"})
			t.finish(ctx, "error")
		}
	}()
	t.emit(ctx, KindSession, SessionData{SessionID: t.session.ID, Title: t.newTitle})
	var reason string
	err := t.begin(ctx)
	if err == nil {
		reason, err = t.loop(ctx)
	}
	t.closeCoordinator()
	switch {
	case err != nil && ctx.Err() != nil:
		t.finish(ctx, stopReason(ctx))
	case err != nil:
		t.fail(ctx, err)
	default:
		t.finish(ctx, reason)
	}
	log.Debug("turn finished", "steps", t.steps)
}

// closeCoordinator stops and waits for the workers of a coordinator turn
// before it ends (their partial results stay recorded).
func (t *turnRun) closeCoordinator() {
	if t.coord != nil {
		t.coord.close()
	}
}

// begin fires the start hooks, loads the history and records the question.
func (t *turnRun) begin(ctx context.Context) error {
	if t.turn == 1 {
		t.hooks().Run(ctx, t.hookInput(HookSessionStart))
	}
	t.r.RefreshLimits(ctx)
	in := t.hookInput(HookUserPromptSubmit)
	in.Prompt = t.question
	t.hooks().Fire(ctx, in)
	history, err := t.history(ctx)
	if err != nil {
		return err
	}
	user := llm.Message{Role: llm.RoleUser, Content: t.question}
	if err := t.persist(ctx, 0, user); err != nil {
		return err
	}
	t.msgs = append([]llm.Message{{Role: llm.RoleSystem, Content: t.systemPrompt(ctx)}}, history...)
	t.msgs = append(t.msgs, user)
	if block, err := t.tasksBlock(ctx); err != nil {
		return err
	} else if block != "" {
		t.msgs = append(t.msgs, llm.Message{Role: llm.RoleUser, Content: block})
	}
	return nil
}

// history loads this agent's earlier messages, repaired (docs/features.md R8).
func (t *turnRun) history(ctx context.Context) ([]llm.Message, error) {
	rows, err := t.r.d.Store.AgentMessages(ctx, t.session.ID, t.agent)
	if err != nil {
		return nil, err
	}
	msgs := make([]llm.Message, 0, len(rows))
	for _, row := range rows {
		if row.Role == string(llm.RoleSystem) {
			continue // the system prompt is rebuilt every turn
		}
		m, err := MessageFromRow(row)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	repaired, n := RepairHistory(msgs)
	if n > 0 {
		t.log().Info("history repaired", "repairs", n)
	}
	return repaired, nil
}

// loop runs model steps until the model answers without tools or the step
// limit forces a final answer.
func (t *turnRun) loop(ctx context.Context) (string, error) {
	reason := "max_steps"
	for step := 1; step <= t.stepLimit(); step++ {
		t.steps = step
		nudge, err := t.manageContext(ctx, step)
		if err != nil {
			return "", err
		}
		before := t.tokens.Tokens(t.msgs)
		if len(t.notes) > 0 {
			nudge, t.notes = append(nudge, t.notes...), nil
		}
		resp, err := t.callWithRecovery(ctx, step, t.registry.Definitions(), nudge...)
		if err != nil {
			return "", err
		}
		if len(t.notes) > 0 && step < t.stepLimit() {
			continue // the output was cut: its calls were dropped, the model tries again
		}
		if len(resp.Message.ToolCalls) == 0 {
			t.answer = resp.Message.Content
			return "answer", nil
		}
		results := t.executeCalls(ctx, step, resp.Message.ToolCalls)
		t.msgs = append(t.msgs, results...)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if t.coord == nil && t.checkReturns(resp.Message.ToolCalls, results, before) {
			// (A coordinator's steps are waits on its workers: few new
			// tokens is no sign of a stall.)
			reason = "diminishing_returns" // C4: steps stopped adding anything
			break
		}
	}
	t.msgs = append(t.msgs, llm.Message{Role: llm.RoleUser, Content: finalAnswerPrompt})
	resp, err := t.callWithRecovery(ctx, t.steps+1, nil)
	if err != nil {
		return "", err
	}
	t.answer = resp.Message.Content
	return reason, nil
}

// checkReturns feeds the step to the C4 detector and reports whether the
// loop should stop calling tools.
func (t *turnRun) checkReturns(calls []llm.ToolCall, results []llm.Message, before int) bool {
	step := make([]compact.StepCall, len(calls))
	for i, c := range calls {
		step[i] = compact.StepCall{Name: c.Name, Arguments: c.Arguments}
		if i < len(results) {
			step[i].Output = results[i].Content
		}
	}
	now := t.tokens.Tokens(t.msgs)
	stop := t.returns.Check(step, now-before, compact.Trigger(now, t.budget()))
	if stop {
		t.log().Info("diminishing returns", "rule", t.returns.Reason(), "step", t.steps)
	}
	return stop
}

// callModel streams one completion, emitting thought/text events as they
// arrive, records the assistant message and usage, and returns it. Missing
// tool call ids were already filled by the client; empty ones are fixed
// here too (R13 id repair).
func (t *turnRun) callModel(ctx context.Context, step int, defs []llm.ToolDef, transient ...llm.Message) (llm.Response, error) {
	t.drainNotifications(ctx, step)
	buf := newDeltaBuffer(func(kind Kind, text string) { t.emit(ctx, kind, TextData{Text: text}) })
	msgs := t.msgs
	if len(transient) > 0 {
		// Nudges ride along with this request only.
		msgs = append(append(make([]llm.Message, 0, len(t.msgs)+len(transient)), t.msgs...), transient...)
	}
	sent := compact.Estimate(msgs) + compact.DefinitionTokens(defs)
	start := time.Now()
	resp, err := t.r.d.Model.Stream(ctx, llm.Request{Messages: msgs, Tools: defs, Thinking: t.thinking, MaxTokens: t.maxTokens}, buf.add)
	elapsed := time.Since(start)
	buf.flush()
	if err != nil {
		return llm.Response{}, err
	}
	if err := t.checkTruncation(ctx, step, sent, resp); err != nil {
		return llm.Response{}, err
	}
	resp.Message.Role = llm.RoleAssistant
	if len(defs) == 0 {
		// No tools were offered (the forced final answer): calls the model
		// makes anyway cannot run and must not enter the conversation.
		resp.Message.ToolCalls = nil
	}
	if t.dropCutCalls(ctx, step, &resp) {
		t.notes = append(t.notes, llm.Message{Role: llm.RoleUser, Content: outputCutNote})
	}
	resp.Message.ToolCalls, _ = uniqueCallIDs(resp.Message.ToolCalls)
	if err := t.persist(ctx, step, resp.Message); err != nil {
		return llm.Response{}, err
	}
	t.tokens.Observe(resp.Usage.PromptTokens, len(t.msgs))
	t.msgs = append(t.msgs, resp.Message)
	u := resp.Usage
	t.emit(ctx, KindUsage, UsageData{Model: resp.Model, PromptTokens: u.PromptTokens,
		CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens, Step: step, Retries: resp.Retries,
		ElapsedMS: elapsed.Milliseconds()})
	in := t.hookInput(HookStepComplete)
	in.Step, in.Model, in.PromptTokens, in.CompletionTokens = step, resp.Model, u.PromptTokens, u.CompletionTokens
	t.hooks().Run(ctx, in)
	return resp, nil
}

// finish ends the turn: session-stop hook, done event, trajectory. Once
// done is out the turn is "finishing": a new turn waits for it instead of
// being refused.
func (t *turnRun) finish(ctx context.Context, reason string) {
	if t.finished {
		return
	}
	t.finished = true
	in := t.hookInput(HookSessionStop)
	in.Message = reason
	t.hooks().Run(context.WithoutCancel(ctx), in)
	if t.handle != nil {
		t.r.markFinishing(t.handle)
	}
	t.emit(ctx, KindDone, DoneData{Reason: reason, Answer: t.answer, Steps: t.steps})
	t.writeTrajectory(context.WithoutCancel(ctx))
	if reason != "error" && reason != "interrupted" {
		t.startExtraction()
	}
	if reason == "answer" {
		t.startTitleProposal()
	}
}

// fail reports an error and ends the turn.
func (t *turnRun) fail(ctx context.Context, err error) {
	class := llm.ClassOf(err).String()
	var ie *InputError
	msg := "The model call failed: " + userMessage(err)
	if errors.As(err, &ie) {
		msg = ie.Error()
	}
	t.log().Warn("turn failed", "err", err, "class", class)
	t.emit(ctx, KindError, ErrorData{Message: msg, Class: class})
	t.finish(ctx, "error")
}

// userMessage is an error as the user sees it: the classified LLM message
// when there is one, a generic sentence otherwise.
func userMessage(err error) string {
	var le *llm.Error
	if errors.As(err, &le) {
		return fmt.Sprintf("%s (%s)", le.Message, le.Class)
	}
	return "an internal error occurred; it has been logged"
}

func stopReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), errUserStop) {
		return "cancelled"
	}
	return "interrupted"
}

// emit appends an event; a failure to record it is logged (the turn goes
// on: the conversation itself is persisted separately).
func (t *turnRun) emit(ctx context.Context, kind Kind, payload any) {
	if t.silent {
		return
	}
	e, err := t.r.d.Events.Append(ctx, t.session.ID, t.turn, t.agent, kind, payload)
	if err != nil {
		t.log().Error("recording event failed", "kind", kind, "err", err)
		return
	}
	if kind == KindSession {
		t.firstSeq = e.Seq // the turn's first event, emitted before any concurrency
	}
}

// persist stores one message of this turn. It outlives a cancelled turn:
// what happened is recorded even when the user stopped it.
func (t *turnRun) persist(ctx context.Context, step int, msgs ...llm.Message) error {
	rows := make([]*store.AgentMessage, 0, len(msgs))
	for _, m := range msgs {
		row, err := rowFromMessage(t.session.ID, t.turn, step, t.agent, m)
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	return t.r.d.Store.AppendAgentMessages(context.WithoutCancel(ctx), rows)
}

func (t *turnRun) hooks() *Hooks { return t.r.d.Hooks }

func (t *turnRun) hookInput(e HookEvent) HookInput {
	return HookInput{Event: e, SessionID: t.session.ID, UserID: t.userID, Turn: t.turn, Agent: t.agent}
}

func (t *turnRun) log() *slog.Logger {
	return t.r.d.Log.With("session", t.session.ID, "turn", t.turn, "agent", t.agent)
}

// budget is the context budget in force for this turn (C3, C7).
func (t *turnRun) budget() compact.Budget { return t.r.Limits().Budget }
