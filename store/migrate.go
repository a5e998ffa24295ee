package store

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads NNNN_name.sql files from fsys, sorted by version.
// Duplicate or malformed version numbers are an error.
func LoadMigrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: list migrations: %w", err)
	}
	var out []Migration
	seen := map[int]string{}
	for _, name := range names {
		num, rest, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q: name must be NNNN_name.sql", name)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("store: migrations %q and %q share version %d", prev, name, v)
		}
		seen[v] = name
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %q: %w", name, err)
		}
		out = append(out, Migration{Version: v, Name: strings.TrimSuffix(rest, ".sql"), SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Migrate applies, in order and each in its own transaction, every migration
// from fsys that the database has not recorded yet. It returns how many it
// applied. Running it again is a no-op.
func (s *Store) Migrate(ctx context.Context, fsys fs.FS) (int, error) {
	migs, err := LoadMigrations(fsys)
	if err != nil {
		return 0, err
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TIMESTAMP NOT NULL)`); err != nil {
		return 0, fmt.Errorf("store: create schema_migrations: %w", err)
	}
	var applied []int
	if err := s.w.SelectContext(ctx, &applied, `SELECT version FROM schema_migrations`); err != nil {
		return 0, fmt.Errorf("store: read schema_migrations: %w", err)
	}
	done := map[int]bool{}
	for _, v := range applied {
		done[v] = true
	}
	n := 0
	for _, m := range migs {
		if done[m.Version] {
			continue
		}
		err := s.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.Version, m.Name, s.Now())
			return err
		})
		if err != nil {
			return n, fmt.Errorf("store: apply migration %04d_%s: %w", m.Version, m.Name, err)
		}
		n++
	}
	return n, nil
}

// SchemaVersion returns the highest applied migration version (0 if none).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.GetContext(ctx, &v, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}
