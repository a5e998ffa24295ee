// Package triage is the daily arXiv triage (L10): each user follows
// arXiv categories, keywords, objects and authors; the server fetches each
// day's new submissions once per category in its own scheduler, ranks them
// for each user against the library and what the user follows (with the
// reasons shown), and remembers what users hid or added. The digest is read
// by the /triage page, the JSON API and a per-user Atom feed.
package triage

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// What the service needs from other packages.
type (
	// Arxiv searches the arXiv API (*arxiv.Client).
	Arxiv interface {
		Search(ctx context.Context, q arxiv.Query) (arxiv.Result, error)
	}
	// Resolver resolves object names with CDS Sesame (*sesame.Client).
	Resolver interface {
		Resolve(ctx context.Context, name string) (sesame.Object, error)
	}
	// Embedder embeds texts (the configured embedding model).
	Embedder interface {
		Embed(ctx context.Context, inputs []string) ([][]float32, error)
	}
	// Generator runs one completion (the chat model), for summaries.
	Generator interface {
		Generate(ctx context.Context, system, user string) (string, error)
	}
	// Importer adds a paper to the library (*library.Library).
	Importer interface {
		Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error)
	}
)

// Defaults of Options.
const (
	// DefaultPace is arXiv's documented limit: one request every 3 s.
	DefaultPace        = 3 * time.Second
	DefaultInterval    = 15 * time.Minute
	DefaultCatchUpDays = 7
	// DefaultSettle is how long after a UTC day ends its submissions are
	// fetched: arXiv announces a day's papers the next evening (20:00 ET),
	// and the API only lists announced papers.
	DefaultSettle = 26 * time.Hour
)

// Options configure a Service. Arxiv is required; the rest is optional.
type Options struct {
	Arxiv Arxiv
	// Resolver resolves followed objects (nil: matched by name only).
	Resolver Resolver
	// Importer adds papers to the library ("Add to library"; nil: refused).
	Importer Importer
	// Embedder and EmbedModel, when both set, rank by embedding similarity
	// to the library instead of BM25.
	Embedder   Embedder
	EmbedModel string
	// Summarizer writes the one-line summaries (nil: none).
	Summarizer Generator
	Log        *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Pace is the least time between two arXiv requests (DefaultPace when 0).
	Pace time.Duration
	// Interval is how often the scheduler looks for due days (DefaultInterval).
	Interval time.Duration
	// CatchUpDays is how many past days are fetched when missing
	// (DefaultCatchUpDays).
	CatchUpDays int
	// Settle is how long after its end a day is fetched (DefaultSettle; a
	// negative value means at once).
	Settle time.Duration
}

// Service fetches, ranks and serves the triage. Create it with New and
// start its scheduler with Run; its methods are safe for concurrent use.
type Service struct {
	st  *store.Store
	opt Options
	log *slog.Logger

	wake chan struct{}
	mu   sync.Mutex
	// pending are users whose digests are ranked again on the next run
	// (settings changed, feedback, refresh).
	pending map[int64]bool
	// early asks the next run to also fetch the days that are over but
	// not settled yet (a user's "fetch now").
	early bool
	// paceTurn (capacity 1) is held by the pace call in progress; it
	// guards lastRequest, when the last arXiv request was sent.
	paceTurn    chan struct{}
	lastRequest time.Time
	// lastRun is when the scheduler last finished a run.
	lastRun time.Time
	// libIndex is the library's index at its last version (read only once
	// built; replaced when the library changes).
	libIndex *libraryIndex

	summaries *summarizer
}

// New returns a service over st.
func New(st *store.Store, opt Options) (*Service, error) {
	if st == nil || opt.Arxiv == nil {
		return nil, errors.New("triage: a store and an arXiv client are required")
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Pace <= 0 {
		opt.Pace = DefaultPace
	}
	if opt.Interval <= 0 {
		opt.Interval = DefaultInterval
	}
	if opt.CatchUpDays <= 0 {
		opt.CatchUpDays = DefaultCatchUpDays
	}
	switch {
	case opt.Settle == 0:
		opt.Settle = DefaultSettle
	case opt.Settle < 0:
		opt.Settle = 0
	}
	s := &Service{st: st, opt: opt, log: opt.Log, wake: make(chan struct{}, 1), paceTurn: make(chan struct{}, 1), pending: map[int64]bool{}}
	s.summaries = newSummarizer(st, opt.Summarizer, opt.Log, opt.Now)
	return s, nil
}

// Run is the scheduler: it fetches due days and ranks at once, then every
// Interval and whenever Refresh or a settings change asks, until ctx ends.
// Summaries are written in the background meanwhile.
func (s *Service) Run(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.summaries.run(ctx)
	}()
	defer func() { <-done }()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-s.wake:
		}
		if err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("triage: scheduler run failed", "err", err)
		}
		timer.Reset(s.opt.Interval)
	}
}

// Refresh asks the scheduler to fetch now and rank the user's digests
// again; it does not wait. Besides the due days it fetches the days that
// are over but not settled yet (yesterday, before arXiv announced all of
// it); such a day is fetched once more when it has settled.
func (s *Service) Refresh(userID int64) {
	s.mu.Lock()
	s.early = true
	s.mu.Unlock()
	s.rerank(userID)
}

// rerank asks the scheduler to rank the user's digests again.
func (s *Service) rerank(userID int64) {
	s.mu.Lock()
	s.pending[userID] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// takePending returns and clears the users waiting to be ranked again and
// whether a refresh asked for the unsettled days too.
func (s *Service) takePending() (map[int64]bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, early := s.pending, s.early
	s.pending, s.early = map[int64]bool{}, false
	return p, early
}

// LastRun is when the scheduler last finished a run (zero before the first).
func (s *Service) LastRun() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastRun
}
