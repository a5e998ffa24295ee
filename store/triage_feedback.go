package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
)

// Triage feedback actions.
const (
	TriageHidden = "hidden" // "Not interested"
	TriageAdded  = "added"  // "Add to library"
)

// TriageFeedback is what a user did with a paper of the digest. Title and
// Abstract are kept so that "not interested" keeps steering the ranking
// after the paper itself is gone from the digest.
type TriageFeedback struct {
	ArxivID   string    `db:"arxiv_id"`
	Action    string    `db:"action"`
	Title     string    `db:"title"`
	Abstract  string    `db:"abstract"`
	CreatedAt time.Time `db:"created_at"`
}

// SetTriageFeedback records the user's action on a paper, replacing an
// earlier one. action is TriageHidden or TriageAdded.
func (s *Store) SetTriageFeedback(ctx context.Context, userID int64, f TriageFeedback) error {
	if f.Action != TriageHidden && f.Action != TriageAdded {
		return fmt.Errorf("store: triage feedback action %q is not %s or %s", f.Action, TriageHidden, TriageAdded)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO triage_feedback (user_id, arxiv_id, action, title, abstract, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, arxiv_id) DO UPDATE SET action = excluded.action,
		created_at = excluded.created_at`, userID, f.ArxivID, f.Action, f.Title, f.Abstract, s.Now())
	if err != nil {
		return fmt.Errorf("store: triage feedback %s: %w", f.ArxivID, err)
	}
	return nil
}

// TriageFeedbackOf returns the user's feedback, newest first.
func (s *Store) TriageFeedbackOf(ctx context.Context, userID int64) ([]TriageFeedback, error) {
	var out []TriageFeedback
	err := s.r.SelectContext(ctx, &out, `SELECT arxiv_id, action, title, abstract, created_at FROM triage_feedback
		WHERE user_id = ? ORDER BY created_at DESC, arxiv_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: triage feedback of user %d: %w", userID, err)
	}
	return out, nil
}

// LibraryText is what the triage ranks new papers against: a library
// paper's title, abstract and authors.
type LibraryText struct {
	ID       int64   `db:"id"`
	ArxivID  *string `db:"arxiv_id"`
	Title    string  `db:"title"`
	Abstract string  `db:"abstract"`
}

// LibraryTexts returns every library paper's id, arXiv id, title and
// abstract, by id.
func (s *Store) LibraryTexts(ctx context.Context) ([]LibraryText, error) {
	var out []LibraryText
	if err := s.r.SelectContext(ctx, &out, `SELECT id, arxiv_id, title, abstract FROM papers ORDER BY id`); err != nil {
		return nil, fmt.Errorf("store: library texts: %w", err)
	}
	return out, nil
}

// Vector kinds of TriageVectors.
const (
	TriageVectorNew     = "new"     // a fetched paper, by arXiv id
	TriageVectorLibrary = "library" // a library paper, by id
)

// TriageVectors returns the stored embeddings by model of refs (arXiv ids
// or library ids as text, per kind), ref → vector; refs without one are
// absent.
func (s *Store) TriageVectors(ctx context.Context, kind, model string, refs []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	for start := 0; start < len(refs); start += 500 {
		q, args, err := sqlx.In(`SELECT ref, vector FROM triage_vectors WHERE kind = ? AND model = ? AND ref IN (?)`,
			kind, model, refs[start:min(start+500, len(refs))])
		if err != nil {
			return nil, fmt.Errorf("store: triage vectors: %w", err)
		}
		var rows []struct {
			Ref    string `db:"ref"`
			Vector []byte `db:"vector"`
		}
		if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), args...); err != nil {
			return nil, fmt.Errorf("store: triage vectors: %w", err)
		}
		for _, r := range rows {
			out[r.Ref] = decodeVector(r.Vector)
		}
	}
	return out, nil
}

// SaveTriageVectors stores embeddings by model (ref → vector).
func (s *Store) SaveTriageVectors(ctx context.Context, kind, model string, vecs map[string][]float32) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		for ref, v := range vecs {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO triage_vectors (kind, ref, model, vector) VALUES (?, ?, ?, ?)`,
				kind, ref, model, encodeVector(v)); err != nil {
				return fmt.Errorf("store: save triage vector %s %s: %w", kind, ref, err)
			}
		}
		return nil
	})
}

// LibraryRef is the TriageVectors ref of library paper id.
func LibraryRef(id int64) string { return strconv.FormatInt(id, 10) }

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
