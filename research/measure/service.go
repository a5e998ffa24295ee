package measure

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// Source returns the current Markdown of a parsed paper (the text the
// passage index was cut from).
type Source func(ctx context.Context, paperID int64) (string, error)

// Service keeps the library's values current: a background worker (Run)
// extracts the values of every paper whose passages were (re)indexed,
// from the same Markdown, so each value points into a passage. Safe for
// concurrent use.
type Service struct {
	st   *store.Store
	src  Source
	log  *slog.Logger
	wake chan struct{}
	now  func() time.Time

	mu sync.Mutex
	// failed holds the jobs (paper and Markdown hash) that failed, with
	// when: they are passed over for retryFailed so that papers that keep
	// failing never hold up the rest of the queue. A re-indexed paper has
	// a new hash, hence a new job, tried at once.
	failed map[store.MeasureJob]time.Time
}

// batchSize is how many papers one pass extracts; retryFailed is how long
// a failed paper waits before it is tried again.
const (
	batchSize   = 16
	retryFailed = 10 * time.Minute
)

// NewService returns the service; log may be nil.
func NewService(st *store.Store, src Source, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Service{st: st, src: src, log: log, wake: make(chan struct{}, 1), now: time.Now, failed: map[store.MeasureJob]time.Time{}}
}

// Wake tells the worker that a paper's passages changed (rag's indexer
// calls it); it never blocks.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run works through the papers whose values are missing or stale until
// ctx ends. The state is in the database (measure_documents against
// rag_documents), so a restart resumes it.
func (s *Service) Run(ctx context.Context) {
	for {
		_, tried, err := s.runBatch(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.log.Warn("measure: extraction pass", "err", err)
		}
		if tried > 0 && err == nil {
			continue
		}
		t := time.NewTimer(time.Minute)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// RunOnce extracts the values of up to 16 waiting papers and reports how
// many were done. A paper whose text changed meanwhile, or that failed, is
// left for later (see retryFailed) and the papers after it go first.
func (s *Service) RunOnce(ctx context.Context) (int, error) {
	done, _, err := s.runBatch(ctx)
	return done, err
}

// runBatch is RunOnce, also reporting how many papers it tried.
func (s *Service) runBatch(ctx context.Context) (done, tried int, err error) {
	skip := s.pruneFailed()
	jobs, err := s.st.MeasureJobs(ctx, batchSize+skip)
	if err != nil {
		return 0, 0, err
	}
	for _, j := range jobs {
		if tried == batchSize {
			break
		}
		if s.recentlyFailed(j) {
			continue
		}
		tried++
		err := s.ExtractPaper(ctx, j.PaperID)
		switch {
		case err == nil:
			done++
			continue
		case ctx.Err() != nil:
			return done, tried, ctx.Err()
		case errors.Is(err, store.ErrStale):
		default:
			s.log.Warn("measure: extract paper", "paper", j.PaperID, "err", err)
		}
		s.markFailed(j)
	}
	return done, tried, nil
}

// pruneFailed forgets failures older than retryFailed and returns how
// many remain.
func (s *Service) pruneFailed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for j, at := range s.failed {
		if s.now().Sub(at) >= retryFailed {
			delete(s.failed, j)
		}
	}
	return len(s.failed)
}

func (s *Service) recentlyFailed(j store.MeasureJob) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.failed[j]
	return ok
}

func (s *Service) markFailed(j store.MeasureJob) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed[j] = s.now()
}

// ExtractPaper replaces the paper's values with those in its current
// Markdown. It returns store.ErrStale when the passages were not cut from
// that Markdown (the paper is waiting to be re-indexed).
func (s *Service) ExtractPaper(ctx context.Context, paperID int64) error {
	spans, hash, err := s.st.PassageSpans(ctx, paperID)
	if err != nil {
		return err
	}
	md, err := s.src(ctx, paperID)
	if err != nil {
		return fmt.Errorf("measure: Markdown of paper %d: %w", paperID, err)
	}
	sum := sha256.Sum256([]byte(md))
	if hex.EncodeToString(sum[:]) != hash {
		return store.ErrStale
	}
	start := time.Now()
	rows := rowsFor(Extract(md), spans)
	if err := s.st.ReplaceMeasurements(ctx, paperID, hash, rows); err != nil {
		return err
	}
	s.log.Info("measure: values extracted", "paper", paperID, "values", len(rows), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// rowsFor pairs each value with the passage holding its sentence (the
// first passage containing the whole sentence, else the one where it
// starts); values outside every passage are dropped.
func rowsFor(ms []Measurement, spans []store.PassageSpan) []store.Measurement {
	rows := make([]store.Measurement, 0, len(ms))
	for _, m := range ms {
		chunk := int64(0)
		for _, sp := range spans {
			if sp.Start <= m.Start && m.End <= sp.End {
				chunk = sp.ID
				break
			}
		}
		if chunk == 0 {
			for _, sp := range spans {
				if sp.Start <= m.Start && m.Start < sp.End {
					chunk = sp.ID
					break
				}
			}
		}
		if chunk == 0 {
			continue
		}
		rows = append(rows, store.Measurement{ChunkID: chunk, Quantity: m.Quantity, Value: m.Value, Upper: m.Upper,
			ErrPlus: m.ErrPlus, ErrMinus: m.ErrMinus, ErrStat: m.ErrStat, ErrSys: m.ErrSys, Bound: m.Bound,
			Unit: m.Unit, Object: m.Object, Sentence: m.Sentence, StartByte: m.Start, EndByte: m.End})
	}
	return rows
}
