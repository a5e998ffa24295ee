package rag

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Filter narrows retrieval to some papers of the library; zero fields do
// not filter. Fields combine with AND.
type Filter struct {
	PaperIDs []int64
	Tag      string
	Year     int
}

func (f Filter) empty() bool { return len(f.PaperIDs) == 0 && f.Tag == "" && f.Year == 0 }

// papersCond is the SQL condition on papers alias p for f, with its args.
func (f Filter) papersCond() (string, []any) {
	var where []string
	var args []any
	if len(f.PaperIDs) > 0 {
		where = append(where, "p.id IN ("+placeholders(len(f.PaperIDs))+")")
		for _, id := range f.PaperIDs {
			args = append(args, id)
		}
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

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// Query is a retrieval request.
type Query struct {
	Text string
	Filter
	// Limit is how many passages to return; 6 when zero, at most 50.
	Limit int
}

// Mode says how passages were retrieved.
type Mode string

// Retrieval modes.
const (
	// ModeHybrid fuses BM25 and vector rankings.
	ModeHybrid Mode = "hybrid"
	// ModeKeyword is BM25 alone (no embedding model, or none usable).
	ModeKeyword Mode = "keyword"
)

// Hit is a retrieved passage with its paper and how it was found.
type Hit struct {
	Passage
	Title string `db:"title" json:"title"`
	Year  *int   `db:"year" json:"year,omitempty"`
	// Score is the reciprocal-rank-fusion score (higher is better).
	Score float64 `db:"-" json:"score"`
	// KeywordRank and VectorRank are 1-based ranks in each list (0: not in it).
	KeywordRank int `db:"-" json:"keyword_rank,omitempty"`
	VectorRank  int `db:"-" json:"vector_rank,omitempty"`
	// Similarity is the cosine similarity to the question (vector hits).
	Similarity float64 `db:"-" json:"similarity,omitempty"`
}

// Results are the passages found for a query, best first.
type Results struct {
	Hits []Hit `json:"hits"`
	Mode Mode  `json:"mode"`
	// Note explains a keyword-only search ("no embedding model configured", ...).
	Note string `json:"note,omitempty"`
}

// candidates is how deep each ranking goes before fusion.
const candidates = 50

// rrfK is the usual reciprocal rank fusion constant.
const rrfK = 60

// NoEmbeddingNote is the Note of searches run without an embedding model.
const NoEmbeddingNote = "keyword search only — no embedding model configured"

// Search retrieves the passages of the library that support q.Text, best
// first. Only passages that count as supporting are returned: a keyword
// hit must contain at least half of the question's content words, a
// vector hit must reach MinSimilarity. Both rankings are fused by
// reciprocal rank fusion; without an embedding model (or when the
// embeddings endpoint fails) BM25 alone ranks, and Results.Note says so.
func (s *Service) Search(ctx context.Context, q Query) (Results, error) {
	if q.Limit <= 0 {
		q.Limit = 6
	}
	q.Limit = min(q.Limit, candidates)
	res := Results{Mode: ModeKeyword}
	kw, err := s.keywordRanking(ctx, q)
	if err != nil {
		return res, err
	}
	vec, note, err := s.vectorRanking(ctx, q)
	if err != nil {
		return res, err
	}
	if note != "" {
		res.Note = note
	} else {
		res.Mode = ModeHybrid
	}
	fused := fuse(kw, vec)
	if len(fused) > q.Limit {
		fused = fused[:q.Limit]
	}
	res.Hits, err = s.loadHits(ctx, fused)
	return res, err
}

// ranked is one candidate passage of one or both rankings.
type ranked struct {
	id                   int64
	kwRank, vecRank      int
	similarity, rrfScore float64
}

// keywordRanking is BM25 over the passages, keeping the supporting ones.
func (s *Service) keywordRanking(ctx context.Context, q Query) ([]ranked, error) {
	terms := contentTerms(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + t + `"`
	}
	// Ordered by the FTS table's rank column: FTS5 ranks inside the virtual
	// table, much faster than ORDER BY bm25() over a join. A filter joins
	// the matches to their papers (probing the FTS index per filtered
	// passage instead measured far slower).
	match, err := s.matchExpression(ctx, quoted)
	if err != nil {
		return nil, err
	}
	query := `SELECT rowid FROM rag_chunks_fts WHERE rag_chunks_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.5)' ORDER BY rank LIMIT ?`
	args := []any{match}
	if !q.Filter.empty() {
		cond, cargs := q.Filter.papersCond()
		query = `SELECT rag_chunks_fts.rowid FROM rag_chunks_fts CROSS JOIN rag_chunks c ON c.id = rag_chunks_fts.rowid
			JOIN papers p ON p.id = c.paper_id
			WHERE rag_chunks_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.5)' AND ` + cond + ` ORDER BY rag_chunks_fts.rank LIMIT ?`
		args = append(args, cargs...)
	}
	var ids []int64
	if err := s.st.Reader().SelectContext(ctx, &ids, query, append(args, candidates)...); err != nil {
		return nil, fmt.Errorf("rag: keyword search: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	covered, err := s.termCoverage(ctx, ids, terms)
	if err != nil {
		return nil, err
	}
	need := (len(terms) + 1) / 2
	var out []ranked
	for _, id := range ids {
		if covered[id] >= need {
			out = append(out, ranked{id: id, kwRank: len(out) + 1})
		}
	}
	return out, nil
}

// commonShare: a term found in more than this share of all passages is
// "common".
const commonShare = 10

// matchExpression is the FTS5 query that finds candidates. FTS5 computes
// BM25 for every matching row, so a term present in most passages would
// make ranking cost grow with the library. Common terms are therefore left
// out of matching when rarer ones remain (they add little to BM25 through
// their low IDF, and still count for support in termCoverage); a question
// of common terms only must match all of them.
func (s *Service) matchExpression(ctx context.Context, quoted []string) (string, error) {
	var total int
	if err := s.st.Reader().GetContext(ctx, &total, `SELECT COUNT(*) FROM rag_chunks`); err != nil {
		return "", fmt.Errorf("rag: count passages: %w", err)
	}
	limit := max(1000, total/commonShare)
	var rare []string
	for _, t := range quoted {
		var n int
		err := s.st.Reader().GetContext(ctx, &n, `SELECT COUNT(*) FROM (SELECT 1 FROM rag_chunks_fts
			WHERE rag_chunks_fts MATCH ? LIMIT ?)`, t, limit+1)
		if err != nil {
			return "", fmt.Errorf("rag: term frequency: %w", err)
		}
		if n <= limit {
			rare = append(rare, t)
		}
	}
	switch {
	case len(rare) > 0:
		return strings.Join(rare, " OR "), nil
	case len(quoted) > 1:
		return strings.Join(quoted, " AND "), nil
	}
	return quoted[0], nil
}

// termCoverage counts, for each of ids, how many of terms its text
// contains (see containsTerm). Checking in Go measured far cheaper than
// one FTS probe per term and passage.
func (s *Service) termCoverage(ctx context.Context, ids []int64, terms []string) (map[int64]int, error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	var rows []struct {
		ID   int64  `db:"id"`
		Text string `db:"text"`
	}
	err := s.st.Reader().SelectContext(ctx, &rows, `SELECT id, section_path || ' ' || text AS text FROM rag_chunks
		WHERE id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("rag: keyword coverage: %w", err)
	}
	covered := make(map[int64]int, len(rows))
	for _, r := range rows {
		words := wordSet(r.Text)
		for _, t := range terms {
			if containsTerm(words, t) {
				covered[r.ID]++
			}
		}
	}
	return covered, nil
}

// vectorRanking is the nearest passages to the question's embedding that
// reach MinSimilarity. A non-empty note means vectors were not used.
func (s *Service) vectorRanking(ctx context.Context, q Query) ([]ranked, string, error) {
	if s.opt.Embedder == nil {
		return nil, NoEmbeddingNote, nil
	}
	ready, binary, err := s.vectorsReady(ctx)
	if err != nil {
		return nil, "", err
	}
	if !ready {
		return nil, "keyword search only — passage embeddings are still being computed", nil
	}
	vecs, err := s.opt.Embedder.Embed(ctx, []string{q.Text})
	if err != nil || len(vecs) != 1 {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		s.log.Warn("rag: embed question", "err", err)
		return nil, "keyword search only — the embedding model could not be reached", nil
	}
	rows, err := s.nearest(ctx, vectorBlob(vecs[0]), q.Filter, binary)
	if err != nil {
		return nil, "", err
	}
	var out []ranked
	for _, r := range rows {
		if sim := 1 - r.Distance; sim >= s.opt.MinSimilarity {
			out = append(out, ranked{id: r.ID, vecRank: len(out) + 1, similarity: sim})
		}
	}
	return out, "", nil
}

// distanceRow is a passage and its cosine distance to the question.
type distanceRow struct {
	ID       int64   `db:"id"`
	Distance float64 `db:"distance"`
}

// nearest returns the candidates closest to the query vector by cosine
// distance: with a binary index, the Options.Rescore nearest by Hamming distance
// re-ranked exactly; without, an exact scan.
func (s *Service) nearest(ctx context.Context, query []byte, f Filter, binary bool) ([]distanceRow, error) {
	cond, cargs := f.papersCond()
	var rows []distanceRow
	if !binary {
		err := s.st.Reader().SelectContext(ctx, &rows, `SELECT e.chunk_id AS id, vec_distance_cosine(e.embedding, ?) AS distance
			FROM rag_embeddings e JOIN rag_chunks c ON c.id = e.chunk_id JOIN papers p ON p.id = c.paper_id
			WHERE `+cond+` ORDER BY distance LIMIT ?`, append(append([]any{query}, cargs...), candidates)...)
		if err != nil {
			return nil, fmt.Errorf("rag: vector search: %w", err)
		}
		return rows, nil
	}
	coarse := `SELECT rowid FROM rag_vectors WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`
	args := []any{query, s.opt.Rescore}
	if !f.empty() {
		coarse += ` AND paper_id IN (SELECT p.id FROM papers p WHERE ` + cond + `)`
		args = append(args, cargs...)
	}
	var ids []int64
	if err := s.st.Reader().SelectContext(ctx, &ids, coarse, args...); err != nil {
		return nil, fmt.Errorf("rag: binary vector search: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	args = []any{query}
	for _, id := range ids {
		args = append(args, id)
	}
	err := s.st.Reader().SelectContext(ctx, &rows, `SELECT chunk_id AS id, vec_distance_cosine(embedding, ?) AS distance
		FROM rag_embeddings WHERE chunk_id IN (`+placeholders(len(ids))+`) ORDER BY distance LIMIT ?`, append(args, candidates)...)
	if err != nil {
		return nil, fmt.Errorf("rag: vector re-ranking: %w", err)
	}
	return rows, nil
}

// fuse merges the rankings by reciprocal rank fusion, best first (ties by
// passage id for a stable order).
func fuse(kw, vec []ranked) []ranked {
	byID := map[int64]*ranked{}
	var order []*ranked
	add := func(r ranked) *ranked {
		if p, ok := byID[r.id]; ok {
			return p
		}
		p := &ranked{id: r.id}
		byID[r.id] = p
		order = append(order, p)
		return p
	}
	for _, r := range kw {
		p := add(r)
		p.kwRank = r.kwRank
		p.rrfScore += 1 / float64(rrfK+r.kwRank)
	}
	for _, r := range vec {
		p := add(r)
		p.vecRank, p.similarity = r.vecRank, r.similarity
		p.rrfScore += 1 / float64(rrfK+r.vecRank)
	}
	slices.SortStableFunc(order, func(a, b *ranked) int {
		switch {
		case a.rrfScore > b.rrfScore:
			return -1
		case a.rrfScore < b.rrfScore:
			return 1
		}
		return int(a.id - b.id)
	})
	out := make([]ranked, len(order))
	for i, p := range order {
		out[i] = *p
	}
	return out
}

// loadHits reads the passages and their papers, keeping the order of rs.
func (s *Service) loadHits(ctx context.Context, rs []ranked) ([]Hit, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	args := make([]any, len(rs))
	for i, r := range rs {
		args[i] = r.id
	}
	var rows []Hit
	err := sqlx.SelectContext(ctx, s.st.Reader(), &rows, `SELECT c.id, c.paper_id, c.section_path, c.start_byte, c.end_byte,
		c.text, p.title, p.year FROM rag_chunks c JOIN papers p ON p.id = c.paper_id WHERE c.id IN (`+placeholders(len(rs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("rag: load passages: %w", err)
	}
	byID := make(map[int64]Hit, len(rows))
	for _, h := range rows {
		byID[h.ID] = h
	}
	out := make([]Hit, 0, len(rs))
	for _, r := range rs {
		h, ok := byID[r.id]
		if !ok {
			continue // re-indexed since it was ranked
		}
		h.Score, h.KeywordRank, h.VectorRank, h.Similarity = r.rrfScore, r.kwRank, r.vecRank, r.similarity
		out = append(out, h)
	}
	return out, nil
}
