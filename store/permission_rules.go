package store

import (
	"context"
	"fmt"
	"time"
)

// PermissionRule is a user's central rule for a tool (docs/features.md R15).
type PermissionRule struct {
	ID        int64     `db:"id" json:"id"`
	UserID    int64     `db:"user_id" json:"-"`
	Tool      string    `db:"tool" json:"tool"`
	Pattern   string    `db:"pattern" json:"pattern"`
	Decision  string    `db:"decision" json:"decision"` // allow, ask, deny
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// PermissionRules returns the user's rules.
func (s *Store) PermissionRules(ctx context.Context, userID int64) ([]PermissionRule, error) {
	var out []PermissionRule
	err := s.r.SelectContext(ctx, &out, `SELECT id, user_id, tool, pattern, decision, created_at
		FROM permission_rules WHERE user_id = ? ORDER BY tool, pattern`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: permission rules: %w", err)
	}
	return out, nil
}

// PutPermissionRule inserts or replaces the rule for (user, tool, pattern).
func (s *Store) PutPermissionRule(ctx context.Context, userID int64, tool, pattern, decision string) (PermissionRule, error) {
	var r PermissionRule
	err := s.w.GetContext(ctx, &r, `INSERT INTO permission_rules (user_id, tool, pattern, decision, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, tool, pattern) DO UPDATE SET decision = excluded.decision
		RETURNING id, user_id, tool, pattern, decision, created_at`, userID, tool, pattern, decision, s.Now())
	if err != nil {
		return PermissionRule{}, fmt.Errorf("store: put permission rule: %w", err)
	}
	return r, nil
}

// DeletePermissionRule removes one of the user's rules.
func (s *Store) DeletePermissionRule(ctx context.Context, userID, id int64) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM permission_rules WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return fmt.Errorf("store: delete permission rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: delete permission rule %d: %w", id, ErrNotFound)
	}
	return nil
}
