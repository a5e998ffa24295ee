package rag

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// Prepare readies the index after migrations: it re-embeds when the
// embedding model changed, puts back in the queue what a shutdown
// interrupted (chunking) or what failed last time (retried once per
// start), and, with a Source, queues parsed papers never indexed.
func (s *Service) Prepare(ctx context.Context) error {
	defer s.progress.changed() // after the write commits
	if err := s.reconcileModel(ctx); err != nil {
		return err
	}
	if err := s.st.RagRequeue(ctx); err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	if s.opt.Source != nil {
		// Papers parsed while indexing was not wired in (or before this
		// version) join the queue.
		if err := s.st.RagQueueParsed(ctx); err != nil {
			return fmt.Errorf("rag: %w", err)
		}
	}
	next := "indexed"
	if s.opt.Embedder != nil {
		next = "embedding"
	}
	if err := s.st.RagResume(ctx, next); err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	return nil
}

// Run is the background indexer: it works through queued papers (fetching
// their Markdown from Source) and papers waiting for vectors, oldest
// first, until ctx ends. Progress is persisted, so a restart resumes it.
// Run does not call Prepare.
func (s *Service) Run(ctx context.Context) {
	for {
		id, status, err := s.next(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			s.log.Warn("rag: read indexing queue", "err", err)
			if !s.sleep(ctx, 5*time.Second) {
				return
			}
			continue
		case id == 0:
			if !s.sleep(ctx, time.Minute) {
				return
			}
			continue
		}
		if err := s.process(ctx, id, status); err != nil && ctx.Err() == nil {
			s.log.Warn("rag: index paper", "paper", id, "err", err)
		}
	}
}

// sleep waits for d, a wake-up or the end of ctx (false).
func (s *Service) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-s.wake:
		return true
	case <-t.C:
		return true
	}
}

// next claims the oldest queued paper (marking it chunking), or else
// returns the oldest paper waiting for vectors; id 0 when there is none.
func (s *Service) next(ctx context.Context) (int64, string, error) {
	defer s.progress.changed() // after the write commits
	id, err := s.st.RagClaimQueued(ctx)
	if err == nil {
		return id, "chunking", nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return 0, "", fmt.Errorf("rag: %w", err)
	}
	if s.opt.Embedder == nil {
		return 0, "", nil
	}
	id, err = s.st.RagNextToEmbed(ctx)
	if errors.Is(err, store.ErrNotFound) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("rag: %w", err)
	}
	return id, "embedding", nil
}

func (s *Service) process(ctx context.Context, paperID int64, status string) error {
	if status == "embedding" {
		if err := s.embedPending(ctx, paperID); err != nil {
			s.fail(ctx, paperID, err)
			return err
		}
		return nil
	}
	if s.opt.Source == nil {
		err := errors.New("rag: no Markdown source configured")
		s.fail(ctx, paperID, err)
		return err
	}
	md, err := s.opt.Source(ctx, paperID)
	if err != nil {
		s.fail(ctx, paperID, err)
		return err
	}
	start := time.Now()
	if err := s.IndexPaper(ctx, paperID, md); err != nil {
		return err
	}
	s.log.Info("rag: paper indexed", "paper", paperID, "bytes", len(md), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// Progress is the state of the index over the whole library.
type Progress struct {
	Queued, Indexing, Indexed, Failed int // papers
	Passages, Embedded                int // passages, and those with a vector
	VectorSearch                      bool
}

// Busy reports whether indexing work is outstanding.
func (p Progress) Busy() bool {
	return p.Queued > 0 || p.Indexing > 0
}

// PaperStatus is one paper's indexing state: "queued", "chunking",
// "embedding", "indexed" or "failed"; "" when it was never queued.
func (s *Service) PaperStatus(ctx context.Context, paperID int64) (string, error) {
	d, err := s.st.RagDocument(ctx, paperID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("rag: paper %d indexing status: %w", paperID, err)
	}
	return d.Status, nil
}

// Progress reports how far indexing has come.
func (s *Service) Progress(ctx context.Context) (Progress, error) {
	cached, gen, ok := s.progress.get()
	if ok {
		return cached, nil
	}
	rows, err := s.st.RagStatusCounts(ctx)
	if err != nil {
		return Progress{}, fmt.Errorf("rag: %w", err)
	}
	p := Progress{VectorSearch: s.VectorSearch()}
	for _, r := range rows {
		switch r.Status {
		case "queued":
			p.Queued += r.N
		case "chunking", "embedding":
			p.Indexing += r.N
		case "indexed":
			p.Indexed += r.N
		case "failed":
			p.Failed += r.N
		}
		p.Passages += r.Chunks
		p.Embedded += r.Embedded
	}
	s.progress.put(p, gen)
	return p, nil
}
