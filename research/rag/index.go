package rag

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Indexing runs in two phases, each resumable:
//
//	queued → chunking → embedding → indexed     (failed from any phase)
//
// Chunking replaces a paper's passages (and their FTS rows) in one
// transaction, so keyword search sees either the old or the new passages.
// Embedding then adds vectors batch by batch; after a restart it continues
// with the passages that still have none.
// Without an embedding model a paper goes straight to indexed.

// document is a rag_documents row.
type document struct {
	PaperID    int64  `db:"paper_id"`
	Status     string `db:"status"`
	Hash       string `db:"md_sha256"`
	Chunks     int    `db:"chunks"`
	Embedded   int    `db:"embedded"`
	EmbedModel string `db:"embed_model"`
}

// Enqueue puts a paper in the indexing queue (persisted) and wakes the
// worker. A paper already waiting stays where it is in the queue; one
// being indexed goes back in the queue (its text may have changed since
// the worker read it) and the run in progress leaves it there.
func (s *Service) Enqueue(ctx context.Context, paperID int64) error {
	defer s.progress.changed() // after the write commits
	now := s.st.Now()
	_, err := s.st.Writer().ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, queued_at, updated_at)
		VALUES (?, 'queued', ?, ?)
		ON CONFLICT (paper_id) DO UPDATE SET status = 'queued', error = '', queued_at = excluded.queued_at, updated_at = excluded.updated_at
		WHERE rag_documents.status != 'queued'`, paperID, now, now)
	if err != nil {
		return fmt.Errorf("rag: enqueue paper %d: %w", paperID, err)
	}
	s.notify()
	return nil
}

func (s *Service) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// IndexPaper indexes markdown as the current text of paperID, now: it cuts
// it into passages, replaces the paper's passages, and embeds them when an
// embedding model is configured. Markdown with the hash already indexed is
// not cut again (only missing vectors are added). Offsets of the passages
// are byte offsets into markdown.
func (s *Service) IndexPaper(ctx context.Context, paperID int64, markdown string) error {
	sum := sha256.Sum256([]byte(markdown))
	hash := hex.EncodeToString(sum[:])
	doc, err := s.document(ctx, paperID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	// Passages are replaced in one transaction, so passages recorded with
	// this hash are complete: only a new text is cut again.
	if err != nil || doc.Hash != hash || doc.Chunks == 0 {
		if err := s.replaceChunks(ctx, paperID, hash, ChunkMarkdown(markdown, s.opt.Chunk)); err != nil {
			s.fail(ctx, paperID, err)
			return err
		}
		if s.opt.OnIndexed != nil {
			s.opt.OnIndexed(paperID)
		}
	}
	if err := s.embedPending(ctx, paperID); err != nil {
		s.fail(ctx, paperID, err)
		return err
	}
	return nil
}

func (s *Service) document(ctx context.Context, paperID int64) (document, error) {
	var d document
	err := s.st.Reader().GetContext(ctx, &d, `SELECT paper_id, status, md_sha256, chunks, embedded, embed_model
		FROM rag_documents WHERE paper_id = ?`, paperID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("rag: read index state of paper %d: %w", paperID, err)
	}
	return d, err
}

// replaceChunks swaps the paper's passages for chunks in one transaction.
func (s *Service) replaceChunks(ctx context.Context, paperID int64, hash string, chunks []Chunk) error {
	defer s.progress.changed() // after the write commits
	status := "indexed"
	if s.opt.Embedder != nil && len(chunks) > 0 {
		status = "embedding"
	}
	return s.st.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rag_chunks WHERE paper_id = ?`, paperID); err != nil {
			return fmt.Errorf("rag: delete passages of paper %d: %w", paperID, err)
		}
		stmt, err := tx.PreparexContext(ctx, `INSERT INTO rag_chunks (paper_id, seq, section_path, start_byte, end_byte, text)
			VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("rag: prepare passage insert: %w", err)
		}
		defer stmt.Close()
		for _, c := range chunks {
			if _, err := stmt.ExecContext(ctx, paperID, c.Seq, c.SectionPath, c.Start, c.End, c.Text); err != nil {
				return fmt.Errorf("rag: insert passage %d of paper %d: %w", c.Seq, paperID, err)
			}
		}
		now := s.st.Now()
		_, err = tx.ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, md_sha256, chunks, embedded, embed_model, error, queued_at, updated_at)
			VALUES (?, ?, ?, ?, 0, '', '', ?, ?)
			ON CONFLICT (paper_id) DO UPDATE SET
				status = CASE rag_documents.status WHEN 'queued' THEN 'queued' ELSE excluded.status END,
				md_sha256 = excluded.md_sha256,
				chunks = excluded.chunks, embedded = 0, embed_model = '', error = '', updated_at = excluded.updated_at`,
			paperID, status, hash, len(chunks), now, now)
		if err != nil {
			return fmt.Errorf("rag: record index state of paper %d: %w", paperID, err)
		}
		return nil
	})
}

// pendingChunk is a passage still without a vector.
type pendingChunk struct {
	ID          int64  `db:"id"`
	SectionPath string `db:"section_path"`
	Text        string `db:"text"`
}

// embedPending adds vectors for the paper's passages that lack one, a batch
// per transaction, then marks the paper indexed.
func (s *Service) embedPending(ctx context.Context, paperID int64) error {
	if s.opt.Embedder == nil {
		return s.markIndexed(ctx, paperID)
	}
	for {
		var batch []pendingChunk
		err := s.st.Reader().SelectContext(ctx, &batch, `SELECT id, section_path, text FROM rag_chunks c
			WHERE paper_id = ? AND NOT EXISTS (SELECT 1 FROM rag_embeddings e WHERE e.chunk_id = c.id)
			ORDER BY seq LIMIT ?`, paperID, s.opt.BatchSize)
		if err != nil {
			return fmt.Errorf("rag: passages to embed of paper %d: %w", paperID, err)
		}
		if len(batch) == 0 {
			return s.markIndexed(ctx, paperID)
		}
		inputs := make([]string, len(batch))
		for i, c := range batch {
			inputs[i] = embedInput(c.SectionPath, c.Text)
		}
		vecs, err := s.opt.Embedder.Embed(ctx, inputs)
		if err != nil {
			return fmt.Errorf("rag: embed passages of paper %d: %w", paperID, err)
		}
		if len(vecs) != len(batch) {
			return fmt.Errorf("rag: embed passages of paper %d: %d vectors for %d passages", paperID, len(vecs), len(batch))
		}
		if err := s.storeVectors(ctx, paperID, batch, vecs); err != nil {
			return err
		}
	}
}

// embedInput is what gets embedded for a passage: its section path gives
// the vector the context a reader has.
func embedInput(path, text string) string {
	if path == "" {
		return text
	}
	return path + "\n\n" + text
}

func (s *Service) storeVectors(ctx context.Context, paperID int64, batch []pendingChunk, vecs [][]float32) error {
	defer s.progress.changed() // after the write commits
	return s.st.Tx(ctx, func(tx *sqlx.Tx) error {
		dim := len(vecs[0])
		if err := ensureVectorTable(ctx, tx, dim); err != nil {
			return err
		}
		for i, c := range batch {
			if len(vecs[i]) != dim {
				return fmt.Errorf("rag: embeddings of mixed dimension (%d and %d)", len(vecs[i]), dim)
			}
			blob := vectorBlob(vecs[i])
			if _, err := tx.ExecContext(ctx, `INSERT INTO rag_embeddings (chunk_id, embedding) VALUES (?, ?)`, c.ID, blob); err != nil {
				return fmt.Errorf("rag: store vector of passage %d: %w", c.ID, err)
			}
			if dim%8 != 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rag_vectors (rowid, paper_id, embedding) VALUES (?, ?, vec_quantize_binary(?))`,
				c.ID, paperID, blob); err != nil {
				return fmt.Errorf("rag: index vector of passage %d: %w", c.ID, err)
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE rag_documents SET embedded = embedded + ?, updated_at = ? WHERE paper_id = ?`,
			len(batch), s.st.Now(), paperID)
		if err != nil {
			return fmt.Errorf("rag: record embedding progress of paper %d: %w", paperID, err)
		}
		return nil
	})
}

func (s *Service) markIndexed(ctx context.Context, paperID int64) error {
	defer s.progress.changed() // after the write commits
	_, err := s.st.Writer().ExecContext(ctx, `UPDATE rag_documents SET status = CASE status WHEN 'queued' THEN 'queued' ELSE 'indexed' END,
		error = '', embed_model = ?, updated_at = ? WHERE paper_id = ?`, s.opt.EmbedModel, s.st.Now(), paperID)
	if err != nil {
		return fmt.Errorf("rag: mark paper %d indexed: %w", paperID, err)
	}
	return nil
}

// fail records why indexing a paper stopped. Passages already stored stay
// searchable by keyword. A cancelled context is not a failure: the paper
// resumes at the next start.
func (s *Service) fail(ctx context.Context, paperID int64, cause error) {
	defer s.progress.changed() // after the write commits
	if ctx.Err() != nil {
		return
	}
	msg := cause.Error()
	if len(msg) > 500 {
		msg = strings.ToValidUTF8(msg[:500], "")
	}
	_, err := s.st.Writer().ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, error, queued_at, updated_at)
		VALUES (?, 'failed', ?, ?, ?)
		ON CONFLICT (paper_id) DO UPDATE SET status = 'failed', error = excluded.error, updated_at = excluded.updated_at
		WHERE rag_documents.status != 'queued'`,
		paperID, msg, s.st.Now(), s.st.Now())
	if err != nil {
		s.log.Warn("rag: record indexing failure", "paper", paperID, "err", err)
	}
	s.log.Warn("rag: indexing failed", "paper", paperID, "err", cause)
}
