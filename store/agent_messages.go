package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// AgentMessage is one persisted conversation message (docs/features.md R8). ToolCalls
// is the JSON array of the assistant's calls ("" when none).
type AgentMessage struct {
	ID         int64     `db:"id"`
	SessionID  string    `db:"session_id"`
	Turn       int       `db:"turn"`
	Step       int       `db:"step"`
	AgentName  string    `db:"agent_name"`
	Role       string    `db:"role"`
	Content    string    `db:"content"`
	Thought    string    `db:"thought"`
	ToolCalls  *string   `db:"tool_calls"`
	ToolCallID *string   `db:"tool_call_id"`
	TokenCount int       `db:"token_count"`
	Metadata   string    `db:"metadata"`
	RawJSON    string    `db:"raw_json"`
	CreatedAt  time.Time `db:"created_at"`
}

const agentMessageColumns = `id, session_id, turn, step, agent_name, role, content, thought, tool_calls,
	tool_call_id, token_count, metadata, raw_json, created_at`

// AppendAgentMessages stores messages in order, in one transaction, and
// fills in their ids and creation times.
func (s *Store) AppendAgentMessages(ctx context.Context, msgs []*AgentMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	now := s.Now()
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, m := range msgs {
			if m.Metadata == "" {
				m.Metadata = "{}"
			}
			if m.RawJSON == "" {
				m.RawJSON = "{}"
			}
			m.CreatedAt = now
			err := tx.GetContext(ctx, &m.ID, `INSERT INTO agent_messages (session_id, turn, step, agent_name, role,
				content, thought, tool_calls, tool_call_id, token_count, metadata, raw_json, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				m.SessionID, m.Turn, m.Step, m.AgentName, m.Role, m.Content, m.Thought, m.ToolCalls,
				m.ToolCallID, m.TokenCount, m.Metadata, m.RawJSON, now)
			if err != nil {
				return fmt.Errorf("store: append agent message: %w", err)
			}
		}
		return nil
	})
}

// AgentMessages returns a session's messages of one agent ("lead" for the
// main agent) in order.
func (s *Store) AgentMessages(ctx context.Context, sessionID, agentName string) ([]AgentMessage, error) {
	var out []AgentMessage
	err := s.r.SelectContext(ctx, &out, `SELECT `+agentMessageColumns+` FROM agent_messages
		WHERE session_id = ? AND agent_name = ? ORDER BY id`, sessionID, agentName)
	if err != nil {
		return nil, fmt.Errorf("store: agent messages: %w", err)
	}
	return out, nil
}

// AllAgentMessages returns every message of a session (all agents) in order.
func (s *Store) AllAgentMessages(ctx context.Context, sessionID string) ([]AgentMessage, error) {
	var out []AgentMessage
	err := s.r.SelectContext(ctx, &out, `SELECT `+agentMessageColumns+` FROM agent_messages
		WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("store: agent messages: %w", err)
	}
	return out, nil
}
