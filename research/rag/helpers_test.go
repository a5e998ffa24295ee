package rag

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/store"
)

// openStore opens a fresh migrated database in a temporary directory.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	return openStoreAt(t, filepath.Join(t.TempDir(), "test.db"))
}

func openStoreAt(t testing.TB, path string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	return st
}

// addPaper stores a library entry with a year and tags.
func addPaper(t testing.TB, st *store.Store, arxivID, title string, year int, tags ...string) int64 {
	t.Helper()
	ctx := context.Background()
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: title, ArxivID: &arxivID, Year: &year})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddPaperTags(ctx, p.ID, tags, len(tags)); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// model starts the fake endpoint and returns it with an embedder and a
// generator over a real llm.Client.
func model(t testing.TB, dim int) (*llmtest.Server, llm.ModelEmbedder, llm.TextGenerator) {
	t.Helper()
	srv := llmtest.New(t)
	srv.SetEmbeddingDim(dim)
	c := llm.New(llm.Config{BaseURL: srv.URL(), Model: llmtest.DefaultModel})
	return srv, llm.ModelEmbedder{Client: c, Model: "embed-test"}, llm.TextGenerator{Client: c}
}

// countingEmbedder counts calls and inputs, and can run a hook before
// each call (to cancel a context mid-indexing).
type countingEmbedder struct {
	inner  Embedder
	mu     sync.Mutex
	calls  int
	inputs int
	before func(call int)
}

func (c *countingEmbedder) Embed(ctx context.Context, in []string) ([][]float32, error) {
	c.mu.Lock()
	c.calls++
	c.inputs += len(in)
	n, before := c.calls, c.before
	c.mu.Unlock()
	if before != nil {
		before(n)
	}
	return c.inner.Embed(ctx, in)
}

func (c *countingEmbedder) counts() (calls, inputs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls, c.inputs
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
