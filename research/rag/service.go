package rag

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/astroresearch/astroresearch/store"
)

// Embedder turns texts into vectors with one fixed embedding model, one
// vector per input, in input order.
type Embedder interface {
	Embed(ctx context.Context, inputs []string) ([][]float32, error)
}

// Generator runs one chat completion: a system prompt and a user message
// in, the model's text out.
type Generator interface {
	Generate(ctx context.Context, system, user string) (string, error)
}

// Source returns the current Markdown of a parsed paper; ErrNoMarkdown (or
// an error wrapping it) when the paper has none.
type Source func(ctx context.Context, paperID int64) (string, error)

// ErrNoMarkdown means a paper has no parsed Markdown to index.
var ErrNoMarkdown = errors.New("rag: paper has no parsed Markdown")

// Options configure a Service. Only the store is required.
type Options struct {
	// Embedder and EmbedModel give vector search; a nil Embedder or empty
	// EmbedModel means keyword (BM25) search only. EmbedModel names the
	// model so that changing it re-embeds the library.
	Embedder   Embedder
	EmbedModel string
	// Generator writes answers (Ask); nil means Ask returns passages only.
	Generator Generator
	// Source gives the Markdown of queued papers (Enqueue); nil means only
	// IndexPaper indexes.
	Source Source
	// Chunk sizes the passages.
	Chunk ChunkOptions
	// MinSimilarity is the cosine similarity a passage found only by its
	// vector needs to count as supporting an answer; 0.5 when zero.
	MinSimilarity float64
	// BatchSize is how many passages go into one embeddings request; 32
	// when zero.
	BatchSize int
	// Rescore is how many nearest passages by binary (Hamming) distance
	// are re-ranked by exact cosine distance; 100 when zero.
	Rescore int
	// OnIndexed, when set, is called after a paper's passages were
	// replaced with a new text's (the values index listens to it); it must
	// not block.
	OnIndexed func(paperID int64)
	// Log receives indexing progress and failures; nil discards them.
	Log *slog.Logger
}

// Service indexes papers and answers questions over them. Safe for
// concurrent use; one background worker (Run) does the queued indexing.
type Service struct {
	st   *store.Store
	opt  Options
	log  *slog.Logger
	wake chan struct{}
	// progress caches Progress between writes to rag_documents.
	progress progressCache
}

// New returns the service. Call Prepare after migrations, then Run.
func New(st *store.Store, opt Options) *Service {
	if opt.MinSimilarity == 0 {
		opt.MinSimilarity = 0.5
	}
	if opt.BatchSize <= 0 {
		opt.BatchSize = 32
	}
	if opt.Rescore <= 0 {
		opt.Rescore = defaultRescore
	}
	if opt.Embedder == nil {
		opt.EmbedModel = ""
	}
	if opt.EmbedModel == "" {
		opt.Embedder = nil
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Service{st: st, opt: opt, log: log, wake: make(chan struct{}, 1)}
}

// VectorSearch reports whether an embedding model is configured (hybrid
// retrieval); false means keyword (BM25) search only.
func (s *Service) VectorSearch() bool { return s.opt.Embedder != nil }

// EmbedModel is the configured embedding model ("" when none).
func (s *Service) EmbedModel() string { return s.opt.EmbedModel }
