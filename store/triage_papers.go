package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// TriagePaper is a new arXiv submission fetched for the daily triage.
type TriagePaper struct {
	ArxivID string // version-less
	Version int
	Day     string // submission day, YYYY-MM-DD UTC
	Title   string
	// Abstract is the arXiv abstract.
	Abstract string
	Authors  []string
	// Categories are the paper's arXiv categories, primary first.
	Categories []string
	Published  *time.Time
	FetchedAt  time.Time
}

type triagePaperRow struct {
	ArxivID    string     `db:"arxiv_id"`
	Version    int        `db:"version"`
	Day        string     `db:"day"`
	Title      string     `db:"title"`
	Abstract   string     `db:"abstract"`
	Authors    string     `db:"authors"`
	Categories string     `db:"categories"`
	Published  *time.Time `db:"published"`
	FetchedAt  time.Time  `db:"fetched_at"`
}

const triagePaperColumns = `arxiv_id, version, day, title, abstract, authors, categories, published, fetched_at`

func (r triagePaperRow) paper() TriagePaper {
	p := TriagePaper{ArxivID: r.ArxivID, Version: r.Version, Day: r.Day, Title: r.Title, Abstract: r.Abstract,
		Categories: splitFields(r.Categories), Published: r.Published, FetchedAt: r.FetchedAt}
	_ = json.Unmarshal([]byte(r.Authors), &p.Authors) // written by SaveTriagePapers; bad JSON leaves none
	return p
}

// SaveTriagePapers stores fetched papers; a paper already stored (fetched
// for another category, or again) is updated to the newer version.
func (s *Store) SaveTriagePapers(ctx context.Context, papers []TriagePaper) error {
	now := s.Now()
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, p := range papers {
			_, err := tx.ExecContext(ctx, `INSERT INTO triage_papers (`+triagePaperColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (arxiv_id) DO UPDATE SET version = MAX(version, excluded.version), title = excluded.title,
					abstract = excluded.abstract, authors = excluded.authors, categories = excluded.categories`,
				p.ArxivID, max(p.Version, 1), p.Day, p.Title, p.Abstract, jsonList(p.Authors), joinFields(p.Categories), p.Published, now)
			if err != nil {
				return fmt.Errorf("store: save triage paper %s: %w", p.ArxivID, err)
			}
		}
		return nil
	})
}

// TriagePapersOfDay returns the papers submitted on day (YYYY-MM-DD), by id.
func (s *Store) TriagePapersOfDay(ctx context.Context, day string) ([]TriagePaper, error) {
	var rows []triagePaperRow
	if err := s.r.SelectContext(ctx, &rows, `SELECT `+triagePaperColumns+` FROM triage_papers WHERE day = ? ORDER BY arxiv_id`, day); err != nil {
		return nil, fmt.Errorf("store: triage papers of %s: %w", day, err)
	}
	out := make([]TriagePaper, len(rows))
	for i, r := range rows {
		out[i] = r.paper()
	}
	return out, nil
}

// TriagePaper returns one fetched paper, or ErrNotFound.
func (s *Store) TriagePaper(ctx context.Context, arxivID string) (TriagePaper, error) {
	var r triagePaperRow
	if err := s.r.GetContext(ctx, &r, `SELECT `+triagePaperColumns+` FROM triage_papers WHERE arxiv_id = ?`, arxivID); err != nil {
		return TriagePaper{}, notFound(err, "triage paper "+arxivID)
	}
	return r.paper(), nil
}

// TriageScore is one paper's rank for one user.
type TriageScore struct {
	ArxivID string
	Score   float64
	Reasons []string
}

// ReplaceTriageScores replaces the user's scores for day with scores.
func (s *Store) ReplaceTriageScores(ctx context.Context, userID int64, day string, scores []TriageScore) error {
	now := s.Now()
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM triage_scores WHERE user_id = ? AND day = ?`, userID, day); err != nil {
			return fmt.Errorf("store: clear triage scores: %w", err)
		}
		for _, sc := range scores {
			if _, err := tx.ExecContext(ctx, `INSERT INTO triage_scores (user_id, arxiv_id, day, score, reasons, ranked_at)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, arxiv_id) DO UPDATE SET day = excluded.day,
				score = excluded.score, reasons = excluded.reasons, ranked_at = excluded.ranked_at`,
				userID, sc.ArxivID, day, sc.Score, jsonList(sc.Reasons), now); err != nil {
				return fmt.Errorf("store: save triage score %s: %w", sc.ArxivID, err)
			}
		}
		return nil
	})
}

// TriageItem is one ranked paper of a user's digest.
type TriageItem struct {
	TriagePaper
	Score   float64
	Reasons []string
	// Summary is the model's one-line summary ("" until made).
	Summary string
	// InLibrary reports whether the library holds the paper; LibraryID is
	// its library id then.
	InLibrary bool
	LibraryID int64
}

// TriageItems returns the user's ranked papers of day, highest score
// first, without the ones the user hid.
func (s *Store) TriageItems(ctx context.Context, userID int64, day string) ([]TriageItem, error) {
	var rows []struct {
		triagePaperRow
		Score     float64 `db:"score"`
		Reasons   string  `db:"reasons"`
		Summary   string  `db:"summary"`
		LibraryID *int64  `db:"library_id"`
	}
	err := s.r.SelectContext(ctx, &rows, `SELECT `+prefixed("p", triagePaperColumns)+`, sc.score, sc.reasons,
			COALESCE(sm.summary, '') AS summary, lib.id AS library_id
		FROM triage_scores sc
		JOIN triage_papers p ON p.arxiv_id = sc.arxiv_id
		LEFT JOIN triage_summaries sm ON sm.arxiv_id = sc.arxiv_id
		LEFT JOIN papers lib ON lib.arxiv_id = sc.arxiv_id
		WHERE sc.user_id = ? AND sc.day = ? AND NOT EXISTS (
			SELECT 1 FROM triage_feedback f WHERE f.user_id = sc.user_id AND f.arxiv_id = sc.arxiv_id AND f.action = 'hidden')
		ORDER BY sc.score DESC, sc.arxiv_id`, userID, day)
	if err != nil {
		return nil, fmt.Errorf("store: triage items of user %d on %s: %w", userID, day, err)
	}
	out := make([]TriageItem, len(rows))
	for i, r := range rows {
		out[i] = TriageItem{TriagePaper: r.paper(), Score: r.Score, Summary: r.Summary}
		_ = json.Unmarshal([]byte(r.Reasons), &out[i].Reasons)
		if r.LibraryID != nil {
			out[i].InLibrary, out[i].LibraryID = true, *r.LibraryID
		}
	}
	return out, nil
}

// TriageRankedDays returns the days the user has ranked papers for,
// newest first (at most limit).
func (s *Store) TriageRankedDays(ctx context.Context, userID int64, limit int) ([]string, error) {
	var out []string
	err := s.r.SelectContext(ctx, &out, `SELECT DISTINCT day FROM triage_scores WHERE user_id = ? ORDER BY day DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: triage days: %w", err)
	}
	return out, nil
}

// TriageSummaries returns the stored summaries of ids (id → summary).
func (s *Store) TriageSummaries(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(`SELECT arxiv_id, summary FROM triage_summaries WHERE arxiv_id IN (?)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: triage summaries: %w", err)
	}
	var rows []struct {
		ID      string `db:"arxiv_id"`
		Summary string `db:"summary"`
	}
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("store: triage summaries: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.Summary
	}
	return out, nil
}

// SaveTriageSummary stores the one-line summary of a paper (the first one
// written wins: summaries are made once per paper).
func (s *Store) SaveTriageSummary(ctx context.Context, arxivID, summary, model string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO triage_summaries (arxiv_id, summary, model, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (arxiv_id) DO NOTHING`, arxivID, summary, model, s.Now())
	if err != nil {
		return fmt.Errorf("store: save triage summary %s: %w", arxivID, err)
	}
	return nil
}

// splitFields splits a space-separated list.
func splitFields(s string) []string { return strings.Fields(s) }

// joinFields joins a list with spaces.
func joinFields(f []string) string { return strings.Join(f, " ") }
