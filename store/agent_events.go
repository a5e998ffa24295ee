package store

import (
	"context"
	"fmt"
	"time"
)

// AgentEvent is one persisted runtime event (docs/features.md R7). Data is the JSON
// object of the kind's fields.
type AgentEvent struct {
	SessionID string    `db:"session_id"`
	Seq       int64     `db:"seq"`
	Turn      int       `db:"turn"`
	Agent     string    `db:"agent"`
	Kind      string    `db:"kind"`
	Data      string    `db:"data"`
	CreatedAt time.Time `db:"created_at"`
}

// AppendAgentEvent stores one event; the caller assigns Seq (one writer per
// session keeps the sequence gap-free).
func (s *Store) AppendAgentEvent(ctx context.Context, e *AgentEvent) error {
	e.CreatedAt = s.Now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO agent_events (session_id, seq, turn, agent, kind, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, e.SessionID, e.Seq, e.Turn, e.Agent, e.Kind, e.Data, e.CreatedAt)
	if err != nil {
		return fmt.Errorf("store: append agent event %s/%d: %w", e.SessionID, e.Seq, err)
	}
	return nil
}

// LastAgentEventSeq returns the highest sequence number of a session (0
// when it has no events).
func (s *Store) LastAgentEventSeq(ctx context.Context, sessionID string) (int64, error) {
	var n int64
	// The writer sees its own latest commit; readers may lag a transaction.
	err := s.w.GetContext(ctx, &n, `SELECT COALESCE(MAX(seq), 0) FROM agent_events WHERE session_id = ?`, sessionID)
	if err != nil {
		return 0, fmt.Errorf("store: last event seq: %w", err)
	}
	return n, nil
}

// AgentEventsAfter returns up to limit events of a session with seq > after,
// in order.
func (s *Store) AgentEventsAfter(ctx context.Context, sessionID string, after int64, limit int) ([]AgentEvent, error) {
	var out []AgentEvent
	err := s.r.SelectContext(ctx, &out, `SELECT session_id, seq, turn, agent, kind, data, created_at FROM agent_events
		WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`, sessionID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("store: agent events: %w", err)
	}
	return out, nil
}

// UnfinishedTurn identifies a turn that never emitted its "done" event.
type UnfinishedTurn struct {
	SessionID string `db:"id"`
	Turn      int    `db:"turn_count"`
}

// UnfinishedAgentTurns returns the sessions whose latest turn has no "done"
// event of the lead agent: turns cut short by a crash or a kill. (Events a
// lingering tool emits after done do not make a finished turn look open.)
func (s *Store) UnfinishedAgentTurns(ctx context.Context) ([]UnfinishedTurn, error) {
	var out []UnfinishedTurn
	err := s.r.SelectContext(ctx, &out, `SELECT s.id, s.turn_count FROM agent_sessions s
		WHERE s.turn_count > 0 AND NOT EXISTS (
			SELECT 1 FROM agent_events d
			WHERE d.session_id = s.id AND d.turn = s.turn_count AND d.kind = 'done' AND d.agent = 'lead')`)
	if err != nil {
		return nil, fmt.Errorf("store: unfinished turns: %w", err)
	}
	return out, nil
}
