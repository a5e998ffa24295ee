// Package storetest lets tests outside package store set up and inspect
// rows the store has no method for ("a paper renamed straight in SQL", "how
// many vectors are stored"). It opens its own connection to the store's
// database file, as another process would: the Store's pools stay private,
// so production code has no way to write SQL outside package store.
package storetest

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver (package store registers sqlite-vec)

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

// New opens a fresh store in a file under t.TempDir(), migrated, closed
// when the test ends: the real SQLite file every test outside package
// store starts from.
func New(t testing.TB) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "astro.db"), store.Options{})
	if err != nil {
		t.Fatalf("storetest: open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatalf("storetest: migrate: %v", err)
	}
	return st
}

// open connects to st's database file with foreign keys on (so deletes
// cascade as they do through the store) and a busy timeout that waits for
// the store's writer.
func open(t testing.TB, st *store.Store) *sqlx.DB {
	t.Helper()
	q := url.Values{"_foreign_keys": {"on"}, "_busy_timeout": {"5000"}}
	db, err := sqlx.Open("sqlite3", "file:"+(&url.URL{Path: st.Path()}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		t.Fatalf("storetest: open %s: %v", st.Path(), err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// Exec runs one statement against st's database, failing the test on error.
func Exec(t testing.TB, st *store.Store, query string, args ...any) {
	t.Helper()
	db := open(t, st)
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
}

// Get scans the single row of query into dest, failing the test on error
// (sql.ErrNoRows included).
func Get(t testing.TB, st *store.Store, dest any, query string, args ...any) {
	t.Helper()
	db := open(t, st)
	defer db.Close()
	if err := db.GetContext(context.Background(), dest, query, args...); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
}

// Select scans every row of query into dest (a pointer to a slice),
// failing the test on error.
func Select(t testing.TB, st *store.Store, dest any, query string, args ...any) {
	t.Helper()
	db := open(t, st)
	defer db.Close()
	if err := db.SelectContext(context.Background(), dest, query, args...); err != nil {
		t.Fatalf("storetest: %s: %v", query, err)
	}
}
