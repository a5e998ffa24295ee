package store

import (
	"context"
	"fmt"
	"time"
)

// PaperNote is a user's highlight or note on a paper (docs/features.md T14). The
// anchor is Quote with Prefix and Suffix context as they appear in the
// reader's text; Position is the quote's character offset there when
// known (-1 otherwise), a hint for telling repeated quotes apart.
type PaperNote struct {
	ID        int64     `db:"id" json:"id"`
	UserID    int64     `db:"user_id" json:"-"`
	PaperID   int64     `db:"paper_id" json:"paper_id"`
	Kind      string    `db:"kind" json:"kind"`
	Quote     string    `db:"quote" json:"quote"`
	Prefix    string    `db:"prefix" json:"prefix,omitempty"`
	Suffix    string    `db:"suffix" json:"suffix,omitempty"`
	Position  int       `db:"position" json:"position"`
	Body      string    `db:"body" json:"body"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
	// PaperTitle is filled by SearchNotes and RecentNotes.
	PaperTitle string `db:"paper_title" json:"paper_title,omitempty"`
}

const (
	noteColumns    = `id, user_id, paper_id, kind, quote, prefix, suffix, position, body, created_at, updated_at`
	noteColumnsOfN = `n.id, n.user_id, n.paper_id, n.kind, n.quote, n.prefix, n.suffix, n.position, n.body, n.created_at, n.updated_at`
)

// CreateNote stores a note.
func (s *Store) CreateNote(ctx context.Context, n PaperNote) (PaperNote, error) {
	now := s.Now()
	var out PaperNote
	err := s.w.GetContext(ctx, &out, `INSERT INTO paper_notes (user_id, paper_id, kind, quote, prefix, suffix, position, body, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+noteColumns,
		n.UserID, n.PaperID, n.Kind, n.Quote, n.Prefix, n.Suffix, n.Position, n.Body, now, now)
	if err != nil {
		return PaperNote{}, fmt.Errorf("store: create note: %w", err)
	}
	return out, nil
}

// PaperNotes returns the user's notes on a paper, oldest first.
func (s *Store) PaperNotes(ctx context.Context, userID, paperID int64) ([]PaperNote, error) {
	var out []PaperNote
	err := s.r.SelectContext(ctx, &out, `SELECT `+noteColumns+` FROM paper_notes WHERE user_id = ? AND paper_id = ? ORDER BY id`, userID, paperID)
	if err != nil {
		return nil, fmt.Errorf("store: paper notes: %w", err)
	}
	return out, nil
}

// DeleteNote removes one of the user's notes on paperID; ErrNotFound when
// the user has no such note on that paper.
func (s *Store) DeleteNote(ctx context.Context, userID, paperID, id int64) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM paper_notes WHERE id = ? AND user_id = ? AND paper_id = ?`, id, userID, paperID)
	if err != nil {
		return fmt.Errorf("store: delete note: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: note %d: %w", id, ErrNotFound)
	}
	return nil
}

// SearchNotes searches the user's notes (quote and text), best first. An
// empty or punctuation-only query returns nothing.
func (s *Store) SearchNotes(ctx context.Context, userID int64, query string, limit int) ([]PaperNote, error) {
	match := FTSQuery(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var out []PaperNote
	err := s.r.SelectContext(ctx, &out, `SELECT `+noteColumnsOfN+`, p.title AS paper_title
		FROM paper_notes_fts JOIN paper_notes n ON n.id = paper_notes_fts.rowid JOIN papers p ON p.id = n.paper_id
		WHERE paper_notes_fts MATCH ? AND n.user_id = ? ORDER BY bm25(paper_notes_fts) LIMIT ?`, match, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search notes: %w", err)
	}
	return out, nil
}

// RecentNotes returns the user's latest notes and highlights on any paper,
// newest first, with their papers' titles (limit ≤ 0 or > 200: 50).
func (s *Store) RecentNotes(ctx context.Context, userID int64, limit int) ([]PaperNote, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var out []PaperNote
	err := s.r.SelectContext(ctx, &out, `SELECT `+noteColumnsOfN+`, p.title AS paper_title
		FROM paper_notes n JOIN papers p ON p.id = n.paper_id
		WHERE n.user_id = ? ORDER BY n.updated_at DESC, n.id DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: recent notes: %w", err)
	}
	return out, nil
}
