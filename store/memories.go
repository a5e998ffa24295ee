package store

import (
	"context"
	"fmt"
	"time"
)

// Memory is one indexed long-term memory of a user (docs/features.md C11).
type Memory struct {
	ID        int64     `db:"id" json:"id"`
	UserID    int64     `db:"user_id" json:"-"`
	Kind      string    `db:"kind" json:"kind"`
	Content   string    `db:"content" json:"content"`
	File      string    `db:"file" json:"-"`
	Source    string    `db:"source" json:"source"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
}

const memoryColumns = `id, user_id, kind, content, file, source, created_at, updated_at`

// CreateMemory indexes a memory whose file the caller has written.
func (s *Store) CreateMemory(ctx context.Context, m Memory) (Memory, error) {
	now := s.Now()
	var out Memory
	err := s.w.GetContext(ctx, &out, `INSERT INTO memories (user_id, kind, content, file, source, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING `+memoryColumns, m.UserID, m.Kind, m.Content, m.File, m.Source, now, now)
	if err != nil {
		return Memory{}, fmt.Errorf("store: create memory: %w", err)
	}
	return out, nil
}

// Memories returns the user's memories, most recently updated first
// (limit ≤ 0: all).
func (s *Store) Memories(ctx context.Context, userID int64, limit int) ([]Memory, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []Memory
	err := s.r.SelectContext(ctx, &out, `SELECT `+memoryColumns+` FROM memories WHERE user_id = ?
		ORDER BY updated_at DESC, id DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: memories: %w", err)
	}
	return out, nil
}

// Memory returns one of the user's memories or ErrNotFound.
func (s *Store) Memory(ctx context.Context, userID, id int64) (Memory, error) {
	var m Memory
	err := s.r.GetContext(ctx, &m, `SELECT `+memoryColumns+` FROM memories WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return Memory{}, notFound(err, fmt.Sprintf("memory %d", id))
	}
	return m, nil
}

// UpdateMemory changes a memory's kind and content.
func (s *Store) UpdateMemory(ctx context.Context, userID, id int64, kind, content string) (Memory, error) {
	var m Memory
	err := s.w.GetContext(ctx, &m, `UPDATE memories SET kind = ?, content = ?, updated_at = ?
		WHERE id = ? AND user_id = ? RETURNING `+memoryColumns, kind, content, s.Now(), id, userID)
	if err != nil {
		return Memory{}, notFound(err, fmt.Sprintf("update memory %d", id))
	}
	return m, nil
}

// DeleteMemory removes a memory's index row and returns it (so the caller
// can remove its file).
func (s *Store) DeleteMemory(ctx context.Context, userID, id int64) (Memory, error) {
	var m Memory
	err := s.w.GetContext(ctx, &m, `DELETE FROM memories WHERE id = ? AND user_id = ? RETURNING `+memoryColumns, id, userID)
	if err != nil {
		return Memory{}, notFound(err, fmt.Sprintf("delete memory %d", id))
	}
	return m, nil
}
