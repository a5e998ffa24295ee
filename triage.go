package main

import (
	"log/slog"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/research/triage"
	"github.com/astroresearch/astroresearch/store"
)

// newTriage is the daily arXiv triage: fetched with the arXiv client
// (paced to arXiv's one request every three seconds), objects resolved with
// Sesame, papers added through the library, ranked by embeddings when
// EMBEDDING_MODEL is set (BM25 otherwise) and summarised by the chat model.
func newTriage(cfg config.Config, st *store.Store, ax triage.Arxiv, targets triage.Resolver, lib triage.Importer,
	model *llm.Client, log *slog.Logger) (*triage.Service, error) {
	opt := triage.Options{Arxiv: ax, Resolver: targets, Importer: lib, Summarizer: llm.TextGenerator{Client: model}, Log: log}
	if e, ok := newEmbedder(cfg, log); ok {
		opt.Embedder, opt.EmbedModel = e, cfg.EmbeddingModel
	}
	return triage.New(st, opt)
}

// newEmbedder is the embedding model of EMBEDDING_* (the LLM endpoint and
// key when EMBEDDING_BASE_URL is empty); ok is false without
// EMBEDDING_MODEL.
func newEmbedder(cfg config.Config, log *slog.Logger) (e llm.ModelEmbedder, ok bool) {
	if cfg.EmbeddingModel == "" {
		return llm.ModelEmbedder{}, false
	}
	base, key := cfg.EmbeddingBaseURL, cfg.EmbeddingAPIKey
	if base == "" {
		base = cfg.LLMBaseURL
		if key == "" {
			key = cfg.LLMAPIKey
		}
	}
	client := llm.New(llm.Config{BaseURL: base, APIKey: key, Model: cfg.EmbeddingModel, Log: log})
	return llm.ModelEmbedder{Client: client, Model: cfg.EmbeddingModel}, true
}
