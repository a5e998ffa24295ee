package store

import (
	"context"
	"fmt"
	"time"
)

// AuditEntry is one tool call in the audit log (docs/features.md R8).
type AuditEntry struct {
	ID            int64     `db:"id" json:"id"`
	SessionID     string    `db:"session_id" json:"session_id"`
	Turn          int       `db:"turn" json:"turn"`
	Step          int       `db:"step" json:"step"`
	AgentName     string    `db:"agent_name" json:"agent"`
	Tool          string    `db:"tool" json:"tool"`
	ToolCallID    string    `db:"tool_call_id" json:"tool_call_id"`
	Status        string    `db:"status" json:"status"`
	ElapsedMS     int64     `db:"elapsed_ms" json:"elapsed_ms"`
	OutputPreview string    `db:"output_preview" json:"output_preview"`
	CreatedAt     time.Time `db:"created_at" json:"created_at"`
}

// AppendAudit stores one audit row.
func (s *Store) AppendAudit(ctx context.Context, a *AuditEntry) error {
	a.CreatedAt = s.Now()
	err := s.w.GetContext(ctx, &a.ID, `INSERT INTO agent_audit_log (session_id, turn, step, agent_name, tool,
		tool_call_id, status, elapsed_ms, output_preview, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		a.SessionID, a.Turn, a.Step, a.AgentName, a.Tool, a.ToolCallID, a.Status, a.ElapsedMS, a.OutputPreview, a.CreatedAt)
	if err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	return nil
}

// AuditForSession returns a session's audit rows in order.
func (s *Store) AuditForSession(ctx context.Context, sessionID string) ([]AuditEntry, error) {
	var out []AuditEntry
	err := s.r.SelectContext(ctx, &out, `SELECT id, session_id, turn, step, agent_name, tool, tool_call_id, status,
		elapsed_ms, output_preview, created_at FROM agent_audit_log WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("store: audit: %w", err)
	}
	return out, nil
}
