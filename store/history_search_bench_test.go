package store

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/astroresearch/astroresearch/migrations"
)

var (
	historyMessages = flag.Int("history.messages", 1_000_000, "stored messages in BenchmarkSearchHistory")
	historyDB       = flag.String("history.db", "", "database file for BenchmarkSearchHistory, built when missing and kept (default: in the user's cache directory)")
)

// historyWords is the vocabulary of the generated messages: the words of
// astronomy conversations, then numbered variants (object names, ids) for
// a long Zipf tail.
func historyWords() []string {
	base := strings.Fields(`the of and to in a is that for on with as by from at this are we be it an which
		galaxy cluster redshift halo mass jet black hole accretion disk spectrum emission line flux density star
		formation rate metallicity dust gas cloud magnetic field shock wave neutron pulsar binary merger lensing
		shear cosmology dark matter energy baryon oscillation supernova light curve photometry spectroscopy
		survey telescope resolution calibration noise model simulation fit parameter perseus virgo coma abell
		chandra xmm hubble jwst alma lofar fermi planck sdss desi euclid paper download parse read summary`)
	words := slices.Clone(base)
	for i := 0; len(words) < 50_000; i++ {
		words = append(words, fmt.Sprintf("%s%d", base[40+i%(len(base)-40)], i))
	}
	return words
}

// historyPath is where the generated database is kept between runs.
func historyPath(b *testing.B, n int) string {
	if *historyDB != "" {
		return *historyDB
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "astroresearch-bench", fmt.Sprintf("history-%d-v2.db", n))
}

// buildHistory fills a new database at path with one user's 1,000-message
// sessions, n messages in all, ~40 Zipf-drawn words each. It writes to a
// temporary file and renames it, so an interrupted build leaves nothing.
func buildHistory(b *testing.B, path string, n int) {
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		b.Fatal(err)
	}
	tmp := path + ".building"
	_ = os.Remove(tmp)
	s, err := Open(ctx, tmp, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		b.Fatal(err)
	}
	u, err := s.CreateUser(ctx, "bench", "x", RoleMember)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := historyWords()
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	text := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = words[zipf.Uint64()]
		}
		return strings.Join(w, " ")
	}
	const perSession, batch = 1000, 20_000
	start := time.Now()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for lo := 0; lo < n; lo += batch {
		err := s.Tx(ctx, func(tx *sqlx.Tx) error {
			stmt, err := tx.PreparexContext(ctx, `INSERT INTO agent_messages (session_id, turn, step, role, content, created_at)
				VALUES (?, ?, ?, ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer stmt.Close()
			for i := lo; i < min(lo+batch, n); i++ {
				session := fmt.Sprintf("s%07d", i/perSession)
				if i%perSession == 0 {
					if _, err := tx.ExecContext(ctx, `INSERT INTO agent_sessions (id, user_id, title, created_at, updated_at)
						VALUES (?, ?, ?, ?, ?)`, session, u.ID, text(6), now, now); err != nil {
						return err
					}
				}
				role := "user"
				if i%2 == 1 {
					role = "assistant"
				}
				if _, err := stmt.ExecContext(ctx, session, (i%perSession)/2, 0, role, text(40), now.Add(time.Duration(i)*time.Second)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	_ = os.Remove(tmp + "-wal")
	_ = os.Remove(tmp + "-shm")
	b.Logf("built %d messages in %s at %s", n, time.Since(start).Round(time.Second), path)
}

// BenchmarkSearchHistory measures SearchHistory (the history search page
// and /api/search/history) over -history.messages stored messages (one
// million by default; the database is generated once and kept, see
// -history.db) and reports p50/p95 in milliseconds for one-word queries
// and two-word phrases drawn from the vocabulary at every frequency, from
// the commonest words to rare names, after one untimed pass (a warm page
// cache). Target: p95 < 30 ms. An op is every query once.
//
//	go test -tags sqlite_fts5 ./store -run '^$' -bench SearchHistory -benchtime 1x
func BenchmarkSearchHistory(b *testing.B) {
	n := *historyMessages
	path := historyPath(b, n)
	if _, err := os.Stat(path); err != nil {
		buildHistory(b, path, n)
	}
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		b.Fatal(err)
	}
	u, err := s.UserByName(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	words := historyWords()
	r := rand.New(rand.NewPCG(5, 8))
	pick := func() string {
		// Ranks spread over the frequency range: a quarter each among the
		// 50 commonest, up to 500, up to 5,000, and the rest.
		bands := []int{0, 50, 500, 5000, len(words)}
		band := r.IntN(4)
		return words[bands[band]+r.IntN(bands[band+1]-bands[band])]
	}
	oneWord := make([]string, 64)
	phrases := make([]string, 64)
	for i := range oneWord {
		oneWord[i] = pick()
		phrases[i] = pick() + " " + pick()
	}
	for _, tc := range []struct {
		name    string
		queries []string
	}{{"one_word", oneWord}, {"phrase", phrases}} {
		b.Run(tc.name, func(b *testing.B) {
			// One untimed pass: a running server's page cache holds the
			// index; the first touch of each page is the disk's figure.
			for _, q := range tc.queries {
				if _, err := s.SearchHistory(ctx, u.ID, q, "", 50); err != nil {
					b.Fatal(err)
				}
			}
			var took []time.Duration
			cpu0 := cpuTime()
			for b.Loop() {
				for _, q := range tc.queries {
					t0 := time.Now()
					if _, err := s.SearchHistory(ctx, u.ID, q, "", 50); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(t0))
				}
			}
			slices.Sort(took)
			at := func(p float64) float64 {
				return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
			}
			b.ReportMetric(at(0.50), "p50-ms")
			b.ReportMetric(at(0.95), "p95-ms")
			// CPU time per query: what a query costs on an idle core, less
			// distorted than wall time on a shared machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(took)), "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
