package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
)

// MCPSessionTitle is the title of a user's MCP session (shown in the audit
// log).
const MCPSessionTitle = "MCP clients"

// MCPSession returns the user's MCP session, creating it on first use: the
// session every tool call of the user's MCP clients is audited in. It is
// not a research conversation, so ListAgentSessions and SearchHistory leave
// it out. Safe for concurrent use: two first calls at once get the same
// session.
func (s *Store) MCPSession(ctx context.Context, userID int64) (AgentSession, error) {
	var a AgentSession
	err := s.r.GetContext(ctx, &a, `SELECT `+agentSessionColumns+` FROM agent_sessions WHERE user_id = ? AND kind = 'mcp'`, userID)
	switch {
	case err == nil:
		return a, nil
	case !errors.Is(err, sql.ErrNoRows):
		return AgentSession{}, fmt.Errorf("store: mcp session: %w", err)
	}
	now := s.Now()
	if _, err := s.w.ExecContext(ctx, `INSERT INTO agent_sessions (id, user_id, title, kind, created_at, updated_at)
		VALUES (?, ?, ?, 'mcp', ?, ?) ON CONFLICT (user_id) WHERE kind = 'mcp' DO NOTHING`,
		uuid.NewString(), userID, MCPSessionTitle, now, now); err != nil {
		return AgentSession{}, fmt.Errorf("store: create mcp session: %w", err)
	}
	err = s.w.GetContext(ctx, &a, `SELECT `+agentSessionColumns+` FROM agent_sessions WHERE user_id = ? AND kind = 'mcp'`, userID)
	if err != nil {
		return AgentSession{}, notFound(err, "mcp session")
	}
	return a, nil
}

// AuditSession returns the user's session id of any kind — a research
// session or the MCP session — for filtering the audit log by it;
// ErrNotFound when the user has no such session.
func (s *Store) AuditSession(ctx context.Context, userID int64, id string) (AgentSession, error) {
	var a AgentSession
	err := s.r.GetContext(ctx, &a, `SELECT `+agentSessionColumns+` FROM agent_sessions WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return AgentSession{}, notFound(err, fmt.Sprintf("session %q", id))
	}
	return a, nil
}
