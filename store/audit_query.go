package store

import (
	"context"
	"fmt"
)

// AuditStatuses are the statuses an audit row can have (agent_audit_log).
var AuditStatuses = []string{"ok", "error", "denied", "blocked", "invalid", "duplicate", "timeout", "cancelled", "interrupted"}

// AuditFilter selects audit rows. Empty fields do not filter; UserID 0
// means every user's sessions (admins only: the caller decides).
type AuditFilter struct {
	UserID    int64
	SessionID string
	Tool      string
	Status    string
	Limit     int // 1..500; 50 when out of range
	Offset    int
}

// AuditRow is an audit entry with its session's title and owner.
type AuditRow struct {
	AuditEntry
	SessionTitle string `db:"session_title" json:"session_title"`
	Username     string `db:"username" json:"username"`
}

// QueryAudit returns the audit rows matching f, newest first, and whether
// more rows follow the page.
func (s *Store) QueryAudit(ctx context.Context, f AuditFilter) ([]AuditRow, bool, error) {
	if f.Limit < 1 || f.Limit > 500 {
		f.Limit = 50
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	var out []AuditRow
	err := s.r.SelectContext(ctx, &out, `SELECT a.id, a.session_id, a.turn, a.step, a.agent_name, a.tool,
		a.tool_call_id, a.status, a.elapsed_ms, a.output_preview, a.created_at,
		s.title AS session_title, u.username AS username
		FROM agent_audit_log a
		JOIN agent_sessions s ON s.id = a.session_id
		JOIN users u ON u.id = s.user_id
		WHERE (? = 0 OR s.user_id = ?) AND (? = '' OR a.session_id = ?)
		  AND (? = '' OR a.tool = ?) AND (? = '' OR a.status = ?)
		ORDER BY a.id DESC LIMIT ? OFFSET ?`,
		f.UserID, f.UserID, f.SessionID, f.SessionID, f.Tool, f.Tool, f.Status, f.Status, f.Limit+1, f.Offset)
	if err != nil {
		return nil, false, fmt.Errorf("store: query audit: %w", err)
	}
	more := len(out) > f.Limit
	if more {
		out = out[:f.Limit]
	}
	return out, more, nil
}

// AuditTools returns the tool names in the audit rows of userID's sessions
// (every user's when userID is 0), sorted.
func (s *Store) AuditTools(ctx context.Context, userID int64) ([]string, error) {
	var out []string
	err := s.r.SelectContext(ctx, &out, `SELECT DISTINCT a.tool FROM agent_audit_log a
		JOIN agent_sessions s ON s.id = a.session_id
		WHERE (? = 0 OR s.user_id = ?) ORDER BY a.tool`, userID, userID)
	if err != nil {
		return nil, fmt.Errorf("store: audit tools: %w", err)
	}
	return out, nil
}
