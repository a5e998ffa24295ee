package parse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

// readTestdata returns a fixture's bytes; a missing or unreadable one
// fails the test at once, not later as an empty page served by a fake.
func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkGolden compares md with testdata/name (rewriting it first under
// -update).
func checkGolden(t *testing.T, name, md string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := string(readTestdata(t, golden)); md != want {
		t.Errorf("Markdown differs from %s (run with -update to accept):\n%s", golden, md)
	}
}

// newTestStore opens a migrated SQLite store in a fresh directory, which
// it returns too (the data directory of a Service under test).
func newTestStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(t.Context(), filepath.Join(dir, "a.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(t.Context(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return st, dir
}
