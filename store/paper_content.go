package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// PaperContent is a paper's current parsed Markdown (docs/features.md T10, T11).
type PaperContent struct {
	PaperID  int64     `db:"paper_id" json:"paper_id"`
	Markdown string    `db:"markdown" json:"markdown"`
	Engine   string    `db:"engine" json:"engine"`
	Source   string    `db:"source" json:"source,omitempty"`
	Pages    int       `db:"pages" json:"pages,omitempty"`
	ParsedAt time.Time `db:"parsed_at" json:"parsed_at"`
}

// SetParseStatus records a paper's parse state and error text.
func (s *Store) SetParseStatus(ctx context.Context, id int64, status, errText string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE papers SET parse_status = ?, parse_error = ?, updated_at = ? WHERE id = ?`,
		status, errText, s.Now(), id)
	if err != nil {
		return fmt.Errorf("store: parse status: %w", err)
	}
	return nil
}

// SavePaperContent replaces the paper's parsed document and marks the
// paper parsed, in one transaction: readers see the old document or the
// new one, never a mix.
func (s *Store) SavePaperContent(ctx context.Context, c PaperContent) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		now := s.Now()
		_, err := tx.ExecContext(ctx, `INSERT INTO paper_content (paper_id, markdown, engine, source, pages, parsed_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (paper_id) DO UPDATE SET markdown = excluded.markdown,
			engine = excluded.engine, source = excluded.source, pages = excluded.pages, parsed_at = excluded.parsed_at`,
			c.PaperID, c.Markdown, c.Engine, c.Source, c.Pages, now)
		if err != nil {
			return fmt.Errorf("store: save paper content: %w", err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE papers SET parse_status = 'parsed', parse_error = '', updated_at = ? WHERE id = ?`, now, c.PaperID)
		if err != nil {
			return fmt.Errorf("store: save paper content: %w", err)
		}
		return nil
	})
}

// PaperContent returns the paper's parsed document, or ErrNotFound.
func (s *Store) PaperContent(ctx context.Context, paperID int64) (PaperContent, error) {
	var c PaperContent
	err := s.r.GetContext(ctx, &c, `SELECT paper_id, markdown, engine, source, pages, parsed_at FROM paper_content WHERE paper_id = ?`, paperID)
	if err != nil {
		return PaperContent{}, notFound(err, fmt.Sprintf("content of paper %d", paperID))
	}
	return c, nil
}
