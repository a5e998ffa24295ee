package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Fetch states of a category-day.
const (
	TriageFetchDone   = "done"
	TriageFetchFailed = "failed"
)

// TriageFetch records the fetch of one arXiv category's submissions of one
// UTC day: done (never fetched again) or failed (tried again after
// NextAttempt).
type TriageFetch struct {
	Category    string     `db:"category"`
	Day         string     `db:"day"` // YYYY-MM-DD
	Status      string     `db:"status"`
	Papers      int        `db:"papers"`
	Requests    int        `db:"requests"`
	Attempts    int        `db:"attempts"`
	Error       string     `db:"error"`
	NextAttempt *time.Time `db:"next_attempt"`
	UpdatedAt   time.Time  `db:"updated_at"`
}

const triageFetchColumns = `category, day, status, papers, requests, attempts, error, next_attempt, updated_at`

// RecordTriageFetch stores the outcome of a fetch, replacing the earlier
// record of the same category and day.
func (s *Store) RecordTriageFetch(ctx context.Context, f TriageFetch) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO triage_fetches (`+triageFetchColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (category, day) DO UPDATE SET status = excluded.status, papers = excluded.papers,
			requests = excluded.requests, attempts = excluded.attempts, error = excluded.error,
			next_attempt = excluded.next_attempt, updated_at = excluded.updated_at`,
		f.Category, f.Day, f.Status, f.Papers, f.Requests, f.Attempts, f.Error, f.NextAttempt, s.Now())
	if err != nil {
		return fmt.Errorf("store: record triage fetch %s %s: %w", f.Category, f.Day, err)
	}
	return nil
}

// TriageFetches returns the records of categories for the days from..to
// (inclusive, YYYY-MM-DD), ordered by day then category.
func (s *Store) TriageFetches(ctx context.Context, categories []string, from, to string) ([]TriageFetch, error) {
	if len(categories) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT `+triageFetchColumns+` FROM triage_fetches
		WHERE category IN (?) AND day BETWEEN ? AND ? ORDER BY day, category`, categories, from, to)
	if err != nil {
		return nil, fmt.Errorf("store: triage fetches: %w", err)
	}
	var out []TriageFetch
	if err := s.r.SelectContext(ctx, &out, s.r.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("store: triage fetches: %w", err)
	}
	return out, nil
}
