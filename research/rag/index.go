package rag

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/store"
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

// Enqueue puts a paper in the indexing queue (persisted) and wakes the
// worker. A paper already waiting stays where it is in the queue; one
// being indexed goes back in the queue (its text may have changed since
// the worker read it) and the run in progress leaves it there.
func (s *Service) Enqueue(ctx context.Context, paperID int64) error {
	defer s.progress.changed() // after the write commits
	if err := s.st.RagEnqueue(ctx, paperID); err != nil {
		return fmt.Errorf("rag: %w", err)
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
	doc, err := s.st.RagDocument(ctx, paperID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("rag: %w", err)
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

// replaceChunks swaps the paper's passages for chunks in one transaction.
func (s *Service) replaceChunks(ctx context.Context, paperID int64, hash string, chunks []Chunk) error {
	defer s.progress.changed() // after the write commits
	status := "indexed"
	if s.opt.Embedder != nil && len(chunks) > 0 {
		status = "embedding"
	}
	rows := make([]store.RagChunk, len(chunks))
	for i, c := range chunks {
		rows[i] = store.RagChunk(c)
	}
	if err := s.st.RagReplaceChunks(ctx, paperID, hash, status, rows); err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	return nil
}

// embedPending adds vectors for the paper's passages that lack one, a batch
// per transaction, then marks the paper indexed.
func (s *Service) embedPending(ctx context.Context, paperID int64) error {
	if s.opt.Embedder == nil {
		return s.markIndexed(ctx, paperID)
	}
	for {
		batch, err := s.st.RagPendingChunks(ctx, paperID, s.opt.BatchSize)
		if err != nil {
			return fmt.Errorf("rag: %w", err)
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

// storeVectors stores the vectors of batch, one per passage in order.
func (s *Service) storeVectors(ctx context.Context, paperID int64, batch []store.RagPendingChunk, vecs [][]float32) error {
	defer s.progress.changed() // after the write commits
	dim := len(vecs[0])
	ids := make([]int64, len(batch))
	blobs := make([][]byte, len(batch))
	for i, c := range batch {
		if len(vecs[i]) != dim {
			return fmt.Errorf("rag: embeddings of mixed dimension (%d and %d)", len(vecs[i]), dim)
		}
		ids[i], blobs[i] = c.ID, vectorBlob(vecs[i])
	}
	if err := s.st.RagAddVectors(ctx, paperID, dim, ids, blobs); err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	return nil
}

func (s *Service) markIndexed(ctx context.Context, paperID int64) error {
	defer s.progress.changed() // after the write commits
	if err := s.st.RagMarkIndexed(ctx, paperID, s.opt.EmbedModel); err != nil {
		return fmt.Errorf("rag: %w", err)
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
	if err := s.st.RagMarkFailed(ctx, paperID, msg); err != nil {
		s.log.Warn("rag: record indexing failure", "paper", paperID, "err", err)
	}
	s.log.Warn("rag: indexing failed", "paper", paperID, "err", cause)
}
