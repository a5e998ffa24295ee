package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/jmoiron/sqlx"
)

// newStore opens a migrated store on a fresh file in t.TempDir.
func newStore(t testing.TB, now func() time.Time) *Store {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "astro.db"), Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMigrateFromEmptyFileIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "sub", "astro.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.SchemaVersion(ctx); err == nil {
		t.Fatalf("schema version before migrating = %d, want error (no table)", v)
	}
	n, err := s.Migrate(ctx, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := LoadMigrations(migrations.FS)
	if n != len(all) || n == 0 {
		t.Fatalf("applied %d migrations, want %d", n, len(all))
	}
	if n, err := s.Migrate(ctx, migrations.FS); err != nil || n != 0 {
		t.Fatalf("second Migrate = %d, %v; want 0, nil", n, err)
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil || v != all[len(all)-1].Version {
		t.Fatalf("SchemaVersion = %d, %v", v, err)
	}
	var mode string
	if err := s.w.GetContext(ctx, &mode, `PRAGMA journal_mode`); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	var fk int
	if err := s.r.GetContext(ctx, &fk, `PRAGMA foreign_keys`); err != nil || fk != 1 {
		t.Fatalf("foreign_keys on readers = %d, %v", fk, err)
	}
}

func TestLoadMigrationsRejectsBadNames(t *testing.T) {
	bad := fstestMap{"abc_x.sql": "SELECT 1;"}
	if _, err := LoadMigrations(bad); err == nil {
		t.Fatal("malformed name accepted")
	}
	dup := fstestMap{"0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"}
	if _, err := LoadMigrations(dup); err == nil {
		t.Fatal("duplicate version accepted")
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "astro.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fsys := fstestMap{"0001_ok.sql": "CREATE TABLE a (x);", "0002_bad.sql": "CREATE TABLE b (y); SELECT nope FROM missing;"}
	if _, err := s.Migrate(ctx, fsys); err == nil {
		t.Fatal("broken migration reported success")
	}
	var n int
	_ = s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'b'`)
	if n != 0 {
		t.Fatal("half-applied migration left table b behind")
	}
	if v, _ := s.SchemaVersion(ctx); v != 1 {
		t.Fatalf("schema version = %d, want 1", v)
	}
}

func TestExtensionsAvailable(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	var v string
	if err := s.r.GetContext(ctx, &v, `SELECT vec_version()`); err != nil || v == "" {
		t.Fatalf("sqlite-vec not registered: %q, %v", v, err)
	}
	if _, err := s.w.ExecContext(ctx, `CREATE VIRTUAL TABLE t_fts USING fts5(body)`); err != nil {
		t.Fatalf("FTS5 missing (build with -tags sqlite_fts5): %v", err)
	}
}

func TestReadersAreReadOnly(t *testing.T) {
	s := newStore(t, nil)
	_, err := s.r.ExecContext(context.Background(), `CREATE TABLE x (y)`)
	if err == nil {
		t.Fatal("reader pool accepted a write")
	}
}

func TestConcurrentWritersNeverBusy(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE counter (n INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO counter VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	const writers, each = 50, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := s.Tx(ctx, func(tx *sqlx.Tx) error {
					var n int
					if err := tx.GetContext(ctx, &n, `SELECT n FROM counter`); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, `UPDATE counter SET n = ?`, n+1)
					return err
				})
				if err != nil {
					errs <- err
				}
				// Readers run alongside the writers.
				var n int
				if err := s.r.GetContext(ctx, &n, `SELECT n FROM counter`); err != nil {
					errs <- fmt.Errorf("read: %w", err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent write failed: %v", err)
	}
	var n int
	if err := s.r.GetContext(ctx, &n, `SELECT n FROM counter`); err != nil || n != writers*each {
		t.Fatalf("counter = %d, %v; want %d (lost updates)", n, err, writers*each)
	}
}

func TestUsers(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	admin, err := s.CreateFirstUser(ctx, "Vera", "hash1")
	if err != nil || admin.Role != RoleAdmin {
		t.Fatalf("CreateFirstUser = %+v, %v", admin, err)
	}
	if _, err := s.CreateFirstUser(ctx, "other", "h"); !errors.Is(err, ErrConflict) {
		t.Fatalf("second first user: %v, want ErrConflict", err)
	}
	if _, err := s.CreateUser(ctx, "vera", "h", RoleMember); !errors.Is(err, ErrConflict) {
		t.Fatalf("case-insensitive duplicate: %v, want ErrConflict", err)
	}
	m, err := s.CreateUser(ctx, "edwin", "h2", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.UserByName(ctx, "VERA")
	if err != nil || got.ID != admin.ID {
		t.Fatalf("UserByName = %+v, %v", got, err)
	}
	if _, err := s.UserByID(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("UserByID(999) = %v, want ErrNotFound", err)
	}
	u, err := s.SetPassword(ctx, m.ID, "h3")
	if err != nil || u.PasswordHash != "h3" || u.SessionEpoch != m.SessionEpoch+1 {
		t.Fatalf("SetPassword = %+v, %v", u, err)
	}
	u, err = s.SetDisabled(ctx, m.ID, true)
	if err != nil || !u.Disabled || u.SessionEpoch != m.SessionEpoch+2 {
		t.Fatalf("SetDisabled = %+v, %v", u, err)
	}
	if _, err := s.SetDisabled(ctx, 999, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SetDisabled(999) = %v", err)
	}
	if cached, _ := s.UserByID(ctx, m.ID); !cached.Disabled || cached.PasswordHash != "h3" {
		t.Fatalf("UserByID after updates = %+v (stale cache)", cached)
	}
	if n, _ := s.CountActiveAdmins(ctx); n != 1 {
		t.Fatalf("CountActiveAdmins = %d", n)
	}
	list, err := s.ListUsers(ctx)
	if err != nil || len(list) != 2 || list[0].Username != "edwin" {
		t.Fatalf("ListUsers = %+v, %v", list, err)
	}
}

func TestAPITokens(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := newStore(t, func() time.Time { return now })
	ctx := context.Background()
	u, _ := s.CreateFirstUser(ctx, "vera", "h")
	other, _ := s.CreateUser(ctx, "edwin", "h", RoleMember)
	tok, err := s.CreateAPIToken(ctx, u.ID, "notebook", []byte("hash-a"), "ar_abcd")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.UserByTokenHash(ctx, []byte("hash-a"))
	if err != nil || got.ID != u.ID || got.Username != "vera" {
		t.Fatalf("UserByTokenHash = %+v, %v", got, err)
	}
	list, _ := s.ListAPITokens(ctx, u.ID)
	if len(list) != 1 || list[0].LastUsedAt == nil || !list[0].LastUsedAt.Equal(now) {
		t.Fatalf("ListAPITokens = %+v", list)
	}
	if err := s.RevokeAPIToken(ctx, other.ID, tok.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoking someone else's token: %v", err)
	}
	if err := s.RevokeAPIToken(ctx, u.ID, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserByTokenHash(ctx, []byte("hash-a")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoked token still works: %v", err)
	}
	if list, _ := s.ListAPITokens(ctx, u.ID); len(list) != 0 {
		t.Fatalf("revoked token still listed: %+v", list)
	}
}

func TestSessionStoreExpiry(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := newStore(t, func() time.Time { return now })
	ss := s.Sessions()
	ctx := context.Background()
	if err := ss.CommitCtx(ctx, "tok", []byte("data"), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b, ok, err := ss.FindCtx(ctx, "tok"); err != nil || !ok || string(b) != "data" {
		t.Fatalf("Find = %q %v %v", b, ok, err)
	}
	if err := ss.CommitCtx(ctx, "tok", []byte("data2"), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if all, err := ss.AllCtx(ctx); err != nil || string(all["tok"]) != "data2" {
		t.Fatalf("All = %v, %v", all, err)
	}
	now = now.Add(2 * time.Hour)
	if _, ok, err := ss.FindCtx(ctx, "tok"); ok || err != nil {
		t.Fatalf("expired session found: %v %v", ok, err)
	}
	if n, err := ss.DeleteExpired(ctx); n != 1 || err != nil {
		t.Fatalf("DeleteExpired = %d, %v", n, err)
	}
	if err := ss.CommitCtx(ctx, "live", []byte("x"), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := ss.DeleteCtx(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ss.FindCtx(ctx, "live"); ok {
		t.Fatal("deleted session still found (stale cache)")
	}
	if err := ss.DeleteCtx(ctx, "missing"); err != nil {
		t.Fatalf("deleting an unknown token: %v", err)
	}
}

func TestBackup(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	if _, err := s.CreateFirstUser(ctx, "vera", "h"); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, dest); err == nil {
		t.Fatal("backup overwrote an existing file")
	}
	b, err := Open(ctx, dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if n, err := b.CountUsers(ctx); err != nil || n != 1 {
		t.Fatalf("backup holds %d users, %v", n, err)
	}
	if size, err := s.Size(ctx); err != nil || size <= 0 {
		t.Fatalf("Size = %d, %v", size, err)
	}
}

func TestCheckpointerKeepsWALBounded(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE blobs (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	var auto int
	if err := s.w.GetContext(ctx, &auto, `PRAGMA wal_autocheckpoint`); err != nil || auto != 0 {
		t.Fatalf("writer wal_autocheckpoint = %d, %v; want 0 (checkpoints off the write path)", auto, err)
	}
	for i := 0; i < 200; i++ {
		if _, err := s.w.ExecContext(ctx, `INSERT INTO blobs VALUES (zeroblob(16384))`); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	var busy, logFrames, checkpointed int
	if err := s.ck.QueryRowxContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &checkpointed); err != nil {
		t.Fatal(err)
	}
	if checkpointed != logFrames {
		t.Fatalf("checkpoint left %d of %d WAL frames uncopied", logFrames-checkpointed, logFrames)
	}
}

func TestSearchHistory(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	vera, _ := s.CreateFirstUser(ctx, "vera", "h")
	edwin, _ := s.CreateUser(ctx, "edwin", "h", RoleMember)
	a, _ := s.CreateAgentSession(ctx, vera.ID, "Perseus cluster cool core")
	b, _ := s.CreateAgentSession(ctx, vera.ID, "Exoplanet atmospheres")
	c, _ := s.CreateAgentSession(ctx, edwin.ID, "Perseus for Edwin")
	msgs := []*AgentMessage{
		{SessionID: a.ID, Turn: 1, AgentName: "lead", Role: "user", Content: "What is the cooling time in NGC 1275?"},
		{SessionID: b.ID, Turn: 1, AgentName: "lead", Role: "assistant", Content: "The transmission spectrum of WASP-39b shows CO₂."},
		{SessionID: c.ID, Turn: 1, AgentName: "lead", Role: "user", Content: "NGC 1275 private question"},
	}
	if err := s.AppendAgentMessages(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchHistory(ctx, vera.ID, "ngc 1275", "", 10)
	if err != nil || len(hits) != 1 || hits[0].SessionID != a.ID || hits[0].MessageID == 0 ||
		!strings.Contains(hits[0].Snippet, MarkStart+"NGC"+MarkEnd) {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	hits, _ = s.SearchHistory(ctx, vera.ID, "perse", "", 10) // prefix
	if len(hits) != 1 || hits[0].MessageID != 0 || hits[0].SessionTitle != "Perseus cluster cool core" {
		t.Fatalf("title hits %+v", hits)
	}
	if hits, _ := s.SearchHistory(ctx, vera.ID, "NGC", b.ID, 10); len(hits) != 0 {
		t.Fatalf("session filter ignored: %+v", hits)
	}
	for _, q := range []string{`"`, `NEAR(`, `*`, `a OR`, `-x`, `) AND (`} {
		if _, err := s.SearchHistory(ctx, vera.ID, q, "", 10); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
	}
	// Only the user's and the lead's messages by default; everything on request.
	others := []*AgentMessage{
		{SessionID: a.ID, Turn: 1, AgentName: "memory", Role: "assistant", Content: "Saved: the user studies bolometers."},
		{SessionID: a.ID, Turn: 1, AgentName: "lead", Role: "tool", Content: "bolometers 1. Smith 2020"},
		{SessionID: a.ID, Turn: 1, AgentName: "sub_x1", Role: "assistant", Content: "Conclusion: bolometers are cold."},
	}
	if err := s.AppendAgentMessages(ctx, others); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchHistory(ctx, vera.ID, "bolometers", "", 10); len(hits) != 0 {
		t.Fatalf("default search shows other agents' messages or tool results: %+v", hits)
	}
	if hits, _ := s.SearchHistoryAll(ctx, vera.ID, "bolometers", "", 10); len(hits) != 3 {
		t.Fatalf("search of everything: %+v", hits)
	}
	if err := s.RenameAgentSession(ctx, vera.ID, b.ID, "JWST transit spectra"); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.SearchHistory(ctx, vera.ID, "jwst", "", 10); len(hits) != 1 {
		t.Fatalf("renamed title not indexed: %+v", hits)
	}
}
