// Package tools defines what an agent tool is (docs/features.md R11), the registry that
// offers tools to the model (R12) and the load_tool meta-tool (T26).
// Families of tools live in sub-packages (fs/, astro/, self/, orchestrate/).
package tools

import (
	"context"
	"encoding/json"
	"log/slog"
)

// Tool is the minimum every tool implements. Execute receives arguments
// that already passed JSON and schema validation. A problem the model can
// act on (bad argument value, not found, refused) is returned as a Result
// with IsError set; a Go error means the tool itself failed unexpectedly and
// is also shown to the model as an error result, but logged as a fault.
type Tool interface {
	// Name is lower_snake_case and unique in a registry.
	Name() string
	// Description tells the model what the tool does and when to use it.
	Description() string
	// Parameters is the JSON Schema (type object) of the arguments.
	Parameters() json.RawMessage
	// Execute runs the tool.
	Execute(ctx context.Context, tc *Context, args json.RawMessage) (Result, error)
}

// Result is what a tool call produced.
type Result struct {
	// Output is the text the model sees.
	Output string `json:"output"`
	// IsError marks a failed call; the loop goes on and the model sees it.
	IsError bool `json:"is_error"`
	// Metadata is shown in the UI (e.g. a diff) but not sent to the model.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Errorf is a convenience for an error Result.
func Errorf(format string, a ...any) Result {
	return Result{Output: sprintf(format, a...), IsError: true}
}

// InterruptBehavior says what a user stop does to a running call (R13).
type InterruptBehavior int

const (
	// Cancel stops the call: its context is cancelled (the default).
	Cancel InterruptBehavior = iota
	// Block lets the call finish (writers), so nothing is left half-done.
	Block
)

// Optional capabilities. A tool implements the ones it needs; Caps reads
// them with the docs/features.md R11 defaults.

// Interrupter declares the interrupt behaviour (default Cancel).
type Interrupter interface{ InterruptBehavior() InterruptBehavior }

// ConcurrencySafe decides per call, from its arguments, whether the call may
// run in parallel with other safe calls (default false).
type ConcurrencySafe interface {
	IsConcurrencySafe(args json.RawMessage) bool
}

// PermissionChecker is a tool's own permission rule, consulted before the
// central rules (R15). Returning DecisionNone defers to them.
type PermissionChecker interface {
	CheckPermission(ctx context.Context, tc *Context, args json.RawMessage) PermissionDecision
}

// SiblingAborter marks tools whose failure cancels the rest of their batch
// (default false; true for download/parse).
type SiblingAborter interface{ CausesSiblingAbort() bool }

// Summarizer gives the one-line catalog summary (default: the first
// sentence of Description, at most 100 characters).
type Summarizer interface{ ClassifierSummary() string }

// ReadOnlyTool declares that the tool changes nothing (default false);
// in auto mode read-only tools never ask for permission.
type ReadOnlyTool interface{ IsReadOnly() bool }

// InteractiveTool waits for the user (ask_user); the tool timeout does not
// apply to it: it bounds its own wait (default false).
type InteractiveTool interface{ IsInteractive() bool }

// BoundedOutputTool caps and pages its own output, so the runtime does not
// move it to tool-results (read_file) (default false).
type BoundedOutputTool interface{ BoundsOwnOutput() bool }

// DeferredTool is listed in the catalog and loaded on demand by load_tool
// instead of being offered in the first prompt (default false).
type DeferredTool interface{ DeferLoading() bool }

// PermissionDecision is the outcome of a permission rule.
type PermissionDecision int

const (
	// DecisionNone means "no opinion": the next rule decides.
	DecisionNone PermissionDecision = iota
	// DecisionAllow runs the call.
	DecisionAllow
	// DecisionAsk asks the user.
	DecisionAsk
	// DecisionDeny refuses the call.
	DecisionDeny
)

// Context is what a running tool gets from the runtime besides arguments.
// Fields are set by the executor; tools must not retain it after Execute.
type Context struct {
	// Services gives access to application services (library, store, ...);
	// each tool family asserts the interface it needs from it.
	Services any
	// SessionID is the agent session the call belongs to.
	SessionID string
	// UserID owns the session.
	UserID int64
	// AgentName is "lead" or a sub-agent name.
	AgentName string
	// ToolCallID identifies this call.
	ToolCallID string
	// Silent is set for sub-agents: their tools do not address the user.
	Silent bool
	// Thinking is the turn's thinking flag.
	Thinking bool
	// Progress reports human-readable progress of this call (may be nil-safe
	// no-op); each report becomes a ToolProgress event.
	Progress func(text string)
	// Registry is the registry of the running agent (for load_tool).
	Registry *Registry
	// Ask shows the user a question card and waits for the answer (T19).
	// Nil for sub-agents, which never address the user.
	Ask func(ctx context.Context, question string, options []string) (string, error)
	// Subagent runs a sub-agent (T21) with task and extra instructions
	// guide, and returns its activity log and conclusion; an error when it
	// did not finish. Nil inside sub-agents (no nesting).
	Subagent func(ctx context.Context, task, guide string) (string, error)
	// RequestCompaction asks the runtime to compress the conversation
	// before its next model call (T16). Nil where not supported.
	RequestCompaction func()
	// Log is the runtime's logger with call attributes.
	Log *slog.Logger
}

// Report sends a progress line if a progress sink is set.
func (tc *Context) Report(text string) {
	if tc != nil && tc.Progress != nil {
		tc.Progress(text)
	}
}
