package triage

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// fakeEmbedder embeds a text as counts of a few topic words, and counts
// what it was asked to embed.
type fakeEmbedder struct {
	mu    sync.Mutex
	texts int
}

func (e *fakeEmbedder) Embed(_ context.Context, inputs []string) ([][]float32, error) {
	e.mu.Lock()
	e.texts += len(inputs)
	e.mu.Unlock()
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		in = strings.ToLower(in)
		out[i] = []float32{float32(strings.Count(in, "bar")), float32(strings.Count(in, "quasar")),
			float32(strings.Count(in, "maser")), float32(strings.Count(in, "cosmic")), 0.01}
	}
	return out, nil
}

func TestRankByEmbeddingsOncePerText(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	emb := &fakeEmbedder{}
	h.svc.opt.Embedder, h.svc.opt.EmbedModel = emb, "fake-embed"
	h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.GA"}})
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	d, err := h.svc.Digest(ctx, h.user, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if d.Items[0].ArxivID != "2611.10001" || !strings.Contains(strings.Join(d.Items[0].Reasons, " "), "similar to 2 papers in your library") {
		t.Fatalf("top item %s, reasons %q", d.Items[0].ArxivID, d.Items[0].Reasons)
	}
	first := emb.texts // 3 library papers and the GA papers of both days
	if first == 0 {
		t.Fatal("nothing embedded")
	}
	h.svc.Refresh(h.user)
	if err := h.svc.RunOnce(ctx); err != nil { // ranks both days again
		t.Fatal(err)
	}
	if emb.texts != first {
		t.Fatalf("embedded %d more texts on the second ranking; each text is embedded once", emb.texts-first)
	}
}
