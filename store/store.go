// Package store is AstroResearch's persistence layer: SQLite through sqlx on
// mattn/go-sqlite3 (build tag sqlite_fts5), with sqlite-vec registered.
//
// A Store holds two pools on one database file: a single writer connection
// (so writers queue in Go instead of failing with SQLITE_BUSY) whose
// transactions begin IMMEDIATE, and a pool of read-only connections that run
// concurrently with it under WAL. Every method takes a context.Context and
// "not found" is reported as ErrNotFound, never as a nil result.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

// ErrNotFound is returned when the requested row does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a write would violate a uniqueness rule.
var ErrConflict = errors.New("already exists")

// registerVec makes sqlite-vec available on every connection opened later in
// this process. sqlite3_auto_extension is process-wide by nature, so it is
// done exactly once.
var registerVec = sync.OnceFunc(sqlitevec.Auto)

// Store is the database handle. It is safe for concurrent use.
//
// One server process owns the database: the small caches below (users by
// id, live cookie sessions) are kept coherent by this Store's own writes.
type Store struct {
	w        *sqlx.DB // exactly one connection: all writes
	r        *sqlx.DB // read-only pool
	path     string
	now      func() time.Time
	users    cache[int64, User]
	sessions *SessionStore

	// The checkpointer moves WAL pages into the database file off the
	// writer's path (see runCheckpoints).
	ck         *sqlx.DB
	stopCk     context.CancelFunc
	ckFinished chan struct{}

	// version is the prepared library-version query (LibraryVersion),
	// made on first use.
	versionMu sync.Mutex
	version   atomic.Pointer[sqlx.Stmt]
}

// Options tune Open; the zero value is the production default.
type Options struct {
	// Now is the clock used for timestamps; time.Now when nil.
	Now func() time.Time
	// BusyTimeout bounds how long a connection waits on a lock held by
	// another process; 5 s when zero.
	BusyTimeout time.Duration
}

// Open opens (creating if needed) the database file at path. It does not
// apply migrations; call Migrate.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	registerVec()
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.BusyTimeout == 0 {
		opt.BusyTimeout = 5 * time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("store: create directory for %s: %w", path, err)
	}
	w, err := sqlx.Open("sqlite3", dsn(path, opt, false))
	if err != nil {
		return nil, fmt.Errorf("store: open writer: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	// The writer connects first so that WAL mode is set before any reader
	// opens the file read-only.
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r, err := sqlx.Open("sqlite3", dsn(path, opt, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open readers: %w", err)
	}
	readers := max(4, 2*runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	st := &Store{w: w, r: r, path: path, now: opt.Now, users: newCache[int64, User](10_000)}
	st.sessions = &SessionStore{s: st, cache: newCache[string, sessionEntry](100_000)}
	if err := st.startCheckpointer(ctx, opt); err != nil {
		st.r.Close()
		st.w.Close()
		return nil, err
	}
	return st, nil
}

// dsn builds a mattn/go-sqlite3 connection string. Writers use
// _txlock=immediate so every transaction takes the write lock up front
// (BEGIN IMMEDIATE), which avoids deadlock-style SQLITE_BUSY on upgrade.
func dsn(path string, opt Options, readOnly bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(opt.BusyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "on")
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Close stops the checkpointer and closes every connection.
func (s *Store) Close() error {
	s.stopCk()
	<-s.ckFinished
	var stmtErr error
	s.versionMu.Lock()
	if stmt := s.version.Swap(nil); stmt != nil {
		stmtErr = stmt.Close()
	}
	s.versionMu.Unlock()
	return errors.Join(stmtErr, s.ck.Close(), s.r.Close(), s.w.Close())
}

// Path returns the database file path.
func (s *Store) Path() string { return s.path }

// Ping reports whether both pools can reach the database.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping writer: %w", err)
	}
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping readers: %w", err)
	}
	return nil
}

// Tx runs fn inside one write transaction (BEGIN IMMEDIATE). It commits when
// fn returns nil and rolls back otherwise, returning fn's error unchanged.
func (s *Store) Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.w.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// Now returns the store's clock reading in UTC.
func (s *Store) Now() time.Time { return s.now().UTC() }

// notFound converts sql.ErrNoRows into ErrNotFound, wrapping other errors
// with the given description.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("store: %s: %w", what, err)
}
