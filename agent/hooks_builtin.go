package agent

import (
	"context"
	"log/slog"
	"sync"

	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/store"
)

// auditPreviewChars bounds the output preview kept in the audit log.
const auditPreviewChars = 500

// AuditHook writes one agent_audit_log row per finished tool call
// (PostToolUse and PostToolUseFailure).
func AuditHook(st *store.Store) Hook {
	return HookFunc(func(ctx context.Context, in HookInput) (HookDecision, error) {
		err := st.AppendAudit(context.WithoutCancel(ctx), &store.AuditEntry{
			SessionID: in.SessionID, Turn: in.Turn, Step: in.Step, AgentName: in.Agent, Tool: in.Tool,
			ToolCallID: in.ToolCallID, Status: in.Status, ElapsedMS: in.ElapsedMS,
			OutputPreview: textcut.Prefix(in.Output, auditPreviewChars),
		})
		return HookDecision{}, err
	})
}

// LogHook writes every lifecycle event to the structured log at debug level
// (tool failures at info).
func LogHook(log *slog.Logger) Hook {
	return HookFunc(func(ctx context.Context, in HookInput) (HookDecision, error) {
		level := slog.LevelDebug
		if in.Event == HookPostToolUseFailure {
			level = slog.LevelInfo
		}
		log.LogAttrs(ctx, level, "agent hook", slog.String("event", string(in.Event)),
			slog.String("session", in.SessionID), slog.Int("turn", in.Turn), slog.Int("step", in.Step),
			slog.String("agent", in.Agent), slog.String("tool", in.Tool), slog.String("status", in.Status))
		return HookDecision{}, nil
	})
}

// SessionMetrics are counters of one session (all turns so far in this
// process).
type SessionMetrics struct {
	Turns            int              `json:"turns"`
	Steps            int              `json:"steps"`
	PromptTokens     int              `json:"prompt_tokens"`
	CompletionTokens int              `json:"completion_tokens"`
	ToolCalls        map[string]int   `json:"tool_calls"`
	ToolMillis       map[string]int64 `json:"tool_ms"`
	ToolErrors       int              `json:"tool_errors"`
	Duplicates       int              `json:"duplicates"`
	Compactions      int              `json:"compactions"`
}

// Metrics is the built-in metrics hook. Safe for concurrent use.
type Metrics struct {
	mu       sync.Mutex
	sessions map[string]*SessionMetrics
}

// NewMetrics returns an empty metrics collector.
func NewMetrics() *Metrics { return &Metrics{sessions: map[string]*SessionMetrics{}} }

// Handle implements Hook.
func (m *Metrics) Handle(_ context.Context, in HookInput) (HookDecision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[in.SessionID]
	if s == nil {
		s = &SessionMetrics{ToolCalls: map[string]int{}, ToolMillis: map[string]int64{}}
		m.sessions[in.SessionID] = s
	}
	switch in.Event {
	case HookUserPromptSubmit:
		s.Turns++
	case HookStepComplete:
		s.Steps++
		s.PromptTokens += in.PromptTokens
		s.CompletionTokens += in.CompletionTokens
	case HookPostToolUse, HookPostToolUseFailure:
		s.ToolCalls[in.Tool]++
		s.ToolMillis[in.Tool] += in.ElapsedMS
		if in.Event == HookPostToolUseFailure {
			s.ToolErrors++
		}
		if in.Status == "duplicate" {
			s.Duplicates++
		}
	case HookPostCompact:
		s.Compactions++
	}
	return HookDecision{}, nil
}

// Session returns a copy of a session's counters.
func (m *Metrics) Session(id string) SessionMetrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return SessionMetrics{ToolCalls: map[string]int{}, ToolMillis: map[string]int64{}}
	}
	c := *s
	c.ToolCalls, c.ToolMillis = map[string]int{}, map[string]int64{}
	for k, v := range s.ToolCalls {
		c.ToolCalls[k] = v
	}
	for k, v := range s.ToolMillis {
		c.ToolMillis[k] = v
	}
	return c
}

// RegisterBuiltins adds the audit, metrics and log hooks.
func (h *Hooks) RegisterBuiltins(st *store.Store, m *Metrics, log *slog.Logger) {
	h.Register(HookPostToolUse, "audit", AuditHook(st))
	h.Register(HookPostToolUseFailure, "audit", AuditHook(st))
	for _, e := range AllHookEvents {
		h.Register(e, "metrics", m)
		h.Register(e, "log", LogHook(log))
	}
}
