package rag

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/astroresearch/astroresearch/store/storetest"
)

// runWorker runs svc.Run until the returned stop is called (or ctx ends).
func runWorker(t *testing.T, ctx context.Context, svc *Service) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.Run(ctx)
	}()
	stop = func() {
		cancel()
		<-done // a closed channel: a second stop returns at once
	}
	t.Cleanup(stop)
	return stop
}

func progress(t *testing.T, svc *Service) Progress {
	t.Helper()
	p, err := svc.Progress(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBackgroundIndexingResumes interrupts embedding half-way (a
// "shutdown"), then starts a new service on the same database: it embeds
// only the passages still missing a vector.
func TestBackgroundIndexingResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	st := openStoreAt(t, path)
	m87 := addPaper(t, st, "1906.11238", "M87", 2019)
	md := fixture(t, "m87.md")
	src := func(ctx context.Context, id int64) (string, error) {
		if id != m87 {
			return "", fmt.Errorf("paper %d: %w", id, ErrNoMarkdown)
		}
		return md, nil
	}
	_, emb, _ := model(t, 16)
	opts := Options{EmbedModel: emb.Model, Source: src, BatchSize: 2, Chunk: ChunkOptions{MaxTokens: 40}}

	// First run: the "shutdown" happens as the second batch is sent.
	ctx, shutdown := context.WithCancel(context.Background())
	first := &countingEmbedder{inner: emb, before: func(call int) {
		if call == 2 {
			shutdown()
		}
	}}
	opts.Embedder = first
	svc1 := New(st, opts)
	if err := svc1.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	runWorker(t, ctx, svc1)
	if err := svc1.Enqueue(ctx, m87); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	waitFor(t, "the first batch to be stored", func() bool { return progress(t, svc1).Embedded == 2 })
	p := progress(t, svc1)
	if p.Indexing != 1 || p.Indexed != 0 || p.Passages < 6 {
		t.Fatalf("after the interruption: %+v", p)
	}

	// Second run on the same database.
	second := &countingEmbedder{inner: emb}
	opts.Embedder = second
	svc2 := New(st, opts)
	if err := svc2.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	stop2 := runWorker(t, context.Background(), svc2)
	waitFor(t, "indexing to finish", func() bool { return progress(t, svc2).Indexed == 1 })
	p = progress(t, svc2)
	if p.Embedded != p.Passages || p.Busy() {
		t.Fatalf("after resuming: %+v", p)
	}
	if _, inputs := second.counts(); inputs != p.Passages-2 {
		t.Errorf("resumed run embedded %d passages, want the %d missing", inputs, p.Passages-2)
	}
	var vectors int
	if storetest.Get(t, st, &vectors, `SELECT COUNT(*) FROM rag_vectors`); vectors != p.Passages {
		t.Errorf("%d vectors, want %d", vectors, p.Passages)
	}

	// A paper without Markdown fails with the reason and does not block the queue.
	other := addPaper(t, st, "2401.00001", "Unparsed", 2024)
	if err := svc2.Enqueue(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the unparsed paper to fail", func() bool { return progress(t, svc2).Failed == 1 })

	stop2() // one server process at a time

	// A new embedding model: everything is embedded again, with its dimension.
	_, emb32, _ := model(t, 32)
	emb32.Model = "other-embedder"
	third := &countingEmbedder{inner: emb32}
	opts.Embedder, opts.EmbedModel = third, emb32.Model
	svc3 := New(st, opts)
	if err := svc3.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := progress(t, svc3); p.Embedded != 0 || p.Indexing != 1 {
		t.Fatalf("after the model change: %+v", p)
	}
	runWorker(t, context.Background(), svc3)
	waitFor(t, "re-embedding", func() bool { p := progress(t, svc3); return p.Indexed == 1 && !p.Busy() })
	if _, inputs := third.counts(); inputs != p.Passages {
		t.Errorf("new model embedded %d passages, want %d", inputs, p.Passages)
	}
	res := search(t, svc3, Query{Text: "black hole mass"})
	if res.Mode != ModeHybrid || len(res.Hits) == 0 {
		t.Errorf("search after re-embedding: %+v", res)
	}
}

// TestKeywordOnlyWorker indexes from the queue without an embedding model.
func TestKeywordOnlyWorker(t *testing.T) {
	st := openStore(t)
	id := addPaper(t, st, "2105.13549", "Weak lensing", 2022)
	md := fixture(t, "cosmo.md")
	svc := New(st, Options{Source: func(context.Context, int64) (string, error) { return md, nil }})
	if err := svc.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	runWorker(t, context.Background(), svc)
	if err := svc.Enqueue(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "indexing", func() bool { return progress(t, svc).Indexed == 1 })
	if p := progress(t, svc); p.VectorSearch || p.Embedded != 0 || p.Passages == 0 {
		t.Errorf("progress %+v", p)
	}
	if res := search(t, svc, Query{Text: "baryonic feedback"}); len(res.Hits) != 1 {
		t.Errorf("hits %+v", res.Hits)
	}

	// Queued again with the same text (parsed again, same result): the
	// passages, and so the links to them, are kept.
	var before []int64
	storetest.Select(t, st, &before, `SELECT id FROM rag_chunks WHERE paper_id = ? ORDER BY id`, id)
	if err := svc.Enqueue(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "re-indexing", func() bool { p := progress(t, svc); return p.Indexed == 1 && !p.Busy() })
	var after []int64
	storetest.Select(t, st, &after, `SELECT id FROM rag_chunks WHERE paper_id = ? ORDER BY id`, id)
	if len(before) == 0 || fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("passages %v became %v for the same text", before, after)
	}

	// A paper parsed while indexing was not running is queued at the next start.
	other := addPaper(t, st, "2105.99999", "Parsed earlier", 2021)
	if err := st.SetParseStatus(context.Background(), other, "parsed", ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	svc.notify()
	waitFor(t, "the earlier parsed paper", func() bool { return progress(t, svc).Indexed == 2 })
}

// TestRequeuedWhileIndexing: a paper parsed again while the worker indexes
// its previous text stays queued, so the new text is indexed next.
func TestRequeuedWhileIndexing(t *testing.T) {
	st := openStore(t)
	id := addPaper(t, st, "2105.13549", "Weak lensing", 2022)
	svc := New(st, Options{})
	ctx := context.Background()
	if err := svc.Enqueue(ctx, id); err != nil {
		t.Fatal(err)
	}
	claimed, status, err := svc.next(ctx) // the worker takes it...
	if err != nil || claimed != id || status != "chunking" {
		t.Fatalf("next = %d %q %v", claimed, status, err)
	}
	if err := svc.Enqueue(ctx, id); err != nil { // ...a new parse lands...
		t.Fatal(err)
	}
	if err := svc.IndexPaper(ctx, id, fixture(t, "cosmo.md")); err != nil { // ...the old text is indexed
		t.Fatal(err)
	}
	if p := progress(t, svc); p.Queued != 1 || p.Indexed != 0 {
		t.Fatalf("after indexing the old text: %+v, want it queued again", p)
	}
}

// TestProgressIsCachedUntilIndexingChanges: a cached Progress is served
// until a write to the indexing state, and never after one.
func TestProgressIsCachedUntilIndexingChanges(t *testing.T) {
	st := openStoreAt(t, filepath.Join(t.TempDir(), "db.sqlite"))
	a := addPaper(t, st, "1906.11238", "M87", 2019)
	b := addPaper(t, st, "2311.00001", "Sgr A*", 2023)
	svc := New(st, Options{})
	if p := progress(t, svc); p.Queued != 0 || p.Indexed != 0 {
		t.Fatalf("empty library: %+v", p)
	}
	// Written behind the service's back: the cache does not see it (this is
	// what makes the cache worth having: no query while nothing changed).
	storetest.Exec(t, st, `INSERT INTO rag_documents (paper_id, status, queued_at, updated_at)
		VALUES (?, 'failed', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`, b)
	if p := progress(t, svc); p.Failed != 0 {
		t.Fatalf("served from the cache, want no failures yet: %+v", p)
	}
	// A write through the service invalidates it.
	if err := svc.Enqueue(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if p := progress(t, svc); p.Queued != 1 || p.Failed != 1 {
		t.Fatalf("after Enqueue: %+v", p)
	}
}
