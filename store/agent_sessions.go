package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// AgentSession is one research conversation of a user (docs/features.md R8).
type AgentSession struct {
	ID        string    `db:"id" json:"id"`
	UserID    int64     `db:"user_id" json:"-"`
	Title     string    `db:"title" json:"title"`
	Model     string    `db:"model" json:"model"`
	TurnCount int       `db:"turn_count" json:"turn_count"`
	Summary   string    `db:"summary" json:"summary"`
	Metadata  string    `db:"metadata" json:"-"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
}

const agentSessionColumns = `id, user_id, title, model, turn_count, summary, metadata, created_at, updated_at`

// MaxSessionTitle bounds session titles (characters).
const MaxSessionTitle = 200

// CreateAgentSession creates a session owned by userID.
func (s *Store) CreateAgentSession(ctx context.Context, userID int64, title string) (AgentSession, error) {
	var a AgentSession
	now := s.Now()
	err := s.w.GetContext(ctx, &a, `INSERT INTO agent_sessions (id, user_id, title, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?) RETURNING `+agentSessionColumns, uuid.NewString(), userID, title, now, now)
	if err != nil {
		return AgentSession{}, fmt.Errorf("store: create agent session: %w", err)
	}
	return a, nil
}

// AgentSession returns the research session id if it belongs to userID;
// ErrNotFound otherwise (someone else's session is indistinguishable from
// none, S8). The user's MCP session is not a research session — no turns,
// messages, renaming or deleting — so it is not found here either; the
// audit page finds it with AuditSession.
func (s *Store) AgentSession(ctx context.Context, userID int64, id string) (AgentSession, error) {
	var a AgentSession
	err := s.r.GetContext(ctx, &a, `SELECT `+agentSessionColumns+` FROM agent_sessions WHERE id = ? AND user_id = ? AND kind = 'research'`, id, userID)
	if err != nil {
		return AgentSession{}, notFound(err, fmt.Sprintf("agent session %q", id))
	}
	return a, nil
}

// ListAgentSessions returns the user's research sessions, most recently
// active first (not the MCP session, see MCPSession).
func (s *Store) ListAgentSessions(ctx context.Context, userID int64, limit int) ([]AgentSession, error) {
	if limit <= 0 {
		limit = 200
	}
	var out []AgentSession
	err := s.r.SelectContext(ctx, &out, `SELECT `+agentSessionColumns+` FROM agent_sessions
		WHERE user_id = ? AND kind = 'research' ORDER BY updated_at DESC, id LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list agent sessions: %w", err)
	}
	return out, nil
}

// BeginAgentTurn increments the session's turn count, records the model and
// (when the session has none yet) a title, and returns the new turn number.
func (s *Store) BeginAgentTurn(ctx context.Context, id, model, title string) (int, error) {
	var turn int
	err := s.w.GetContext(ctx, &turn, `UPDATE agent_sessions
		SET turn_count = turn_count + 1, model = ?, updated_at = ?,
		    title = CASE WHEN title = '' THEN ? ELSE title END
		WHERE id = ? RETURNING turn_count`, model, s.Now(), title, id)
	if err != nil {
		return 0, notFound(err, fmt.Sprintf("begin turn in %q", id))
	}
	return turn, nil
}

// RenameAgentSession sets the title of the user's research session.
func (s *Store) RenameAgentSession(ctx context.Context, userID int64, id, title string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE agent_sessions SET title = ?, updated_at = ? WHERE id = ? AND user_id = ? AND kind = 'research'`,
		title, s.Now(), id, userID)
	if err != nil {
		return fmt.Errorf("store: rename agent session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: rename agent session %q: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteAgentSession deletes the user's research session and everything
// in it (the MCP session and its audit rows stay).
func (s *Store) DeleteAgentSession(ctx context.Context, userID int64, id string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM agent_sessions WHERE id = ? AND user_id = ? AND kind = 'research'`, id, userID)
	if err != nil {
		return fmt.Errorf("store: delete agent session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: delete agent session %q: %w", id, ErrNotFound)
	}
	return nil
}

// RetitleAgentSession sets the session's title to title if it is still
// from, and reports whether it did (a rename in between wins).
func (s *Store) RetitleAgentSession(ctx context.Context, id, from, title string) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE agent_sessions SET title = ? WHERE id = ? AND title = ?`, title, id, from)
	if err != nil {
		return false, fmt.Errorf("store: retitle agent session %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: retitle agent session %q: %w", id, err)
	}
	return n == 1, nil
}
