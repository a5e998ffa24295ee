package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
)

// callRun is one tool call on its way through the executor pipeline
// (docs/features.md R13). A call is resolved (has a result) either before running
// (invalid, duplicate, blocked, denied) or by running.
type callRun struct {
	idx      int
	call     llm.ToolCall
	tool     tools.Tool
	caps     tools.Capabilities
	args     json.RawMessage
	extra    string   // AppendContext from PreToolUse hooks
	repairs  []string // what was fixed before the call could run (see repairArgs)
	resolved bool
	res      tools.Result
	status   string
	elapsed  time.Duration
}

func (c *callRun) resolve(status string, res tools.Result) {
	c.resolved, c.status, c.res = true, status, res
}

// executeCalls runs the model's tool calls of one step and returns the
// tool messages in call order. It never fails: every problem becomes an
// error result the model sees.
func (t *turnRun) executeCalls(ctx context.Context, step int, calls []llm.ToolCall) []llm.Message {
	runs := make([]*callRun, len(calls))
	for i, c := range calls {
		runs[i] = &callRun{idx: i, call: c}
		t.validate(runs[i])
	}
	for _, c := range runs {
		t.emit(ctx, KindToolCall, ToolCallData{ID: c.call.ID, Name: c.call.Name, Arguments: c.call.Arguments, Step: step})
	}
	t.cancelUnstarted(ctx, runs)
	for _, c := range runs {
		if !c.resolved {
			t.preToolUse(ctx, step, c)
		}
	}
	for _, c := range runs {
		t.cancelUnstarted(ctx, runs)
		if !c.resolved {
			t.checkPermission(ctx, c)
		}
	}
	out := make([]llm.Message, len(runs))
	persisted := 0
	finishUpTo := func(n int) {
		for ; persisted < n; persisted++ {
			c := runs[persisted]
			out[persisted] = t.complete(ctx, step, c)
		}
	}
	var runnable []*callRun
	for _, c := range runs {
		if !c.resolved {
			runnable = append(runnable, c)
		}
	}
	safe := make([]bool, len(runnable))
	for i, c := range runnable {
		safe[i] = c.caps.ConcurrencySafe(c.args)
	}
	for _, batch := range Partition(safe) {
		group := make([]*callRun, len(batch))
		for i, j := range batch {
			group[i] = runnable[j]
		}
		t.cancelUnstarted(ctx, group)
		t.runBatch(ctx, step, group)
		finishUpTo(group[len(group)-1].idx + 1)
	}
	finishUpTo(len(runs))
	return out
}

// cancelUnstarted resolves every call not yet resolved as cancelled once
// the user has stopped the turn: Block means "finish what started", never
// "start after the stop".
func (t *turnRun) cancelUnstarted(ctx context.Context, runs []*callRun) {
	if ctx.Err() == nil {
		return
	}
	for _, c := range runs {
		if !c.resolved {
			c.resolve("cancelled", tools.Errorf("Not run: the user stopped the turn before %s started.", c.call.Name))
		}
	}
}

// validate resolves calls that cannot run: empty ids, unknown tools,
// repeated identical calls, and arguments that are not valid JSON or do not
// fit the schema.
func (t *turnRun) validate(c *callRun) {
	tool, ok := t.registry.Get(c.call.Name)
	if ok && !t.registry.Offered(c.call.Name) {
		// A catalog tool called without load_tool first (small models do
		// this): load it now rather than spend a step on a refusal. Its
		// arguments are still checked against its schema below.
		if err := t.registry.Load(c.call.Name); err != nil {
			c.resolve("invalid", tools.Errorf("Tool %q is not loaded yet. Load it first with load_tool.", c.call.Name))
			return
		}
		c.repairs = append(c.repairs, "loaded "+c.call.Name+" from the catalog")
	}
	if !ok {
		c.resolve("invalid", tools.Errorf("There is no tool named %q. Available tools: %s.", c.call.Name,
			strings.Join(t.offeredNames(), ", ")))
		return
	}
	c.tool, c.caps = tool, tools.Caps(tool)
	if t.dups.seen(c.call.Name, c.call.Arguments) {
		c.resolve("duplicate", tools.Errorf("You have made this exact call (%s with the same arguments) %d times in a row. "+
			"Its result will not change: use the earlier result or try something different.", c.call.Name, duplicateLimit))
		return
	}
	args := json.RawMessage(c.call.Arguments)
	if strings.TrimSpace(c.call.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	schema, err := tools.SchemaFor(tool)
	if err != nil {
		c.resolve("invalid", tools.Errorf("Invalid arguments for %s: the tool's schema is broken: %v", c.call.Name, err))
		return
	}
	if fixed, fixes := schema.Repair(args); len(fixes) > 0 {
		args = fixed
		c.repairs = append(c.repairs, fixes...)
	}
	if err := schema.Validate(args); err != nil {
		c.resolve("invalid", tools.Errorf("Invalid arguments for %s: %v. Expected arguments: %s", c.call.Name, err, schema.Shape()))
		return
	}
	c.args = args
}

// validateArgs checks arguments against the tool's compiled schema.
func validateArgs(tool tools.Tool, args json.RawMessage) error {
	schema, err := tools.SchemaFor(tool)
	if err != nil {
		return fmt.Errorf("the tool's schema is broken: %w", err)
	}
	return schema.Validate(args)
}

func (t *turnRun) offeredNames() []string {
	var names []string
	for _, d := range t.registry.Definitions() {
		names = append(names, d.Name)
	}
	return names
}

// preToolUse runs the PreToolUse hooks: block, mutate input, append context,
// require permission.
func (t *turnRun) preToolUse(ctx context.Context, step int, c *callRun) {
	in := t.hookInput(HookPreToolUse)
	in.Step, in.Tool, in.ToolCallID, in.Arguments = step, c.call.Name, c.call.ID, c.args
	d := t.hooks().Run(ctx, in)
	if d.Block {
		reason := d.Reason
		if reason == "" {
			reason = "a hook refused it"
		}
		c.resolve("blocked", tools.Errorf("This call was blocked: %s.", strings.TrimSuffix(reason, ".")))
		return
	}
	if len(d.MutatedInput) > 0 {
		if err := validateArgs(c.tool, d.MutatedInput); err != nil {
			c.resolve("invalid", tools.Errorf("A hook rewrote the arguments of %s into invalid ones: %v", c.call.Name, err))
			return
		}
		c.args = d.MutatedInput
	}
	c.extra = d.AppendContext
	if d.PermissionRequired {
		c.status = "ask"
	}
}

// runBatch runs one batch: its calls in parallel when there are several.
// A failed sibling-abort call cancels the others of the batch.
func (t *turnRun) runBatch(ctx context.Context, step int, batch []*callRun) {
	var pending []*callRun
	for _, c := range batch {
		if !c.resolved {
			pending = append(pending, c)
		}
	}
	batch = pending
	if len(batch) == 0 {
		return
	}
	batchCtx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	if len(batch) == 1 {
		t.runOne(ctx, batchCtx, abort, step, batch[0])
		return
	}
	var wg sync.WaitGroup
	for _, c := range batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.runOne(ctx, batchCtx, abort, step, c)
		}()
	}
	wg.Wait()
}

// errSiblingFailed is the cancellation cause of a sibling abort.
type errSiblingFailed struct{ name string }

func (e errSiblingFailed) Error() string { return e.name + " failed" }

// runOne runs a single call with its timeout and interrupt behaviour.
func (t *turnRun) runOne(turnCtx, batchCtx context.Context, abort context.CancelCauseFunc, step int, c *callRun) {
	runCtx := batchCtx
	if c.caps.Interrupt == tools.Block {
		runCtx = context.WithoutCancel(batchCtx) // writers finish what they started
	}
	cancel := context.CancelFunc(func() {})
	if !c.caps.Interactive {
		runCtx, cancel = context.WithTimeout(runCtx, t.r.cfg.ToolTimeout)
	}
	defer cancel()
	tc, closeTC := t.liveToolContext(turnCtx, c)
	defer closeTC() // a tool that outlives its call can no longer emit events
	start := time.Now()
	done := goExecute(withTurn(runCtx, t), c.tool, tc, c.args, t.log())
	select {
	case o := <-done:
		c.elapsed = time.Since(start)
		switch {
		case o.err != nil && runCtx.Err() != nil:
			t.resolveStopped(turnCtx, batchCtx, runCtx, c)
		case o.err != nil:
			t.log().Warn("tool failed", "tool", c.call.Name, "err", o.err)
			c.resolve("error", tools.Errorf("%s failed: %v", c.call.Name, o.err))
		case o.res.IsError:
			c.resolve("error", o.res)
		default:
			c.resolve("ok", o.res)
		}
	case <-runCtx.Done():
		// Give the tool a moment to wind down, so that what it records on
		// its way out (a sub-agent's closing event, a cleaned-up file)
		// comes before the turn's end. A tool that ignores its context is
		// answered without it after the grace; its late result is discarded.
		c.elapsed = time.Since(start)
		grace := time.NewTimer(toolStopGrace)
		select {
		case <-done:
		case <-grace.C:
		}
		grace.Stop()
		t.resolveStopped(turnCtx, batchCtx, runCtx, c)
	}
	if c.res.IsError && c.caps.SiblingAbort {
		abort(errSiblingFailed{c.call.Name})
	}
}

// resolveStopped explains why a call's context ended: the user's stop, a
// failed sibling, or the timeout.
func (t *turnRun) resolveStopped(turnCtx, batchCtx, runCtx context.Context, c *callRun) {
	var sib errSiblingFailed
	switch {
	case turnCtx.Err() != nil && c.caps.Interrupt != tools.Block:
		c.resolve("cancelled", tools.Errorf("Cancelled: the user stopped the turn while %s was running.", c.call.Name))
	case errors.As(context.Cause(batchCtx), &sib) && c.caps.Interrupt != tools.Block:
		c.resolve("cancelled", tools.Errorf("Cancelled because %s, which ran alongside it, failed.", sib.name))
	default:
		c.resolve("timeout", tools.Errorf("%s timed out after %s and was stopped.", c.call.Name, t.r.cfg.ToolTimeout))
	}
}

// toolContext builds what the tool sees (for permission rules: no events).
func (t *turnRun) toolContext(ctx context.Context, c *callRun) *tools.Context {
	tc, closeTC := t.liveToolContext(ctx, c)
	closeTC()
	return tc
}

// liveToolContext builds what a running tool sees. Its progress and
// question channels work until the returned close function is called; a
// tool that ignores its context and lingers cannot emit events into later
// turns.
func (t *turnRun) liveToolContext(ctx context.Context, c *callRun) (*tools.Context, func()) {
	var closed atomic.Bool
	ask := t.askFunc(ctx)
	tc := &tools.Context{
		Services: t.r.d.Services, SessionID: t.session.ID, UserID: t.userID, AgentName: t.agent,
		ToolCallID: c.call.ID, Thinking: t.thinking, Registry: t.registry,
		Log: t.log().With("tool", c.call.Name, "tool_call_id", c.call.ID),
		Progress: func(text string) {
			if !closed.Load() {
				t.emit(ctx, KindToolProgress, ToolProgressData{ID: c.call.ID, Progress: text})
			}
		},
		RequestCompaction: func() { t.compactRequested.Store(true) },
		Ask: func(callCtx context.Context, q string, options []string) (string, error) {
			if closed.Load() {
				return "", errors.New("the tool call has ended")
			}
			return ask(callCtx, q, options)
		},
	}
	switch {
	case t.silent:
		tc.Silent, tc.Ask, tc.RequestCompaction = true, nil, nil
	case t.child:
		tc.Silent, tc.Ask = true, nil
	default:
		tc.Subagent = func(ctx context.Context, task, guide string) (string, error) {
			res := t.runSubagent(ctx, subagentSpec{task: task, guide: guide})
			if res.status != "done" {
				return res.Text(), fmt.Errorf("the sub-agent ended %s", res.status)
			}
			return res.Text(), nil
		}
	}
	return tc, func() { closed.Store(true) }
}

// complete finishes a resolved call: large output persisted, PostToolUse
// hooks (audit), ToolResult event, message stored.
func (t *turnRun) complete(ctx context.Context, step int, c *callRun) llm.Message {
	output := c.res.Output
	if c.extra != "" {
		output += "\n\n" + c.extra
	}
	meta := c.res.Metadata
	limit := t.r.Limits().MaxToolOutput
	if c.caps.BoundedOutput {
		limit = math.MaxInt // it pages itself; a stub would hide what it read
	}
	stub, path, err := persistLargeOutput(t.r.cfg.DataDir, t.session.ID, c.call.ID, output, limit)
	if err != nil {
		t.log().Error("persisting a large output failed", "err", err)
		stub = textcut.Prefix(output, t.r.Limits().MaxToolOutput) + "\n[output truncated]"
	} else if path != "" {
		meta = withMeta(meta, "persisted_path", path)
	}
	if len(c.repairs) > 0 {
		meta = withMeta(meta, "repaired", c.repairs)
	}
	event := HookPostToolUse
	if c.res.IsError {
		event = HookPostToolUseFailure
	}
	in := t.hookInput(event)
	in.Step, in.Tool, in.ToolCallID, in.Arguments = step, c.call.Name, c.call.ID, c.args
	in.Output, in.IsError, in.Status, in.ElapsedMS = output, c.res.IsError, c.status, c.elapsed.Milliseconds()
	t.hooks().Run(context.WithoutCancel(ctx), in)
	t.emit(ctx, KindToolResult, ToolResultData{ToolCallID: c.call.ID, Name: c.call.Name, Output: stub,
		IsError: c.res.IsError, Metadata: meta, Step: step, ElapsedMS: c.elapsed.Milliseconds(), Status: c.status})
	if c.call.Name == "todo_write" && !c.res.IsError {
		t.lastTodoStep = step
	}
	msg := llm.Message{Role: llm.RoleTool, ToolCallID: c.call.ID, Name: c.call.Name, Content: stub}
	if err := t.persist(ctx, step, msg); err != nil {
		t.log().Error("persisting a tool result failed", "err", err)
	}
	return msg
}

func withMeta(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for kk, vv := range m {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// duplicateLimit: the same call this many times in a row is refused.
const duplicateLimit = 3

// toolStopGrace is how long a stopped or timed-out call waits for its tool
// to return before answering without it.
const toolStopGrace = time.Second

// dupDetector spots the same name+arguments repeated in a row (R13).
type dupDetector struct {
	mu    sync.Mutex
	last  string
	count int
}

// seen records a call and reports whether it is the duplicateLimit-th
// identical call in a row.
func (d *dupDetector) seen(name, args string) bool {
	sig := name + "\x00" + argumentSummary(json.RawMessage(args))
	d.mu.Lock()
	defer d.mu.Unlock()
	if sig == d.last {
		d.count++
	} else {
		d.last, d.count = sig, 1
	}
	return d.count >= duplicateLimit
}
