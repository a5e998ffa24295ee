package measure

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	return storetest.New(t)
}

const paperV1 = "# Results\n\nWe find $H_0 = 73.04 \\pm 1.04$ km s$^{-1}$ Mpc$^{-1}$ from NGC 4258. Section 3.2 has details.\n\n" +
	"## Masses\n\nThe black hole mass is $M_{\\rm BH} = (4.0 \\pm 0.1) \\times 10^{7}\\,M_\\odot$.\n"

const paperV2 = "# Results\n\nWe now find $H_0 = 72.0 \\pm 2.0$ km s$^{-1}$ Mpc$^{-1}$.\n"

// TestServiceFollowsReindexing: values are extracted from the indexed
// text, point into its passages, and are replaced when the paper is
// parsed again and re-indexed.
func TestServiceFollowsReindexing(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	year := 2019
	arxiv := "1901.00001"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "A maser distance", ArxivID: &arxiv, Year: &year})
	if err != nil {
		t.Fatal(err)
	}
	md := paperV1
	src := func(context.Context, int64) (string, error) { return md, nil }
	svc := NewService(st, src, nil)
	idx := rag.New(st, rag.Options{Source: rag.Source(src), OnIndexed: func(int64) { svc.Wake() }})
	if err := idx.IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("first pass: %d papers, %v", n, err)
	}
	rows, err := st.Measurements(ctx, store.MeasurementFilter{})
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %+v %v", rows, err)
	}
	h0 := rows[0]
	if h0.Quantity != "H0" || h0.Value != 73.04 || h0.Object != "NGC 4258" || h0.Year == nil || *h0.Year != 2019 {
		t.Fatalf("H0 row %+v", h0)
	}
	if md[h0.StartByte:h0.EndByte] != h0.Sentence {
		t.Fatalf("sentence offsets do not point into the Markdown")
	}
	passage, err := idx.Passage(ctx, h0.ChunkID)
	if err != nil || !strings.Contains(passage.Text, h0.Sentence) {
		t.Fatalf("passage %+v %v does not hold %q", passage, err, h0.Sentence)
	}
	if n, _ := svc.RunOnce(ctx); n != 0 {
		t.Fatalf("extracted again without a change: %d", n)
	}
	// Re-parse: the text changes, the index is rebuilt, the values follow.
	md = paperV2
	if err := idx.IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	if rows, _ := st.Measurements(ctx, store.MeasurementFilter{}); len(rows) != 0 {
		t.Fatalf("old values outlived their passages: %+v", rows)
	}
	if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("second pass: %d, %v", n, err)
	}
	rows, _ = st.Measurements(ctx, store.MeasurementFilter{Quantity: "H0"})
	if len(rows) != 1 || rows[0].Value != 72.0 {
		t.Fatalf("after re-parse %+v", rows)
	}
	// Text that does not match the index is never used.
	md = paperV1
	if err := svc.ExtractPaper(ctx, p.ID); !errors.Is(err, store.ErrStale) {
		t.Fatalf("stale text: %v", err)
	}
}

func TestMeasurementsFilterByObjectNames(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	arxiv := "1901.00002"
	p, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "M106", ArxivID: &arxiv})
	md := "The distance to M 106 is $7.6 \\pm 0.2$ Mpc. The distance to M31 is 0.77 Mpc.\n"
	idx := rag.New(st, rag.Options{})
	if err := idx.IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	if err := NewService(st, func(context.Context, int64) (string, error) { return md, nil }, nil).ExtractPaper(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Measurements(ctx, store.MeasurementFilter{Quantity: "distance", Objects: []string{"NGC 4258", "M106"}})
	if err != nil || len(rows) != 1 || rows[0].Value != 7.6 {
		t.Fatalf("%+v %v", rows, err)
	}
	q, err := st.MeasurementQuantities(ctx)
	if err != nil || len(q) != 1 || q[0].Quantity != "distance" || q[0].Count != 2 {
		t.Fatalf("quantities %+v %v", q, err)
	}
}

// TestRunWakesAndStops: the worker extracts a paper indexed while it
// sleeps as soon as it is woken, and returns when its context ends.
func TestRunWakesAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	st := openStore(t)
	arxiv := "1901.00003"
	p, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "x", ArxivID: &arxiv})
	md := paperV2
	svc := NewService(st, func(context.Context, int64) (string, error) { return md, nil }, nil)
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	idx := rag.New(st, rag.Options{OnIndexed: func(int64) { svc.Wake() }})
	if err := idx.IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		rows, err := st.Measurements(ctx, store.MeasurementFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker did not extract the woken paper")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// TestFailingPapersDoNotStarveTheQueue: papers whose Markdown cannot be
// read are passed over, so the papers after them are extracted; they are
// tried again after retryFailed.
func TestFailingPapersDoNotStarveTheQueue(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	broken := map[int64]bool{}
	var good int64
	for i := 0; i < batchSize+2; i++ {
		arxiv := "2001.000" + string(rune('a'+i))
		p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Paper " + arxiv, ArxivID: &arxiv})
		if err != nil {
			t.Fatal(err)
		}
		if err := rag.New(st, rag.Options{}).IndexPaper(ctx, p.ID, paperV2); err != nil {
			t.Fatal(err)
		}
		if i < batchSize+1 {
			broken[p.ID] = true
		} else {
			good = p.ID
		}
	}
	calls := map[int64]int{}
	src := func(_ context.Context, id int64) (string, error) {
		calls[id]++
		if broken[id] {
			return "", errors.New("the Markdown file is gone")
		}
		return paperV2, nil
	}
	svc := NewService(st, src, nil)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc.now = func() time.Time { return clock }
	if n, err := svc.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("first pass: %d done, %v", n, err)
	}
	if n, err := svc.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("second pass: %d done, %v (the failing papers held up the queue)", n, err)
	}
	if rows, err := st.Measurements(ctx, store.MeasurementFilter{}); err != nil || len(rows) != 1 || rows[0].PaperID != good {
		t.Fatalf("rows %+v %v", rows, err)
	}
	for id := range broken {
		if calls[id] != 1 {
			t.Errorf("paper %d read %d times in two passes, want 1", id, calls[id])
		}
	}
	clock = clock.Add(retryFailed)
	if _, tried, err := svc.runBatch(ctx); err != nil || tried != batchSize {
		t.Errorf("after the back-off: %d tried, %v; want the failed papers tried again", tried, err)
	}
}
