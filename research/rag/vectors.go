package rag

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// Vectors live in two places. rag_embeddings (a plain table, from the
// migration) holds each passage's float32 vector. rag_vectors, a vec0 table
// created at run time because its width is the model's dimension, holds the
// binary quantisation of the same vectors:
//
//	rag_vectors(rowid = rag_chunks.id, paper_id integer (metadata, filterable),
//	            embedding bit[dim])
//
// Search takes the nearest passages by Hamming distance from rag_vectors
// (Options.Rescore of them) and re-ranks those by exact cosine distance over
// rag_embeddings. Brute force over float vectors in vec0 measured ~10x
// slower at 100,000 passages (see BenchmarkRetrieval). A dimension that is
// not a multiple of 8 cannot be bit-quantised: then there is no rag_vectors
// and search scans rag_embeddings exactly.
//
// rag_settings records which model and dimension the vectors come from. A
// trigger removes a passage's bits with its embedding.

// defaultRescore is how many passages the binary search hands to the
// exact re-ranking (Options.Rescore). sqlite-vec's top-k selection costs
// O(k) per vector, so this is the main knob of vector search latency:
// measured at 100,000 passages, 768-dim, ~30 ms CPU at 100 vs ~45 at 200;
// recall@10 against exact cosine on clustered vectors 0.997 at 100, 0.83
// at 50 (BenchmarkBinaryRecall).
const defaultRescore = 100

const (
	settingModel = "embed_model"
	settingDim   = "embed_dim"
)

func getSetting(ctx context.Context, q sqlx.QueryerContext, key string) (string, error) {
	var v string
	err := sqlx.GetContext(ctx, q, &v, `SELECT value FROM rag_settings WHERE key = ?`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("rag: read setting %s: %w", key, err)
	}
	return v, nil
}

func setSetting(ctx context.Context, tx *sqlx.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO rag_settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("rag: write setting %s: %w", key, err)
	}
	return nil
}

// reconcileModel makes the vectors match the configured model: when it
// differs from the one the vectors came from, the vectors are dropped and
// every indexed paper goes back to the embedding phase.
func (s *Service) reconcileModel(ctx context.Context) error {
	defer s.progress.changed() // after the write commits
	if s.opt.EmbedModel == "" {
		return nil
	}
	return s.st.Tx(ctx, func(tx *sqlx.Tx) error {
		stored, err := getSetting(ctx, tx, settingModel)
		if err != nil {
			return err
		}
		if stored != s.opt.EmbedModel {
			for _, q := range []string{
				`DROP TRIGGER IF EXISTS rag_embeddings_vec_ad`,
				`DROP TABLE IF EXISTS rag_vectors`,
				`DELETE FROM rag_settings WHERE key = '` + settingDim + `'`,
				`DELETE FROM rag_embeddings`,
				`UPDATE rag_documents SET embedded = 0, embed_model = ''`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("rag: reset vectors: %w", err)
				}
			}
			if err := setSetting(ctx, tx, settingModel, s.opt.EmbedModel); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE rag_documents SET status = 'embedding', updated_at = ?
			WHERE status = 'indexed' AND embed_model != ?`, s.st.Now(), s.opt.EmbedModel)
		if err != nil {
			return fmt.Errorf("rag: queue papers for embedding: %w", err)
		}
		return nil
	})
}

// ensureVectorTable records dim and creates rag_vectors for it inside tx
// unless done before; vectors of another dimension are an error.
func ensureVectorTable(ctx context.Context, tx *sqlx.Tx, dim int) error {
	stored, err := getSetting(ctx, tx, settingDim)
	if err != nil {
		return err
	}
	if stored != "" {
		if stored != strconv.Itoa(dim) {
			return fmt.Errorf("rag: the embedding model returned %d-dimensional vectors, the index holds %s", dim, stored)
		}
		return nil
	}
	if dim <= 0 || dim > 8192 {
		return fmt.Errorf("rag: embedding dimension %d out of range", dim)
	}
	if dim%8 == 0 {
		for _, q := range []string{
			fmt.Sprintf(`CREATE VIRTUAL TABLE rag_vectors USING vec0(paper_id integer, embedding bit[%d])`, dim),
			`CREATE TRIGGER rag_embeddings_vec_ad AFTER DELETE ON rag_embeddings BEGIN
				DELETE FROM rag_vectors WHERE rowid = old.chunk_id;
			END`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("rag: create vector table: %w", err)
			}
		}
	}
	return setSetting(ctx, tx, settingDim, strconv.Itoa(dim))
}

// vectorsReady reports whether vectors of the configured model are stored,
// and whether they have a binary index (rag_vectors).
func (s *Service) vectorsReady(ctx context.Context) (ready, binary bool, err error) {
	if s.opt.EmbedModel == "" {
		return false, false, nil
	}
	model, err := getSetting(ctx, s.st.Reader(), settingModel)
	if err != nil {
		return false, false, err
	}
	dim, err := getSetting(ctx, s.st.Reader(), settingDim)
	if err != nil {
		return false, false, err
	}
	n, _ := strconv.Atoi(dim)
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
