package agent

import (
	"context"
	"log/slog"
	"maps"
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

// AgentTotals are the agent's counters over every session since the
// process started: what the built-in metrics hook counts, shown to admins
// (docs/features.md O4). A session's and a turn's own figures are counted from its
// stored events instead, so they survive restarts.
type AgentTotals struct {
	Turns            int
	Steps            int
	PromptTokens     int
	CompletionTokens int
	ToolCalls        map[string]int
	ToolMillis       map[string]int64
	ToolErrors       int
	Duplicates       int
	Compactions      int
	// MCPCalls counts the calls of MCP clients (agent MCPAgent): tool
	// calls, resource reads and prompt requests; MCPErrors those that failed.
	MCPCalls, MCPErrors int
}

// Metrics is the built-in metrics hook. Its memory is bounded by the
// number of tool names, not by sessions. Safe for concurrent use.
type Metrics struct {
	mu     sync.Mutex
	totals AgentTotals
}

// NewMetrics returns an empty metrics collector.
func NewMetrics() *Metrics {
	return &Metrics{totals: AgentTotals{ToolCalls: map[string]int{}, ToolMillis: map[string]int64{}}}
}

// Handle implements Hook.
func (m *Metrics) Handle(_ context.Context, in HookInput) (HookDecision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &m.totals
	switch in.Event {
	case HookUserPromptSubmit:
		t.Turns++
	case HookStepComplete:
		t.Steps++
		t.PromptTokens += in.PromptTokens
		t.CompletionTokens += in.CompletionTokens
	case HookPostToolUse, HookPostToolUseFailure:
		t.ToolCalls[in.Tool]++
		t.ToolMillis[in.Tool] += in.ElapsedMS
		if in.Event == HookPostToolUseFailure {
			t.ToolErrors++
		}
		if in.Status == "duplicate" {
			t.Duplicates++
		}
		if in.Agent == MCPAgent {
			t.MCPCalls++
			if in.Event == HookPostToolUseFailure {
				t.MCPErrors++
			}
		}
	case HookPostCompact:
		t.Compactions++
	}
	return HookDecision{}, nil
}

// Totals returns a copy of the counters.
func (m *Metrics) Totals() AgentTotals {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.totals
	c.ToolCalls, c.ToolMillis = maps.Clone(m.totals.ToolCalls), maps.Clone(m.totals.ToolMillis)
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
