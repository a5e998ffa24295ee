package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Measurement is one value reported in a library paper (L9), with
// the passage holding its sentence and the paper's citation fields.
type Measurement struct {
	ID        int64   `db:"id" json:"id"`
	PaperID   int64   `db:"paper_id" json:"paper_id"`
	ChunkID   int64   `db:"chunk_id" json:"chunk_id"`
	Seq       int     `db:"seq" json:"seq"`
	Quantity  string  `db:"quantity" json:"quantity"`
	Value     float64 `db:"value" json:"value"`
	Upper     float64 `db:"upper" json:"upper"`
	ErrPlus   float64 `db:"err_plus" json:"err_plus"`
	ErrMinus  float64 `db:"err_minus" json:"err_minus"`
	ErrStat   float64 `db:"err_stat" json:"err_stat"`
	ErrSys    float64 `db:"err_sys" json:"err_sys"`
	Bound     string  `db:"bound" json:"bound"`
	Unit      string  `db:"unit" json:"unit"`
	Object    string  `db:"object" json:"object"`
	Sentence  string  `db:"sentence" json:"sentence"`
	StartByte int     `db:"start_byte" json:"start_byte"`
	EndByte   int     `db:"end_byte" json:"end_byte"`
	// Filled by Measurements from the paper.
	Year    *int    `db:"year" json:"year"`
	Bibcode *string `db:"bibcode" json:"bibcode"`
	Title   string  `db:"title" json:"title"`
}

// MeasureJob is a paper whose values must be extracted (again): its
// passages were cut from Markdown with hash Hash.
type MeasureJob struct {
	PaperID int64  `db:"paper_id"`
	Hash    string `db:"md_sha256"`
}

// PassageSpan is a passage's byte range in its paper's Markdown.
type PassageSpan struct {
	ID    int64 `db:"id"`
	Start int   `db:"start_byte"`
	End   int   `db:"end_byte"`
}

// ErrStale means the paper's passages changed while its values were being
// extracted; the job is picked up again with the new text.
var ErrStale = errors.New("store: passages changed during extraction")

// MeasureJobs returns up to limit papers whose passages are indexed but
// whose values were not extracted from that text yet, oldest first.
func (s *Store) MeasureJobs(ctx context.Context, limit int) ([]MeasureJob, error) {
	var jobs []MeasureJob
	err := s.r.SelectContext(ctx, &jobs, `SELECT d.paper_id, d.md_sha256 FROM rag_documents d
		LEFT JOIN measure_documents m ON m.paper_id = d.paper_id
		WHERE d.chunks > 0 AND d.status IN ('embedding', 'indexed') AND d.md_sha256 != ''
			AND (m.paper_id IS NULL OR m.md_sha256 != d.md_sha256)
		ORDER BY d.updated_at, d.paper_id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: measurement jobs: %w", err)
	}
	return jobs, nil
}

// PassageSpans returns the paper's passages, in order, with the hash of
// the Markdown they were cut from (one statement: a consistent snapshot).
func (s *Store) PassageSpans(ctx context.Context, paperID int64) ([]PassageSpan, string, error) {
	var rows []struct {
		PassageSpan
		Hash string `db:"md_sha256"`
	}
	err := s.r.SelectContext(ctx, &rows, `SELECT c.id, c.start_byte, c.end_byte, d.md_sha256
		FROM rag_chunks c JOIN rag_documents d ON d.paper_id = c.paper_id
		WHERE c.paper_id = ? ORDER BY c.seq`, paperID)
	if err != nil {
		return nil, "", fmt.Errorf("store: passages of paper %d: %w", paperID, err)
	}
	spans := make([]PassageSpan, len(rows))
	hash := ""
	for i, r := range rows {
		spans[i], hash = r.PassageSpan, r.Hash
	}
	return spans, hash, nil
}

// ReplaceMeasurements swaps the paper's values for rows, extracted from the
// Markdown with hash, in one transaction. It returns ErrStale (writing
// nothing) when the paper's passages are no longer cut from that text.
func (s *Store) ReplaceMeasurements(ctx context.Context, paperID int64, hash string, rows []Measurement) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		var current string
		if err := tx.GetContext(ctx, &current, `SELECT md_sha256 FROM rag_documents WHERE paper_id = ?`, paperID); err != nil {
			return fmt.Errorf("store: index state of paper %d: %w", paperID, notFound(err, "index state"))
		}
		if current != hash {
			return ErrStale
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM measurements WHERE paper_id = ?`, paperID); err != nil {
			return fmt.Errorf("store: delete values of paper %d: %w", paperID, err)
		}
		stmt, err := tx.PreparexContext(ctx, `INSERT INTO measurements (paper_id, chunk_id, seq, quantity, value, upper,
			err_plus, err_minus, err_stat, err_sys, bound, unit, object, sentence, start_byte, end_byte)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("store: prepare value insert: %w", err)
		}
		defer stmt.Close()
		for i, m := range rows {
			if _, err := stmt.ExecContext(ctx, paperID, m.ChunkID, i, m.Quantity, m.Value, m.Upper, m.ErrPlus, m.ErrMinus,
				m.ErrStat, m.ErrSys, m.Bound, m.Unit, m.Object, m.Sentence, m.StartByte, m.EndByte); err != nil {
				return fmt.Errorf("store: insert value %d of paper %d: %w", i, paperID, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO measure_documents (paper_id, md_sha256, values_found, extracted_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (paper_id) DO UPDATE SET md_sha256 = excluded.md_sha256,
			values_found = excluded.values_found, extracted_at = excluded.extracted_at`, paperID, hash, len(rows), s.Now())
		if err != nil {
			return fmt.Errorf("store: record extraction of paper %d: %w", paperID, err)
		}
		return nil
	})
}

// MeasurementFilter selects values: Quantity exactly (when set) and, when
// Objects is not empty, values whose object is one of those names
// (compared without case or spaces, so "M 106" finds "M106").
type MeasurementFilter struct {
	Quantity string
	Objects  []string
	Limit    int // 500 when <= 0
}

// ObjectKey is how object names are compared: lower case, no spaces.
func ObjectKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), ""))
}

// Measurements returns the matching values with their papers' year,
// bibcode and title, oldest paper first (undated papers last).
func (s *Store) Measurements(ctx context.Context, f MeasurementFilter) ([]Measurement, error) {
	if f.Limit <= 0 {
		f.Limit = 500
	}
	q := `SELECT m.id, m.paper_id, m.chunk_id, m.seq, m.quantity, m.value, m.upper, m.err_plus, m.err_minus,
		m.err_stat, m.err_sys, m.bound, m.unit, m.object, m.sentence, m.start_byte, m.end_byte,
		p.year, p.bibcode, p.title
		FROM measurements m JOIN papers p ON p.id = m.paper_id WHERE 1 = 1`
	var args []any
	if f.Quantity != "" {
		q += ` AND m.quantity = ?`
		args = append(args, f.Quantity)
	}
	if len(f.Objects) > 0 {
		keys := make([]string, 0, len(f.Objects))
		for _, o := range f.Objects {
			if k := ObjectKey(o); k != "" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			keys = append(keys, "")
		}
		in, inArgs, err := sqlx.In(` AND REPLACE(LOWER(m.object), ' ', '') IN (?)`, keys)
		if err != nil {
			return nil, fmt.Errorf("store: measurements: %w", err)
		}
		q += in
		args = append(args, inArgs...)
	}
	q += ` ORDER BY p.year IS NULL, p.year, m.paper_id, m.seq LIMIT ?`
	args = append(args, f.Limit)
	var out []Measurement
	if err := s.r.SelectContext(ctx, &out, q, args...); err != nil {
		return nil, fmt.Errorf("store: measurements: %w", err)
	}
	return out, nil
}

// QuantityCount is a quantity with the number of values the library holds.
type QuantityCount struct {
	Quantity string `db:"quantity" json:"quantity"`
	Count    int    `db:"n" json:"count"`
}

// MeasurementQuantities lists the quantities found in the library, most
// values first.
func (s *Store) MeasurementQuantities(ctx context.Context) ([]QuantityCount, error) {
	var out []QuantityCount
	err := s.r.SelectContext(ctx, &out, `SELECT quantity, COUNT(*) AS n FROM measurements WHERE quantity != ''
		GROUP BY quantity ORDER BY n DESC, quantity`)
	if err != nil {
		return nil, fmt.Errorf("store: measurement quantities: %w", err)
	}
	return out, nil
}
