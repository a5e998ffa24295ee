package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// AgentTask is one entry of a session's task list (docs/features.md T15).
type AgentTask struct {
	SessionID string    `db:"session_id" json:"-"`
	TaskID    string    `db:"task_id" json:"id"`
	Subject   string    `db:"subject" json:"subject"`
	Status    string    `db:"status" json:"status"`
	BlockedBy []string  `db:"-" json:"blocked_by"`
	Position  int       `db:"position" json:"-"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
}

type taskRow struct {
	AgentTask
	BlockedByJSON string `db:"blocked_by"`
}

// ReplaceAgentTasks replaces a session's task list, in one transaction.
func (s *Store) ReplaceAgentTasks(ctx context.Context, sessionID string, tasks []AgentTask) error {
	now := s.Now()
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_tasks WHERE session_id = ?`, sessionID); err != nil {
			return fmt.Errorf("store: replace tasks: %w", err)
		}
		for i, t := range tasks {
			blocked, err := json.Marshal(nonNil(t.BlockedBy))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO agent_tasks (session_id, task_id, subject, status, blocked_by, position, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, sessionID, t.TaskID, t.Subject, t.Status, string(blocked), i, now); err != nil {
				return fmt.Errorf("store: insert task %q: %w", t.TaskID, err)
			}
		}
		return nil
	})
}

// AgentTasks returns a session's task list in order.
func (s *Store) AgentTasks(ctx context.Context, sessionID string) ([]AgentTask, error) {
	var rows []taskRow
	err := s.r.SelectContext(ctx, &rows, `SELECT session_id, task_id, subject, status, blocked_by, position, updated_at
		FROM agent_tasks WHERE session_id = ? ORDER BY position`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("store: tasks: %w", err)
	}
	out := make([]AgentTask, len(rows))
	for i, r := range rows {
		out[i] = r.AgentTask
		if err := json.Unmarshal([]byte(r.BlockedByJSON), &out[i].BlockedBy); err != nil {
			return nil, fmt.Errorf("store: task %q blocked_by: %w", r.TaskID, err)
		}
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
