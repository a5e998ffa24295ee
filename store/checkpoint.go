package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// checkpointEvery is how often WAL pages are copied into the database file.
const checkpointEvery = time.Second

// startCheckpointer turns off SQLite's automatic checkpoint on the writer
// connection — which stalled every ~1,000th write for 15–20 ms while it
// copied the WAL — and instead runs passive checkpoints from a connection of
// their own, which never block the writer or readers.
func (s *Store) startCheckpointer(ctx context.Context, opt Options) error {
	ck, err := sqlx.Open("sqlite3", dsn(s.path, opt, false))
	if err != nil {
		return fmt.Errorf("store: open checkpointer: %w", err)
	}
	ck.SetMaxOpenConns(1)
	if err := ck.PingContext(ctx); err != nil {
		ck.Close()
		return fmt.Errorf("store: open checkpointer: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
		ck.Close()
		return fmt.Errorf("store: wal_autocheckpoint: %w", err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	s.ck, s.stopCk, s.ckFinished = ck, stop, make(chan struct{})
	go s.runCheckpoints(runCtx)
	return nil
}

// runCheckpoints checkpoints the WAL every second until ctx ends, and once
// more on the way out so a clean shutdown leaves a small WAL.
func (s *Store) runCheckpoints(ctx context.Context) {
	defer close(s.ckFinished)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			_, _ = s.ck.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
			return
		case <-t.C:
			// A busy database only means this round copies less; the next
			// one catches up.
			_, _ = s.ck.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
}

// Checkpoint runs one passive checkpoint now (tests, backups).
func (s *Store) Checkpoint(ctx context.Context) error {
	if _, err := s.ck.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
		return fmt.Errorf("store: checkpoint: %w", err)
	}
	return nil
}
