package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// The passage index's queue: one rag_documents row per paper, in one of the
// states queued → chunking → embedding → indexed (failed from any). The
// rules of when a paper moves are research/rag's; these methods are the
// statements it runs.

// RagDocument is a paper's indexing state (a rag_documents row).
type RagDocument struct {
	PaperID    int64  `db:"paper_id"`
	Status     string `db:"status"`
	Hash       string `db:"md_sha256"`
	Chunks     int    `db:"chunks"`
	Embedded   int    `db:"embedded"`
	EmbedModel string `db:"embed_model"`
}

// RagStatusCount is how many papers are in one indexing state, with their
// passages and the passages that have a vector.
type RagStatusCount struct {
	Status   string `db:"status"`
	N        int    `db:"n"`
	Chunks   int    `db:"chunks"`
	Embedded int    `db:"embedded"`
}

// RagRequeue puts back in the queue the papers a shutdown interrupted while
// chunking and those that failed before any passage was stored.
func (s *Store) RagRequeue(ctx context.Context) error {
	_, err := s.w.ExecContext(ctx, `UPDATE rag_documents SET status = 'queued', updated_at = ?
		WHERE status = 'chunking' OR (status = 'failed' AND chunks = 0)`, s.Now())
	if err != nil {
		return fmt.Errorf("store: requeue interrupted papers: %w", err)
	}
	return nil
}

// RagQueueParsed queues every parsed paper that has no indexing state yet.
func (s *Store) RagQueueParsed(ctx context.Context) error {
	now := s.Now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, queued_at, updated_at)
		SELECT id, 'queued', ?, ? FROM papers WHERE parse_status = 'parsed'
		AND id NOT IN (SELECT paper_id FROM rag_documents)`, now, now)
	if err != nil {
		return fmt.Errorf("store: queue parsed papers: %w", err)
	}
	return nil
}

// RagResume moves to status next ("embedding" or "indexed") the papers that
// failed after their passages were stored, and, when next is "indexed",
// those waiting for vectors.
func (s *Store) RagResume(ctx context.Context, next string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE rag_documents SET status = ?, updated_at = ?
		WHERE (status = 'failed' AND chunks > 0) OR (status = 'embedding' AND ? = 'indexed')`, next, s.Now(), next)
	if err != nil {
		return fmt.Errorf("store: resume embedding: %w", err)
	}
	return nil
}

// RagEnqueue queues paperID. A paper already queued keeps its place; any
// other state (a failure included) is queued anew.
func (s *Store) RagEnqueue(ctx context.Context, paperID int64) error {
	now := s.Now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, queued_at, updated_at)
		VALUES (?, 'queued', ?, ?)
		ON CONFLICT (paper_id) DO UPDATE SET status = 'queued', error = '', queued_at = excluded.queued_at, updated_at = excluded.updated_at
		WHERE rag_documents.status != 'queued'`, paperID, now, now)
	if err != nil {
		return fmt.Errorf("store: enqueue paper %d for indexing: %w", paperID, err)
	}
	return nil
}

// RagClaimQueued marks the oldest queued paper chunking and returns it;
// ErrNotFound when none is queued.
func (s *Store) RagClaimQueued(ctx context.Context) (int64, error) {
	var id int64
	err := s.w.GetContext(ctx, &id, `UPDATE rag_documents SET status = 'chunking', updated_at = ?
		WHERE paper_id = (SELECT paper_id FROM rag_documents WHERE status = 'queued' ORDER BY queued_at, paper_id LIMIT 1)
		RETURNING paper_id`, s.Now())
	if err != nil {
		return 0, notFound(err, "claim queued paper")
	}
	return id, nil
}

// RagNextToEmbed returns the oldest paper waiting for vectors; ErrNotFound
// when none is.
func (s *Store) RagNextToEmbed(ctx context.Context) (int64, error) {
	var id int64
	err := s.r.GetContext(ctx, &id, `SELECT paper_id FROM rag_documents WHERE status = 'embedding'
		ORDER BY queued_at, paper_id LIMIT 1`)
	if err != nil {
		return 0, notFound(err, "next paper to embed")
	}
	return id, nil
}

// RagDocument returns paperID's indexing state; ErrNotFound when it was
// never queued.
func (s *Store) RagDocument(ctx context.Context, paperID int64) (RagDocument, error) {
	var d RagDocument
	err := s.r.GetContext(ctx, &d, `SELECT paper_id, status, md_sha256, chunks, embedded, embed_model
		FROM rag_documents WHERE paper_id = ?`, paperID)
	if err != nil {
		return RagDocument{}, notFound(err, fmt.Sprintf("index state of paper %d", paperID))
	}
	return d, nil
}

// RagStatusCounts counts the papers per indexing state.
func (s *Store) RagStatusCounts(ctx context.Context) ([]RagStatusCount, error) {
	var rows []RagStatusCount
	err := s.r.SelectContext(ctx, &rows, `SELECT status, COUNT(*) AS n, COALESCE(SUM(chunks), 0) AS chunks,
		COALESCE(SUM(embedded), 0) AS embedded FROM rag_documents GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("store: indexing progress: %w", err)
	}
	return rows, nil
}

// RagMarkIndexed records that paperID's passages are complete with vectors
// of embedModel ("" without vectors). A paper queued meanwhile stays queued.
func (s *Store) RagMarkIndexed(ctx context.Context, paperID int64, embedModel string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE rag_documents SET status = CASE status WHEN 'queued' THEN 'queued' ELSE 'indexed' END,
		error = '', embed_model = ?, updated_at = ? WHERE paper_id = ?`, embedModel, s.Now(), paperID)
	if err != nil {
		return fmt.Errorf("store: mark paper %d indexed: %w", paperID, err)
	}
	return nil
}

// RagMarkFailed records why indexing paperID stopped. A paper queued
// meanwhile stays queued.
func (s *Store) RagMarkFailed(ctx context.Context, paperID int64, reason string) error {
	now := s.Now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, error, queued_at, updated_at)
		VALUES (?, 'failed', ?, ?, ?)
		ON CONFLICT (paper_id) DO UPDATE SET status = 'failed', error = excluded.error, updated_at = excluded.updated_at
		WHERE rag_documents.status != 'queued'`,
		paperID, reason, now, now)
	if err != nil {
		return fmt.Errorf("store: record indexing failure of paper %d: %w", paperID, err)
	}
	return nil
}

// ragSetting reads one rag_settings value; "" when unset.
func ragSetting(ctx context.Context, q sqlx.QueryerContext, key string) (string, error) {
	var v string
	err := sqlx.GetContext(ctx, q, &v, `SELECT value FROM rag_settings WHERE key = ?`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: read index setting %s: %w", key, err)
	}
	return v, nil
}
