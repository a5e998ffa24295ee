package store

import (
	"context"
	"fmt"
	"os"
)

// Backup writes a consistent copy of the live database to dest with
// VACUUM INTO (docs/features.md O5). It runs on a read connection, so it does not block
// writers. dest must not exist yet.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("store: backup: %s already exists", dest)
	}
	if _, err := s.r.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("store: backup to %s: %w", dest, err)
	}
	return nil
}

// Size returns the database size in bytes (pages × page size).
func (s *Store) Size(ctx context.Context) (int64, error) {
	var n int64
	err := s.r.GetContext(ctx, &n, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`)
	if err != nil {
		return 0, fmt.Errorf("store: size: %w", err)
	}
	return n, nil
}
