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

// The vec0 table is created at run time because its dimension is that of
// the embedding model, known from the first vectors it returns:
//
//	rag_vectors(rowid = rag_chunks.id, paper_id integer (metadata, filterable),
//	            embedding float[dim] distance_metric=cosine)
//
// rag_settings records which model and dimension it holds. A trigger
// removes a chunk's vector with the chunk.

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
				`DROP TRIGGER IF EXISTS rag_chunks_vec_ad`,
				`DROP TABLE IF EXISTS rag_vectors`,
				`DELETE FROM rag_settings WHERE key = '` + settingDim + `'`,
				`UPDATE rag_chunks SET embedded = 0 WHERE embedded = 1`,
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

// ensureVectorTable creates rag_vectors for dim inside tx unless it exists;
// vectors of another dimension than the table's are an error.
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
	for _, q := range []string{
		fmt.Sprintf(`CREATE VIRTUAL TABLE rag_vectors USING vec0(paper_id integer, embedding float[%d] distance_metric=cosine)`, dim),
		`CREATE TRIGGER rag_chunks_vec_ad AFTER DELETE ON rag_chunks WHEN old.embedded = 1 BEGIN
			DELETE FROM rag_vectors WHERE rowid = old.id;
		END`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rag: create vector table: %w", err)
		}
	}
	return setSetting(ctx, tx, settingDim, strconv.Itoa(dim))
}

// vectorsReady reports whether rag_vectors exists and holds vectors of the
// configured model.
func (s *Service) vectorsReady(ctx context.Context) (bool, error) {
	if s.opt.EmbedModel == "" {
		return false, nil
	}
	model, err := getSetting(ctx, s.st.Reader(), settingModel)
	if err != nil {
		return false, err
	}
	dim, err := getSetting(ctx, s.st.Reader(), settingDim)
	if err != nil {
		return false, err
	}
	return model == s.opt.EmbedModel && dim != "", nil
}

// vectorBlob encodes v the way sqlite-vec reads float32 vectors.
func vectorBlob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
