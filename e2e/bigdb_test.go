package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver, as the server uses it
)

const (
	// bigDBName names the cached 1 GiB data directory under os.TempDir().
	// Delete that directory to rebuild it.
	bigDBName = "astro-bench-1gb"
	// bigDBSize is the minimum size of the cached database file.
	bigDBSize = 1 << 30
	// fillerBlob and fillerPerTx shape the filler rows: 1 MiB of random
	// bytes each, committed 128 at a time.
	fillerBlob  = 1 << 20
	fillerPerTx = 128
)

// bigDataDir returns a DATA_DIR whose astroresearch.db is migrated by the
// server and then grown to at least 1 GiB with a bench_filler table. It is
// built once under os.TempDir() and reused while the file is big enough;
// a build that fails half-way leaves nothing behind.
func bigDataDir(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), bigDBName)
	if fi, err := os.Stat(filepath.Join(dir, "astroresearch.db")); err == nil && fi.Size() >= bigDBSize {
		return dir
	}
	b.Logf("building a 1 GiB database in %s (once; later runs reuse it)", dir)
	build, err := os.MkdirTemp(os.TempDir(), bigDBName+".build-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(build) // a no-op once renamed into place

	// Let the server create and migrate the database, then stop it.
	a := startApp(b, map[string]string{"DATA_DIR": build})
	if err := a.stop(); err != nil {
		b.Fatalf("stop after migrating: %v", err)
	}
	db := filepath.Join(build, "astroresearch.db")
	if err := growDatabase(context.Background(), db, bigDBSize); err != nil {
		b.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(build, dir); err != nil {
		b.Fatal(err)
	}
	return dir
}

// growDatabase inserts random blobs into bench_filler until the database
// file at path holds at least size bytes, and checkpoints the WAL so the
// data sits in the main file.
func growDatabase(ctx context.Context, path string, size int64) (err error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=OFF&_busy_timeout=5000")
	if err != nil {
		return fmt.Errorf("grow %s: %w", path, err)
	}
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("grow %s: close: %w", path, cerr)
		}
	}()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_filler(id INTEGER PRIMARY KEY, b BLOB)`); err != nil {
		return fmt.Errorf("grow %s: %w", path, err)
	}
	rng := rand.NewChaCha8([32]byte{'a', 's', 't', 'r', 'o'})
	blob := make([]byte, fillerBlob)
	for n := int64(0); n < size; n += fillerBlob * fillerPerTx {
		if err := insertBlobs(ctx, db, rng, blob, fillerPerTx); err != nil {
			return fmt.Errorf("grow %s: %w", path, err)
		}
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("grow %s: checkpoint: %w", path, err)
	}
	return nil
}

// insertBlobs inserts n rows of fresh random bytes in one transaction.
func insertBlobs(ctx context.Context, db *sql.DB, rng *rand.ChaCha8, blob []byte, n int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	for range n {
		_, _ = rng.Read(blob)
		if _, err := tx.ExecContext(ctx, `INSERT INTO bench_filler(b) VALUES (?)`, blob); err != nil {
			return err
		}
	}
	return tx.Commit()
}
