package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// RagChunk is a passage to store: Text is markdown[Start:End] (byte
// offsets) of the paper's Markdown, Seq its place in the paper.
type RagChunk struct {
	Seq         int
	SectionPath string
	Start, End  int
	Text        string
}

// RagPassage is a stored passage (a rag_chunks row).
type RagPassage struct {
	ID          int64  `db:"id"`
	PaperID     int64  `db:"paper_id"`
	SectionPath string `db:"section_path"`
	Start       int    `db:"start_byte"`
	End         int    `db:"end_byte"`
	Text        string `db:"text"`
}

// RagPendingChunk is a stored passage that has no vector yet.
type RagPendingChunk struct {
	ID          int64  `db:"id"`
	SectionPath string `db:"section_path"`
	Text        string `db:"text"`
}

// RagReplaceChunks swaps paperID's passages (and their full-text rows) for
// chunks in one transaction, so keyword search sees either the old or the
// new passages, and records hash as the indexed text with status (a paper
// queued meanwhile stays queued). Its vectors go with the old passages.
func (s *Store) RagReplaceChunks(ctx context.Context, paperID int64, hash, status string, chunks []RagChunk) error {
	return s.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rag_chunks WHERE paper_id = ?`, paperID); err != nil {
			return fmt.Errorf("store: delete passages of paper %d: %w", paperID, err)
		}
		stmt, err := tx.PreparexContext(ctx, `INSERT INTO rag_chunks (paper_id, seq, section_path, start_byte, end_byte, text)
			VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("store: prepare passage insert: %w", err)
		}
		defer stmt.Close()
		for _, c := range chunks {
			if _, err := stmt.ExecContext(ctx, paperID, c.Seq, c.SectionPath, c.Start, c.End, c.Text); err != nil {
				return fmt.Errorf("store: insert passage %d of paper %d: %w", c.Seq, paperID, err)
			}
		}
		now := s.Now()
		_, err = tx.ExecContext(ctx, `INSERT INTO rag_documents (paper_id, status, md_sha256, chunks, embedded, embed_model, error, queued_at, updated_at)
			VALUES (?, ?, ?, ?, 0, '', '', ?, ?)
			ON CONFLICT (paper_id) DO UPDATE SET
				status = CASE rag_documents.status WHEN 'queued' THEN 'queued' ELSE excluded.status END,
				md_sha256 = excluded.md_sha256,
				chunks = excluded.chunks, embedded = 0, embed_model = '', error = '', updated_at = excluded.updated_at`,
			paperID, status, hash, len(chunks), now, now)
		if err != nil {
			return fmt.Errorf("store: record index state of paper %d: %w", paperID, err)
		}
		return nil
	})
}

// RagPendingChunks returns up to limit of paperID's passages that have no
// vector, in paper order.
func (s *Store) RagPendingChunks(ctx context.Context, paperID int64, limit int) ([]RagPendingChunk, error) {
	var batch []RagPendingChunk
	err := s.r.SelectContext(ctx, &batch, `SELECT id, section_path, text FROM rag_chunks c
		WHERE paper_id = ? AND NOT EXISTS (SELECT 1 FROM rag_embeddings e WHERE e.chunk_id = c.id)
		ORDER BY seq LIMIT ?`, paperID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: passages to embed of paper %d: %w", paperID, err)
	}
	return batch, nil
}

// RagPassage returns one stored passage; ErrNotFound when there is none
// (for example after its paper was re-indexed).
func (s *Store) RagPassage(ctx context.Context, id int64) (RagPassage, error) {
	var p RagPassage
	err := s.r.GetContext(ctx, &p, `SELECT id, paper_id, section_path, start_byte, end_byte, text
		FROM rag_chunks WHERE id = ?`, id)
	if err != nil {
		return RagPassage{}, notFound(err, fmt.Sprintf("passage %d", id))
	}
	return p, nil
}
