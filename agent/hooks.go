package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// HookEvent is one of the 13 lifecycle events of docs/features.md R16.
type HookEvent string

// Hook events, docs/features.md R16.
const (
	HookSessionStart       HookEvent = "SessionStart"
	HookUserPromptSubmit   HookEvent = "UserPromptSubmit"
	HookPreToolUse         HookEvent = "PreToolUse"
	HookPostToolUse        HookEvent = "PostToolUse"
	HookPostToolUseFailure HookEvent = "PostToolUseFailure"
	HookPermissionRequest  HookEvent = "PermissionRequest"
	HookStepComplete       HookEvent = "StepComplete"
	HookPreCompact         HookEvent = "PreCompact"
	HookPostCompact        HookEvent = "PostCompact"
	HookSubagentStart      HookEvent = "SubagentStart"
	HookSubagentStop       HookEvent = "SubagentStop"
	HookNotification       HookEvent = "Notification"
	HookSessionStop        HookEvent = "SessionStop"
)

// AllHookEvents lists the events in lifecycle order.
var AllHookEvents = []HookEvent{HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPostToolUse,
	HookPostToolUseFailure, HookPermissionRequest, HookStepComplete, HookPreCompact, HookPostCompact,
	HookSubagentStart, HookSubagentStop, HookNotification, HookSessionStop}

// HookInput is what a hook receives; the JSON form is what command hooks get
// on stdin. Fields that do not apply to an event are empty.
type HookInput struct {
	Event      HookEvent       `json:"event"`
	SessionID  string          `json:"session_id"`
	UserID     int64           `json:"user_id"`
	Turn       int             `json:"turn"`
	Step       int             `json:"step,omitempty"`
	Agent      string          `json:"agent"`
	Prompt     string          `json:"prompt,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	Output     string          `json:"output,omitempty"`
	IsError    bool            `json:"is_error,omitempty"`
	// Status is the audit status of a finished call: ok, error, denied,
	// blocked, invalid, duplicate, timeout, cancelled, interrupted.
	Status    string `json:"status,omitempty"`
	ElapsedMS int64  `json:"elapsed_ms,omitempty"`
	// Usage and Model describe a completed step (StepComplete).
	Model            string `json:"model,omitempty"`
	PromptTokens     int    `json:"prompt_tokens,omitempty"`
	CompletionTokens int    `json:"completion_tokens,omitempty"`
	// Message carries free text (Notification, SessionStop reason).
	Message string `json:"message,omitempty"`
}

// HookDecision is a hook's answer. Only PreToolUse decisions change what
// happens; other events are observed.
type HookDecision struct {
	// Block refuses the tool call with Reason (shown to the model).
	Block  bool   `json:"block,omitempty"`
	Reason string `json:"reason,omitempty"`
	// MutatedInput replaces the call's arguments (validated again).
	MutatedInput json.RawMessage `json:"mutated_input,omitempty"`
	// AppendContext is added to the call's result for the model.
	AppendContext string `json:"append_context,omitempty"`
	// PermissionRequired makes the call ask the user even when rules allow.
	PermissionRequired bool `json:"permission_required,omitempty"`
}

// Hook handles lifecycle events. A returned error is logged and ignored:
// a failing hook never crashes a turn.
type Hook interface {
	Handle(ctx context.Context, in HookInput) (HookDecision, error)
}

// HookFunc adapts a function to Hook.
type HookFunc func(ctx context.Context, in HookInput) (HookDecision, error)

// Handle implements Hook.
func (f HookFunc) Handle(ctx context.Context, in HookInput) (HookDecision, error) { return f(ctx, in) }

type registeredHook struct {
	name  string
	tools map[string]bool // nil = every tool
	hook  Hook
}

// Hooks dispatches lifecycle events to registered hooks in registration
// order. Safe for concurrent use.
type Hooks struct {
	log   *slog.Logger
	mu    sync.RWMutex
	by    map[HookEvent][]registeredHook
	fired sync.WaitGroup // fire-and-forget runs, awaited by Wait
}

// NewHooks returns an empty dispatcher.
func NewHooks(log *slog.Logger) *Hooks {
	return &Hooks{log: log, by: map[HookEvent][]registeredHook{}}
}

// Register adds h for event. tools limits tool events to those tool names
// (none = all). name labels the hook in logs.
func (h *Hooks) Register(event HookEvent, name string, hook Hook, tools ...string) {
	r := registeredHook{name: name, hook: hook}
	if len(tools) > 0 {
		r.tools = map[string]bool{}
		for _, t := range tools {
			r.tools[t] = true
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.by[event] = append(h.by[event], r)
}

// Run calls every hook for in.Event and merges their decisions: any Block
// blocks (reasons joined), the last MutatedInput wins, AppendContext texts
// are joined, any PermissionRequired requires permission.
func (h *Hooks) Run(ctx context.Context, in HookInput) HookDecision {
	h.mu.RLock()
	list := h.by[in.Event]
	h.mu.RUnlock()
	var out HookDecision
	var reasons, extra []string
	for _, r := range list {
		if r.tools != nil && !r.tools[in.Tool] {
			continue
		}
		d, err := h.call(ctx, r, in)
		if err != nil {
			h.log.Warn("hook failed", "hook", r.name, "event", in.Event, "tool", in.Tool, "err", err)
			if in.Event == HookPreToolUse {
				// A policy check that cannot answer refuses the call
				// rather than letting it through unchecked.
				out.Block = true
				reasons = append(reasons, fmt.Sprintf("the check %s failed", r.name))
			}
			continue
		}
		if d.Block {
			out.Block = true
			if d.Reason != "" {
				reasons = append(reasons, d.Reason)
			}
		}
		if len(d.MutatedInput) > 0 {
			out.MutatedInput = d.MutatedInput
		}
		if d.AppendContext != "" {
			extra = append(extra, d.AppendContext)
		}
		out.PermissionRequired = out.PermissionRequired || d.PermissionRequired
	}
	out.Reason = strings.Join(reasons, "; ")
	out.AppendContext = strings.Join(extra, "\n")
	return out
}

// call runs one hook, turning a panic into an error.
func (h *Hooks) call(ctx context.Context, r registeredHook, in HookInput) (d HookDecision, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("hook panicked: %v", p)
		}
	}()
	return r.hook.Handle(ctx, in)
}

// Fire runs the hooks of an observe-only event without waiting (docs/features.md R16:
// UserPromptSubmit is fire-and-forget).
func (h *Hooks) Fire(ctx context.Context, in HookInput) {
	h.fired.Add(1)
	go func() {
		defer h.fired.Done()
		h.Run(context.WithoutCancel(ctx), in)
	}()
}

// Wait blocks until every fired hook has finished (shutdown).
func (h *Hooks) Wait() { h.fired.Wait() }
