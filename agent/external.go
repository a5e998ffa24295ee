package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
)

// External callers (the MCP server) use the agent's tools directly, outside
// any research turn: the same tool implementations, argument validation,
// PreToolUse hooks, permission rules, timeout, panic recovery and
// PostToolUse hooks (audit log, metrics, logs) as a turn's calls, but no
// events, no messages and no questions to the user.

// ExternalCall is one tool call from outside a research turn.
type ExternalCall struct {
	// UserID is the caller; tools act for this user.
	UserID int64
	// SessionID is the session the audit row belongs to (the user's MCP
	// session, store.MCPSession).
	SessionID string
	// Agent is the audit log's agent_name, e.g. MCPAgent.
	Agent string
	// Tool is the tool to run, normally from Tools().
	Tool tools.Tool
	// CallID identifies the call in the audit log.
	CallID string
	// Args are the JSON arguments; empty means {}.
	Args json.RawMessage
	// Progress receives the tool's progress lines; nil discards them.
	Progress func(text string)
}

// ExternalOutcome is what an external call produced.
type ExternalOutcome struct {
	// Result is the tool's result; IsError is set for every status but ok.
	Result tools.Result
	// Status is the audit status: ok, error, invalid, blocked, denied,
	// timeout or cancelled.
	Status string
	// Elapsed is the tool's running time (zero when it never ran).
	Elapsed time.Duration
}

// MCPAgent is the agent_name of calls made by MCP clients.
const MCPAgent = "mcp"

// Tools returns a fresh registry of the configured tools — the research
// agent's tool set without the orchestration tools a turn adds. Callers
// choose what they expose from it.
func (r *Runtime) Tools() *tools.Registry { return r.d.Registry() }

// ToolTimeout is the limit on one tool call (AGENT_TOOL_TIMEOUT_SECS).
func (r *Runtime) ToolTimeout() time.Duration { return r.cfg.ToolTimeout }

// RunExternal runs one tool call for an external client. Bad arguments, a
// hook's block and a denying permission rule come back as error results,
// like in a turn. A rule or hook that would ask the user is satisfied by
// the external client's own confirmation (MCP hosts ask their user before
// a tool call), so only Deny stops a call. It never returns a Go error: a
// failing tool becomes an error result and is logged.
func (r *Runtime) RunExternal(ctx context.Context, c ExternalCall) ExternalOutcome {
	args := c.Args
	if strings.TrimSpace(string(args)) == "" {
		args = json.RawMessage("{}")
	}
	name := c.Tool.Name()
	log := r.d.Log.With("agent", c.Agent, "tool", name, "tool_call_id", c.CallID, "user", c.UserID)
	progress, closeProgress := liveProgress(c.Progress)
	tc := &tools.Context{Services: r.d.Services, SessionID: c.SessionID, UserID: c.UserID, AgentName: c.Agent,
		ToolCallID: c.CallID, Silent: true, Log: log, Progress: progress}
	out := r.prepareExternal(ctx, c, tc, &args)
	if out.Status == "" {
		out = r.executeExternal(ctx, c.Tool, tc, args)
	}
	closeProgress() // a tool that outlives its call reports to no one
	r.finishExternal(ctx, c, args, out)
	return out
}

// prepareExternal validates the arguments and runs the PreToolUse hooks and
// permission rules; a non-empty Status means the call must not run. args
// may be replaced by a hook.
func (r *Runtime) prepareExternal(ctx context.Context, c ExternalCall, tc *tools.Context, args *json.RawMessage) ExternalOutcome {
	name := c.Tool.Name()
	if ctx.Err() != nil {
		return ExternalOutcome{Status: "cancelled", Result: tools.Errorf("Not run: the client stopped waiting before %s started.", name)}
	}
	if err := validateArgs(c.Tool, *args); err != nil {
		return ExternalOutcome{Status: "invalid", Result: tools.Errorf("Invalid arguments for %s: %v", name, err)}
	}
	in := HookInput{Event: HookPreToolUse, SessionID: c.SessionID, UserID: c.UserID, Agent: c.Agent,
		Tool: name, ToolCallID: c.CallID, Arguments: *args}
	var d HookDecision
	if r.d.Hooks != nil {
		d = r.d.Hooks.Run(ctx, in)
	}
	if d.Block {
		reason := d.Reason
		if reason == "" {
			reason = "a hook refused it"
		}
		return ExternalOutcome{Status: "blocked", Result: tools.Errorf("This call was blocked: %s.", strings.TrimSuffix(reason, "."))}
	}
	if len(d.MutatedInput) > 0 {
		if err := validateArgs(c.Tool, d.MutatedInput); err != nil {
			return ExternalOutcome{Status: "invalid", Result: tools.Errorf("A hook rewrote the arguments of %s into invalid ones: %v", name, err)}
		}
		*args = d.MutatedInput
	}
	if r.d.Perms != nil {
		decision, reason, err := r.d.Perms.Check(ctx, c.UserID, c.Tool, tc, *args, d.PermissionRequired)
		switch {
		case err != nil:
			tc.Log.Error("permission check failed", "err", err)
			return ExternalOutcome{Status: "denied", Result: tools.Errorf("The permission check failed, so %s was not run.", name)}
		case decision == tools.DecisionDeny:
			return ExternalOutcome{Status: "denied", Result: tools.Errorf("Permission denied: %s.", reason)}
		}
	}
	return ExternalOutcome{}
}

// executeExternal runs the tool with the tool timeout; a panic or Go error
// becomes an error result.
func (r *Runtime) executeExternal(ctx context.Context, tool tools.Tool, tc *tools.Context, args json.RawMessage) ExternalOutcome {
	runCtx, cancel := context.WithTimeout(ctx, r.cfg.ToolTimeout)
	defer cancel()
	start := time.Now()
	done := goExecute(runCtx, tool, tc, args, tc.Log)
	var o toolOutcome
	select {
	case o = <-done:
	case <-runCtx.Done():
		o.err = runCtx.Err()
		grace := time.NewTimer(toolStopGrace) // let it wind down, as in a turn
		select {
		case <-done:
		case <-grace.C:
		}
		grace.Stop()
	}
	elapsed := time.Since(start)
	switch {
	case o.err != nil && ctx.Err() != nil:
		return ExternalOutcome{Status: "cancelled", Elapsed: elapsed, Result: tools.Errorf("Cancelled: the client stopped waiting for %s.", tool.Name())}
	case o.err != nil && runCtx.Err() != nil:
		return ExternalOutcome{Status: "timeout", Elapsed: elapsed, Result: tools.Errorf("%s timed out after %s and was stopped.", tool.Name(), r.cfg.ToolTimeout)}
	case o.err != nil:
		tc.Log.Warn("tool failed", "err", o.err)
		return ExternalOutcome{Status: "error", Elapsed: elapsed, Result: tools.Errorf("%s failed: %v", tool.Name(), o.err)}
	case o.res.IsError:
		return ExternalOutcome{Status: "error", Elapsed: elapsed, Result: o.res}
	}
	return ExternalOutcome{Status: "ok", Elapsed: elapsed, Result: o.res}
}

// liveProgress wraps report so that it can be shut off: after the returned
// close function, calls are dropped, and none is still running when close
// returns. A nil report gives a nil function.
func liveProgress(report func(string)) (func(string), func()) {
	if report == nil {
		return nil, func() {}
	}
	var mu sync.Mutex
	closed := false
	return func(text string) {
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				report(text)
			}
		}, func() {
			mu.Lock()
			closed = true
			mu.Unlock()
		}
}

// finishExternal runs the PostToolUse (or PostToolUseFailure) hooks: the
// audit row, the metrics and the log.
func (r *Runtime) finishExternal(ctx context.Context, c ExternalCall, args json.RawMessage, out ExternalOutcome) {
	r.RecordExternal(ctx, ExternalRecord{UserID: c.UserID, SessionID: c.SessionID, Agent: c.Agent, Name: c.Tool.Name(),
		CallID: c.CallID, Args: args, Output: out.Result.Output, Status: out.Status, Elapsed: out.Elapsed})
}

// ExternalRecord is a finished external operation to audit and count.
type ExternalRecord struct {
	UserID    int64
	SessionID string
	Agent     string
	// Name is the tool, or for operations that are not tool calls a name
	// such as "read_resource" or "get_prompt".
	Name    string
	CallID  string
	Args    json.RawMessage
	Output  string
	Status  string // ok for success; anything else is a failure
	Elapsed time.Duration
}

// RecordExternal fires the PostToolUse hooks (PostToolUseFailure unless
// Status is ok) for an external operation, so it is written to the audit
// log and counted in the metrics like a turn's tool call. It is used for
// tool calls (by RunExternal) and for an MCP client's resource reads and
// prompt requests.
func (r *Runtime) RecordExternal(ctx context.Context, rec ExternalRecord) {
	if r.d.Hooks == nil {
		return
	}
	event := HookPostToolUse
	if rec.Status != "ok" {
		event = HookPostToolUseFailure
	}
	r.d.Hooks.Run(context.WithoutCancel(ctx), HookInput{Event: event, SessionID: rec.SessionID, UserID: rec.UserID,
		Agent: rec.Agent, Tool: rec.Name, ToolCallID: rec.CallID, Arguments: rec.Args, Output: rec.Output,
		IsError: rec.Status != "ok", Status: rec.Status, ElapsedMS: rec.Elapsed.Milliseconds()})
}

// Skills returns the skills library the runtime lists (nil when none).
func (r *Runtime) Skills() *skills.Library { return r.d.Skills }
