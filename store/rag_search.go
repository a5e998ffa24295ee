package store

import (
	"context"
	"fmt"
	"strings"
)

// RagFilter narrows passage retrieval to some papers; zero fields do not
// filter. Fields combine with AND.
type RagFilter struct {
	PaperIDs []int64
	Tag      string
	Year     int
}

// Empty reports whether f filters nothing.
func (f RagFilter) Empty() bool { return len(f.PaperIDs) == 0 && f.Tag == "" && f.Year == 0 }

// papersCond is the SQL condition on papers alias p for f, with its args;
// a PaperIDs list is one slice argument for sqlx.In to expand.
func (f RagFilter) papersCond() (string, []any) {
	var where []string
	var args []any
	if len(f.PaperIDs) > 0 {
		where, args = append(where, "p.id IN (?)"), append(args, f.PaperIDs)
	}
	if f.Tag != "" {
		where, args = append(where, "EXISTS (SELECT 1 FROM paper_tags t WHERE t.paper_id = p.id AND t.tag = ?)"), append(args, f.Tag)
	}
	if f.Year != 0 {
		where, args = append(where, "p.year = ?"), append(args, f.Year)
	}
	if len(where) == 0 {
		return "1", nil
	}
	return strings.Join(where, " AND "), args
}

// RagPassageCount is the number of stored passages.
func (s *Store) RagPassageCount(ctx context.Context) (int, error) {
	var n int
	if err := s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM rag_chunks`); err != nil {
		return 0, fmt.Errorf("store: count passages: %w", err)
	}
	return n, nil
}

// RagMatchCount counts the passages matching the FTS5 expression match,
// stopping at limit (so a common term costs at most limit rows).
func (s *Store) RagMatchCount(ctx context.Context, match string, limit int) (int, error) {
	var n int
	err := s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM (SELECT 1 FROM rag_chunks_fts
		WHERE rag_chunks_fts MATCH ? LIMIT ?)`, match, limit)
	if err != nil {
		return 0, fmt.Errorf("store: term frequency: %w", err)
	}
	return n, nil
}

// RagKeywordSearch returns up to limit passages matching the FTS5
// expression match among f's papers, best BM25 first (title-weighted
// bm25(1.0, 0.5) over section path and text).
func (s *Store) RagKeywordSearch(ctx context.Context, match string, f RagFilter, limit int) ([]int64, error) {
	// Ordered by the FTS table's rank column: FTS5 ranks inside the virtual
	// table, much faster than ORDER BY bm25() over a join. A filter joins
	// the matches to their papers (probing the FTS index per filtered
	// passage instead measured far slower).
	query := `SELECT rowid FROM rag_chunks_fts WHERE rag_chunks_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.5)' ORDER BY rank LIMIT ?`
	args := []any{match}
	if !f.Empty() {
		cond, cargs := f.papersCond()
		query = `SELECT rag_chunks_fts.rowid FROM rag_chunks_fts CROSS JOIN rag_chunks c ON c.id = rag_chunks_fts.rowid
			JOIN papers p ON p.id = c.paper_id
			WHERE rag_chunks_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.5)' AND ` + cond + ` ORDER BY rag_chunks_fts.rank LIMIT ?`
		args = append(args, cargs...)
	}
	var ids []int64
	if err := s.selectIn(ctx, &ids, query, append(args, limit)...); err != nil {
		return nil, fmt.Errorf("store: keyword search: %w", err)
	}
	return ids, nil
}

// RagPassageText is a passage's section path and text, joined by a space.
type RagPassageText struct {
	ID   int64  `db:"id"`
	Text string `db:"text"`
}

// RagPassageTexts returns the section path and text of each of ids that
// still exists, in no particular order.
func (s *Store) RagPassageTexts(ctx context.Context, ids []int64) ([]RagPassageText, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []RagPassageText
	err := s.selectIn(ctx, &rows, `SELECT id, section_path || ' ' || text AS text FROM rag_chunks
		WHERE id IN (?)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: passage texts: %w", err)
	}
	return rows, nil
}

// RagDistance is a passage and its cosine distance to a query vector.
type RagDistance struct {
	ID       int64   `db:"id"`
	Distance float64 `db:"distance"`
}

// RagNearestExact scans every vector of f's papers and returns the limit
// passages nearest to query (a float32 vector blob) by cosine distance.
func (s *Store) RagNearestExact(ctx context.Context, query []byte, f RagFilter, limit int) ([]RagDistance, error) {
	cond, cargs := f.papersCond()
	var rows []RagDistance
	err := s.selectIn(ctx, &rows, `SELECT e.chunk_id AS id, vec_distance_cosine(e.embedding, ?) AS distance
		FROM rag_embeddings e JOIN rag_chunks c ON c.id = e.chunk_id JOIN papers p ON p.id = c.paper_id
		WHERE `+cond+` ORDER BY distance LIMIT ?`, append(append([]any{query}, cargs...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("store: vector search: %w", err)
	}
	return rows, nil
}

// RagNearestBinary returns the k passages of f's papers nearest to query
// by Hamming distance in the binary index (rag_vectors), nearest first.
func (s *Store) RagNearestBinary(ctx context.Context, query []byte, f RagFilter, k int) ([]int64, error) {
	coarse := `SELECT rowid FROM rag_vectors WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`
	args := []any{query, k}
	if !f.Empty() {
		cond, cargs := f.papersCond()
		coarse += ` AND paper_id IN (SELECT p.id FROM papers p WHERE ` + cond + `)`
		args = append(args, cargs...)
	}
	var ids []int64
	if err := s.selectIn(ctx, &ids, coarse, args...); err != nil {
		return nil, fmt.Errorf("store: binary vector search: %w", err)
	}
	return ids, nil
}

// RagRerank orders ids by the exact cosine distance of their vectors to
// query and returns the nearest limit.
func (s *Store) RagRerank(ctx context.Context, query []byte, ids []int64, limit int) ([]RagDistance, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []RagDistance
	err := s.selectIn(ctx, &rows, `SELECT chunk_id AS id, vec_distance_cosine(embedding, ?) AS distance
		FROM rag_embeddings WHERE chunk_id IN (?) ORDER BY distance LIMIT ?`, query, ids, limit)
	if err != nil {
		return nil, fmt.Errorf("store: vector re-ranking: %w", err)
	}
	return rows, nil
}

// RagHit is a passage with its paper's title and year.
type RagHit struct {
	RagPassage
	Title string `db:"title"`
	Year  *int   `db:"year"`
}

// RagHits returns the passages of ids that still exist, with their papers,
// in no particular order.
func (s *Store) RagHits(ctx context.Context, ids []int64) ([]RagHit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []RagHit
	err := s.selectIn(ctx, &rows, `SELECT c.id, c.paper_id, c.section_path, c.start_byte, c.end_byte,
		c.text, p.title, p.year FROM rag_chunks c JOIN papers p ON p.id = c.paper_id WHERE c.id IN (?)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: load passages: %w", err)
	}
	return rows, nil
}
