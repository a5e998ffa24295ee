// Package agent is the research agent runtime: the ReAct loop, the tool
// executor, permissions, hooks, events and persistence (docs/features.md §3).
package agent

import (
	"encoding/json"
	"fmt"
	"time"
)

// Kind is an event kind. The string values are the public names used as the
// SSE `event:` line and the `kind` field (docs/features.md R7): never rename them.
type Kind string

// Event kinds, docs/features.md R7.
const (
	KindSession           Kind = "session"
	KindThought           Kind = "thought"
	KindTextDelta         Kind = "text_delta"
	KindToolCall          Kind = "tool_call"
	KindToolProgress      Kind = "tool_progress"
	KindToolResult        Kind = "tool_result"
	KindAskUser           Kind = "ask_user"
	KindPermissionRequest Kind = "permission_request"
	KindCompaction        Kind = "compaction"
	KindUsage             Kind = "usage"
	KindError             Kind = "error"
	KindDone              Kind = "done"
	// Added kinds (docs/features.md §9: add, never rename).
	KindBackgroundTask Kind = "background_task" // a bg_task_run task changed state (T22)
	KindSubagent       Kind = "subagent"        // a sub-agent started or stopped (T21)
	KindWorker         Kind = "worker"          // a coordinator worker changed state (T25)
	KindWarning        Kind = "warning"         // something went wrong but the turn goes on (C12)
	KindTitle          Kind = "title"           // the model proposed the session's title after its first answer
)

// Event is one persisted, ordered runtime event. Data holds the kind's
// fields as a JSON object.
type Event struct {
	Seq       int64           `json:"seq"`
	SessionID string          `json:"-"`
	Kind      Kind            `json:"kind"`
	Turn      int             `json:"turn"`
	Agent     string          `json:"agent"`
	Data      json.RawMessage `json:"-"`
	// At is when the event was recorded (not part of the wire form; the
	// pages use it for durations).
	At time.Time `json:"-"`
}

// MarshalJSON renders the public wire form: one object with seq, kind,
// turn, agent and the kind's fields side by side.
func (e Event) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Seq   int64  `json:"seq"`
		Kind  Kind   `json:"kind"`
		Turn  int    `json:"turn"`
		Agent string `json:"agent"`
	}{e.Seq, e.Kind, e.Turn, e.Agent})
	if err != nil {
		return nil, err
	}
	data := e.Data
	if len(data) < 2 || data[0] != '{' {
		return nil, fmt.Errorf("agent: event %d data is not a JSON object", e.Seq)
	}
	if string(data) == "{}" {
		return head, nil
	}
	out := make([]byte, 0, len(head)+len(data))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	return append(out, data[1:]...), nil
}

// Decode unmarshals the event's fields into v (one of the payload types).
func (e Event) Decode(v any) error { return json.Unmarshal(e.Data, v) }

// Payloads: one struct per kind, with the public field names of docs/features.md R7.

// SessionData announces the session a stream belongs to.
type SessionData struct {
	SessionID string `json:"session_id"`
	// Title is set when this turn named the session after its question
	// (the session had no title).
	Title string `json:"title,omitempty"`
}

// TextData carries streamed text (Thought and TextDelta).
type TextData struct {
	Text string `json:"text"`
}

// ToolCallData announces a tool call.
type ToolCallData struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Step      int    `json:"step"`
}

// ToolProgressData reports progress of a running call.
type ToolProgressData struct {
	ID       string `json:"id"`
	Progress string `json:"progress"`
}

// ToolResultData is the outcome of a call.
type ToolResultData struct {
	ToolCallID string         `json:"tool_call_id"`
	Name       string         `json:"name"`
	Output     string         `json:"output"`
	IsError    bool           `json:"is_error"`
	Metadata   map[string]any `json:"metadata"`
	Step       int            `json:"step"`
	// ElapsedMS is how long the call ran.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Status is how the call ended, as in the audit log: ok, error,
	// denied, blocked, invalid, duplicate, timeout, cancelled, interrupted.
	Status string `json:"status,omitempty"`
}

// AskUserData is a question to the user (T19).
type AskUserData struct {
	QuestionID string   `json:"question_id"`
	Question   string   `json:"question"`
	Options    []string `json:"options,omitempty"`
	ExpiresAt  string   `json:"expires_at"` // RFC 3339
}

// PermissionRequestData asks the user to allow a call (R15).
type PermissionRequestData struct {
	RequestID  string `json:"request_id"`
	ToolCallID string `json:"tool_call_id"`
	Tool       string `json:"tool"`
	Arguments  string `json:"arguments"`
	Reason     string `json:"reason"`
}

// CompactionData reports a context compaction.
type CompactionData struct {
	Before int    `json:"before"`
	After  int    `json:"after"`
	Method string `json:"method"`
}

// UsageData reports token usage of one model call.
type UsageData struct {
	Model            string `json:"model"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	TotalTokens      int    `json:"total_tokens"`
	Step             int    `json:"step"`
	// Retries is how many failed attempts (rate limits, overloads) the
	// call retried before it answered.
	Retries int `json:"retries,omitempty"`
	// ElapsedMS is how long the call took, retries and waits included.
	ElapsedMS int64 `json:"elapsed_ms,omitempty"`
}

// ErrorData reports a failure that ended the turn or a step.
type ErrorData struct {
	Message string `json:"message"`
	Class   string `json:"class"`
}

// WarningData reports a problem the turn works around, shown on the
// timeline: Code names it ("prompt_truncated": the server reported far
// fewer prompt tokens than were sent, so it silently cut the beginning;
// "output_truncated": the model's output hit its length limit).
type WarningData struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// SentTokens and ReportedTokens compare the estimated prompt with the
	// server's prompt_tokens (prompt_truncated only).
	SentTokens     int `json:"sent_tokens,omitempty"`
	ReportedTokens int `json:"reported_tokens,omitempty"`
	// Window is the model's context window when known.
	Window int    `json:"window,omitempty"`
	Step   int    `json:"step"`
	Model  string `json:"model,omitempty"`
}

// DoneData ends a turn. Reason is "answer", "max_steps",
// "diminishing_returns", "cancelled", "error" or "interrupted".
type DoneData struct {
	Reason string `json:"reason"`
	Answer string `json:"answer,omitempty"`
	Steps  int    `json:"steps"`
}

// TitleData announces the session's new title. Source is "model" (the
// model proposed a shorter title after the first answer); the title a
// first question gives a session comes with that turn's session event
// (SessionData.Title).
type TitleData struct {
	Title  string `json:"title"`
	Source string `json:"source"`
}

// BackgroundTaskData reports a background task (T22): queued, running
// (with progress), then its final status and output.
type BackgroundTaskData struct {
	TaskID   string `json:"task_id"`
	Tool     string `json:"tool"`
	Status   string `json:"status"`
	Progress string `json:"progress,omitempty"`
	Output   string `json:"output,omitempty"`
	IsError  bool   `json:"is_error"`
}

// SubagentData reports a sub-agent (T21). Its own events carry its name in
// the event's agent field ("sub_<id>"); this one opens (status "running")
// and closes (any other status) its group. Parent is the agent that started
// it; Result is the activity log and conclusion it returned.
type SubagentData struct {
	Agent  string `json:"agent_name"`
	Parent string `json:"parent"`
	Task   string `json:"task"`
	Status string `json:"status"`
	Steps  int    `json:"steps,omitempty"`
	Result string `json:"result,omitempty"`
	// WorkerID is set when the sub-agent is a coordinator worker.
	WorkerID string `json:"worker_id,omitempty"`
}

// WorkerData reports a coordinator worker's state (T25): queued, running,
// done, failed, timeout, cancelled or interrupted.
type WorkerData struct {
	WorkerID string `json:"worker_id"`
	Agent    string `json:"agent_name"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Summary  string `json:"summary,omitempty"`
}
