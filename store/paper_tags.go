package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// ErrTooManyTags means a paper would carry more tags than allowed.
var ErrTooManyTags = errors.New("too many tags")

// AddPaperTags adds tags to paper id (tags it already has, compared
// case-insensitively, are kept as they are) and returns the paper's tags.
// Tags are stored as given: callers clean them (library.CleanTags). It
// fails with ErrNotFound when there is no such paper and with
// ErrTooManyTags (nothing added) when the paper would carry more than max.
func (s *Store) AddPaperTags(ctx context.Context, id int64, tags []string, max int) ([]string, error) {
	return s.editTags(ctx, id, func(tx *sqlx.Tx) error {
		for _, t := range tags {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO paper_tags (paper_id, tag) VALUES (?, ?)`, id, t); err != nil {
				return fmt.Errorf("store: add tag: %w", err)
			}
		}
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM paper_tags WHERE paper_id = ?`, id); err != nil {
			return fmt.Errorf("store: count tags: %w", err)
		}
		if n > max {
			return fmt.Errorf("store: paper %d: %w (at most %d)", id, ErrTooManyTags, max)
		}
		return nil
	})
}

// RemovePaperTag removes tag (case-insensitively) from paper id and
// returns the paper's tags; removing a tag it does not have is not an
// error. It fails with ErrNotFound when there is no such paper.
func (s *Store) RemovePaperTag(ctx context.Context, id int64, tag string) ([]string, error) {
	return s.editTags(ctx, id, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM paper_tags WHERE paper_id = ? AND tag = ?`, id, tag); err != nil {
			return fmt.Errorf("store: remove tag: %w", err)
		}
		return nil
	})
}

// SetPaperTags replaces paper id's tags with tags and returns them as
// stored. It fails with ErrNotFound when there is no such paper.
func (s *Store) SetPaperTags(ctx context.Context, id int64, tags []string) ([]string, error) {
	return s.editTags(ctx, id, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM paper_tags WHERE paper_id = ?`, id); err != nil {
			return fmt.Errorf("store: clear tags: %w", err)
		}
		for _, t := range tags {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO paper_tags (paper_id, tag) VALUES (?, ?)`, id, t); err != nil {
				return fmt.Errorf("store: set tag: %w", err)
			}
		}
		return nil
	})
}

// editTags runs edit in a transaction after checking the paper exists and
// returns the tags afterwards, sorted.
func (s *Store) editTags(ctx context.Context, id int64, edit func(tx *sqlx.Tx) error) ([]string, error) {
	var tags []string
	err := s.Tx(ctx, func(tx *sqlx.Tx) error {
		var one int
		if err := tx.GetContext(ctx, &one, `SELECT 1 FROM papers WHERE id = ?`, id); err != nil {
			return notFound(err, fmt.Sprintf("paper %d", id))
		}
		if err := edit(tx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE papers SET updated_at = ? WHERE id = ?`, s.Now(), id); err != nil {
			return fmt.Errorf("store: touch paper: %w", err)
		}
		if err := tx.SelectContext(ctx, &tags, `SELECT tag FROM paper_tags WHERE paper_id = ? ORDER BY tag`, id); err != nil {
			return fmt.Errorf("store: paper tags: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if tags == nil {
		tags = []string{}
	}
	return tags, nil
}

// LibraryTags returns every tag in the library with the number of papers
// carrying it, most used first.
func (s *Store) LibraryTags(ctx context.Context) ([]TagCount, error) {
	var out []TagCount
	if err := s.r.SelectContext(ctx, &out, `SELECT tag, COUNT(*) AS papers FROM paper_tags GROUP BY tag ORDER BY papers DESC, tag LIMIT 200`); err != nil {
		return nil, fmt.Errorf("store: library tags: %w", err)
	}
	return out, nil
}

// TagCount is a tag and how many papers carry it.
type TagCount struct {
	Tag    string `db:"tag" json:"tag"`
	Papers int    `db:"papers" json:"papers"`
}

// LibraryVersion returns the library's version: a number that grows with
// every write to the papers and their authors, keywords, tags, files and
// links, whichever code path made it (database triggers bump it, migration
// 0009). Caches of library pages key on it, so it is read on every list
// page: through a statement prepared once.
func (s *Store) LibraryVersion(ctx context.Context) (int64, error) {
	stmt, err := s.versionStmt(ctx)
	if err != nil {
		return 0, err
	}
	var v int64
	if err := stmt.GetContext(ctx, &v); err != nil {
		return 0, fmt.Errorf("store: library version: %w", err)
	}
	return v, nil
}

// versionStmt prepares the version query on first use (after migrations).
func (s *Store) versionStmt(ctx context.Context) (*sqlx.Stmt, error) {
	if stmt := s.version.Load(); stmt != nil {
		return stmt, nil
	}
	s.versionMu.Lock()
	defer s.versionMu.Unlock()
	if stmt := s.version.Load(); stmt != nil {
		return stmt, nil
	}
	stmt, err := s.r.PreparexContext(ctx, `SELECT version FROM library_version WHERE id = 1`)
	if err != nil {
		return nil, fmt.Errorf("store: library version: %w", err)
	}
	s.version.Store(stmt)
	return stmt, nil
}
