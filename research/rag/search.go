package rag

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/astroresearch/astroresearch/store"
)

// Filter narrows retrieval to some papers of the library; zero fields do
// not filter. Fields combine with AND.
type Filter struct {
	PaperIDs []int64
	Tag      string
	Year     int
}

// stored is f as the store's filter.
func (f Filter) stored() store.RagFilter {
	return store.RagFilter{PaperIDs: f.PaperIDs, Tag: f.Tag, Year: f.Year}
}

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
	match, err := s.matchExpression(ctx, quoted)
	if err != nil {
		return nil, err
	}
	ids, err := s.st.RagKeywordSearch(ctx, match, q.Filter.stored(), candidates)
	if err != nil {
		return nil, fmt.Errorf("rag: %w", err)
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
	total, err := s.st.RagPassageCount(ctx)
	if err != nil {
		return "", fmt.Errorf("rag: %w", err)
	}
	limit := max(1000, total/commonShare)
	var rare []string
	for _, t := range quoted {
		n, err := s.st.RagMatchCount(ctx, t, limit+1)
		if err != nil {
			return "", fmt.Errorf("rag: %w", err)
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
	rows, err := s.st.RagPassageTexts(ctx, ids)
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

// nearest returns the candidates closest to the query vector by cosine
// distance: with a binary index, the Options.Rescore nearest by Hamming distance
// re-ranked exactly; without, an exact scan.
func (s *Service) nearest(ctx context.Context, query []byte, f Filter, binary bool) ([]store.RagDistance, error) {
	if !binary {
		rows, err := s.st.RagNearestExact(ctx, query, f.stored(), candidates)
		if err != nil {
			return nil, fmt.Errorf("rag: %w", err)
		}
		return rows, nil
	}
	ids, err := s.st.RagNearestBinary(ctx, query, f.stored(), s.opt.Rescore)
	if err != nil {
		return nil, fmt.Errorf("rag: %w", err)
	}
	rows, err := s.st.RagRerank(ctx, query, ids, candidates)
	if err != nil {
		return nil, fmt.Errorf("rag: %w", err)
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
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.id
	}
	rows, err := s.st.RagHits(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("rag: %w", err)
	}
	byID := make(map[int64]Hit, len(rows))
	for _, h := range rows {
		byID[h.ID] = Hit{Passage: Passage(h.RagPassage), Title: h.Title, Year: h.Year}
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
