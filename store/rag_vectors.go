package store

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// Passage vectors live in two places. rag_embeddings (a plain table, from
// the migration) holds each passage's float32 vector. rag_vectors, a vec0
// table created at run time because its width is the model's dimension,
// holds the binary quantisation of the same vectors:
//
//	rag_vectors(rowid = rag_chunks.id, paper_id integer (metadata, filterable),
//	            embedding bit[dim])
//
// A dimension that is not a multiple of 8 cannot be bit-quantised: then
// there is no rag_vectors. rag_settings records which model and dimension
// the vectors come from. A trigger removes a passage's bits with its
// embedding.

const (
	ragSettingModel = "embed_model"
	ragSettingDim   = "embed_dim"
)

// RagVectorSettings returns the embedding model and the dimension of the
// stored vectors ("" and 0 when none were stored).
func (s *Store) RagVectorSettings(ctx context.Context) (model string, dim int, err error) {
	model, err = ragSetting(ctx, s.r, ragSettingModel)
	if err != nil {
		return "", 0, err
	}
	d, err := ragSetting(ctx, s.r, ragSettingDim)
	if err != nil {
		return "", 0, err
	}
	dim, _ = strconv.Atoi(d)
	return model, dim, nil
}

// RagUseModel makes the stored vectors match model: when they came from
// another model they are dropped (with the binary index) and model is
// recorded; then every indexed paper whose vectors are not model's goes
// back to the embedding phase. One transaction.
func (s *Store) RagUseModel(ctx context.Context, model string) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		stored, err := ragSetting(ctx, tx, ragSettingModel)
		if err != nil {
			return err
		}
		if stored != model {
			for _, q := range []string{
				`DROP TRIGGER IF EXISTS rag_embeddings_vec_ad`,
				`DROP TABLE IF EXISTS rag_vectors`,
				`DELETE FROM rag_settings WHERE key = '` + ragSettingDim + `'`,
				`DELETE FROM rag_embeddings`,
				`UPDATE rag_documents SET embedded = 0, embed_model = ''`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("store: reset vectors: %w", err)
				}
			}
			if err := setRagSetting(ctx, tx, ragSettingModel, model); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE rag_documents SET status = 'embedding', updated_at = ?
			WHERE status = 'indexed' AND embed_model != ?`, s.Now(), model)
		if err != nil {
			return fmt.Errorf("store: queue papers for embedding: %w", err)
		}
		return nil
	})
}

// RagAddVectors stores the vectors of a batch of paperID's passages
// (vectors[i] is the little-endian float32 encoding of ids[i]'s, all of dim
// dimensions) and counts them in the paper's progress, in one transaction.
// The first vectors stored fix the dimension (and create the binary index
// when dim is a multiple of 8); vectors of another dimension are an error.
func (s *Store) RagAddVectors(ctx context.Context, paperID int64, dim int, ids []int64, vectors [][]byte) error {
	if len(ids) != len(vectors) {
		return fmt.Errorf("store: %d vectors for %d passages", len(vectors), len(ids))
	}
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := ensureVectorTable(ctx, tx, dim); err != nil {
			return err
		}
		for i, id := range ids {
			if _, err := tx.ExecContext(ctx, `INSERT INTO rag_embeddings (chunk_id, embedding) VALUES (?, ?)`, id, vectors[i]); err != nil {
				return fmt.Errorf("store: store vector of passage %d: %w", id, err)
			}
			if dim%8 != 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rag_vectors (rowid, paper_id, embedding) VALUES (?, ?, vec_quantize_binary(?))`,
				id, paperID, vectors[i]); err != nil {
				return fmt.Errorf("store: index vector of passage %d: %w", id, err)
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE rag_documents SET embedded = embedded + ?, updated_at = ? WHERE paper_id = ?`,
			len(ids), s.Now(), paperID)
		if err != nil {
			return fmt.Errorf("store: record embedding progress of paper %d: %w", paperID, err)
		}
		return nil
	})
}

// ensureVectorTable records dim and creates rag_vectors for it inside tx
// unless done before; vectors of another dimension are an error.
func ensureVectorTable(ctx context.Context, tx *sqlx.Tx, dim int) error {
	stored, err := ragSetting(ctx, tx, ragSettingDim)
	if err != nil {
		return err
	}
	if stored != "" {
		if stored != strconv.Itoa(dim) {
			return fmt.Errorf("store: the embedding model returned %d-dimensional vectors, the index holds %s", dim, stored)
		}
		return nil
	}
	if dim <= 0 || dim > 8192 {
		return fmt.Errorf("store: embedding dimension %d out of range", dim)
	}
	if dim%8 == 0 {
		for _, q := range []string{
			fmt.Sprintf(`CREATE VIRTUAL TABLE rag_vectors USING vec0(paper_id integer, embedding bit[%d])`, dim),
			`CREATE TRIGGER rag_embeddings_vec_ad AFTER DELETE ON rag_embeddings BEGIN
				DELETE FROM rag_vectors WHERE rowid = old.chunk_id;
			END`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("store: create vector table: %w", err)
			}
		}
	}
	return setRagSetting(ctx, tx, ragSettingDim, strconv.Itoa(dim))
}

func setRagSetting(ctx context.Context, tx *sqlx.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO rag_settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("store: write index setting %s: %w", key, err)
	}
	return nil
}
