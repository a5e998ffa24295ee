package parse

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// gate is an engine that holds every parse until released, counting how
// many run at once.
type gate struct {
	release chan struct{}
	now     atomic.Int32
	most    atomic.Int32
	entered chan struct{}
}

func (*gate) Name() string { return "gate" }

func (g *gate) Parse(ctx context.Context, _ Input, _ Progress) (Document, error) {
	n := g.now.Add(1)
	defer g.now.Add(-1)
	for {
		m := g.most.Load()
		if n <= m || g.most.CompareAndSwap(m, n) {
			break
		}
	}
	g.entered <- struct{}{}
	select {
	case <-g.release:
		return Document{Markdown: "# text\n\nbody"}, nil
	case <-ctx.Done():
		return Document{}, ctx.Err()
	}
}

// TestServiceBoundsParallelParses: however many parses are asked for at
// once, at most MaxParallel run their engines; the others wait and then
// run; a waiting parse whose context ends gives up without running.
func TestServiceBoundsParallelParses(t *testing.T) {
	ctx := context.Background()
	st, dir := newTestStore(t)
	const n = MaxParallel + 3
	ids := make([]int64, n+1)
	for i := range ids {
		arxiv := fmt.Sprintf("2401.%05d", i+1)
		p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Paper " + arxiv, ArxivID: &arxiv})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = p.ID
	}
	g := &gate{release: make(chan struct{}), entered: make(chan struct{}, n+1)}
	svc := NewService(st, dir, g)

	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, id := range ids[:n] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := svc.Parse(ctx, id, nil)
			errs <- err
		}()
	}
	for range MaxParallel {
		<-g.entered
	}
	// The others must be waiting, not running.
	select {
	case <-g.entered:
		t.Fatalf("more than %d parses ran at once", MaxParallel)
	case <-time.After(200 * time.Millisecond):
	}
	// A parse that gives up while waiting never reaches an engine.
	waitCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := svc.Parse(waitCtx, ids[n], nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a waiting parse whose context ended: %v", err)
	}
	if svc.Running(ids[n]) {
		t.Error("the abandoned parse is still marked running")
	}
	close(g.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("parse: %v", err)
		}
	}
	if got := g.most.Load(); got != MaxParallel {
		t.Errorf("at most %d parses ran at once, want %d", got, MaxParallel)
	}
	if p, _ := st.PaperByID(ctx, ids[n]); p.ParseStatus == "parsing" {
		t.Errorf("the abandoned parse left status %q", p.ParseStatus)
	}
}
