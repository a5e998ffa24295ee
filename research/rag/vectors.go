package rag

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Vectors are stored by package store (see store/rag_vectors.go): each
// passage's float32 vector in rag_embeddings, and its binary quantisation
// in rag_vectors when the dimension is a multiple of 8.
//
// Search takes the nearest passages by Hamming distance from rag_vectors
// (Options.Rescore of them) and re-ranks those by exact cosine distance over
// rag_embeddings. Brute force over float vectors in vec0 measured ~10x
// slower at 100,000 passages (see BenchmarkRetrieval). Without rag_vectors
// search scans rag_embeddings exactly.

// defaultRescore is how many passages the binary search hands to the
// exact re-ranking (Options.Rescore). sqlite-vec's top-k selection costs
// O(k) per vector, so this is the main knob of vector search latency:
// measured at 100,000 passages, 768-dim, ~30 ms CPU at 100 vs ~45 at 200;
// recall@10 against exact cosine on clustered vectors 0.997 at 100, 0.83
// at 50 (BenchmarkBinaryRecall).
const defaultRescore = 100

// reconcileModel makes the vectors match the configured model: when it
// differs from the one the vectors came from, the vectors are dropped and
// every indexed paper goes back to the embedding phase.
func (s *Service) reconcileModel(ctx context.Context) error {
	defer s.progress.changed() // after the write commits
	if s.opt.EmbedModel == "" {
		return nil
	}
	if err := s.st.RagUseModel(ctx, s.opt.EmbedModel); err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	return nil
}

// vectorsReady reports whether vectors of the configured model are stored,
// and whether they have a binary index (rag_vectors).
func (s *Service) vectorsReady(ctx context.Context) (ready, binary bool, err error) {
	if s.opt.EmbedModel == "" {
		return false, false, nil
	}
	model, n, err := s.st.RagVectorSettings(ctx)
	if err != nil {
		return false, false, fmt.Errorf("rag: %w", err)
	}
	return model == s.opt.EmbedModel && n > 0, n > 0 && n%8 == 0, nil
}

// vectorBlob encodes v the way sqlite-vec reads float32 vectors.
func vectorBlob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
