package rag

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

// library is two indexed fixture papers.
type library struct {
	st             *store.Store
	svc            *Service
	m87, cosmo     int64
	m87MD, cosmoMD string
}

func newLibrary(t *testing.T, opt Options) library {
	t.Helper()
	st := openStore(t)
	l := library{st: st, m87MD: fixture(t, "m87.md"), cosmoMD: fixture(t, "cosmo.md")}
	l.m87 = addPaper(t, st, "1906.11238", "First M87 Event Horizon Telescope Results", 2019, "black holes", "eht")
	l.cosmo = addPaper(t, st, "2105.13549", "Cosmological Constraints from Weak Lensing", 2022, "cosmology")
	l.svc = New(st, opt)
	ctx := context.Background()
	if err := l.svc.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.svc.IndexPaper(ctx, l.m87, l.m87MD); err != nil {
		t.Fatal(err)
	}
	if err := l.svc.IndexPaper(ctx, l.cosmo, l.cosmoMD); err != nil {
		t.Fatal(err)
	}
	return l
}

func search(t *testing.T, svc *Service, q Query) Results {
	t.Helper()
	res, err := svc.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestKeywordSearch(t *testing.T) {
	l := newLibrary(t, Options{})
	res := search(t, l.svc, Query{Text: "What is the mass of the black hole in M87?"})
	if res.Mode != ModeKeyword || res.Note != NoEmbeddingNote {
		t.Errorf("mode %q note %q, want keyword with %q", res.Mode, res.Note, NoEmbeddingNote)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no passages for the M87 mass question")
	}
	for _, h := range res.Hits {
		if h.PaperID != l.m87 || h.Title != "First M87 Event Horizon Telescope Results" || h.Year == nil || *h.Year != 2019 {
			t.Errorf("hit from the wrong paper: %+v", h)
		}
		if l.m87MD[h.Start:h.End] != h.Text {
			t.Errorf("passage %d offsets do not slice to its text", h.ID)
		}
		if h.KeywordRank == 0 || h.VectorRank != 0 {
			t.Errorf("ranks %d/%d", h.KeywordRank, h.VectorRank)
		}
	}
	if !strings.Contains(res.Hits[0].Text, "mass") {
		t.Errorf("best passage lacks the word mass: %q", res.Hits[0].Text)
	}

	// Contract 3: a passage by id, offsets into the Markdown.
	p, err := l.svc.Passage(context.Background(), res.Hits[0].ID)
	if err != nil || p.Text != l.m87MD[p.Start:p.End] || p.PaperID != l.m87 || p.SectionPath == "" {
		t.Fatalf("Passage = %+v, %v", p, err)
	}
	if _, err := l.svc.Passage(context.Background(), 999999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing passage: %v, want ErrNotFound", err)
	}

	// Stemming: "fluctuation" finds "fluctuations".
	if res := search(t, l.svc, Query{Text: "amplitude of the matter fluctuation"}); len(res.Hits) == 0 || res.Hits[0].PaperID != l.cosmo {
		t.Errorf("cosmology question: %+v", res.Hits)
	}
	// Nothing in the library about Andromeda's rotation curve: one shared
	// word ("galaxy") is not support.
	if res := search(t, l.svc, Query{Text: "What is the rotation curve of the Andromeda galaxy?"}); len(res.Hits) != 0 {
		t.Errorf("unsupported question found %d passages: %q", len(res.Hits), res.Hits[0].Text)
	}
	if res := search(t, l.svc, Query{Text: "what is the?"}); len(res.Hits) != 0 {
		t.Errorf("stop words only found %d passages", len(res.Hits))
	}
}

func TestSearchFilters(t *testing.T) {
	l := newLibrary(t, Options{})
	q := "black hole shadow"
	for _, tc := range []struct {
		name string
		f    Filter
		want int64 // 0: no hits
	}{
		{"none", Filter{}, l.m87},
		{"year of the paper", Filter{Year: 2019}, l.m87},
		{"other year", Filter{Year: 2022}, 0},
		{"tag", Filter{Tag: "EHT"}, l.m87},
		{"other tag", Filter{Tag: "cosmology"}, 0},
		{"paper", Filter{PaperIDs: []int64{l.m87}}, l.m87},
		{"other paper", Filter{PaperIDs: []int64{l.cosmo}}, 0},
	} {
		res := search(t, l.svc, Query{Text: q, Filter: tc.f})
		switch {
		case tc.want == 0 && len(res.Hits) != 0:
			t.Errorf("%s: %d hits, want none", tc.name, len(res.Hits))
		case tc.want != 0 && (len(res.Hits) == 0 || res.Hits[0].PaperID != tc.want):
			t.Errorf("%s: hits %+v, want paper %d", tc.name, res.Hits, tc.want)
		}
	}
}

func TestHybridSearch(t *testing.T) {
	// 64: binary index + exact re-ranking; 20: not bit-quantisable, exact scan.
	for _, dim := range []int{64, 20} {
		t.Run(fmt.Sprint(dim), func(t *testing.T) { testHybridSearch(t, dim) })
	}
}

func testHybridSearch(t *testing.T, dim int) {
	_, emb, _ := model(t, dim)
	l := newLibrary(t, Options{Embedder: emb, EmbedModel: emb.Model, Chunk: ChunkOptions{MaxTokens: 60}})
	prog, err := l.svc.Progress(context.Background())
	if err != nil || prog.Indexed != 2 || prog.Embedded != prog.Passages || prog.Passages < 8 {
		t.Fatalf("progress %+v, %v", prog, err)
	}
	// The fake embeds equal texts to equal vectors: asking with the exact
	// embedded text of a passage puts it first by vector.
	var target Passage
	storetest.Get(t, l.st, &target, `SELECT id, paper_id, section_path, start_byte, end_byte, text
		FROM rag_chunks WHERE paper_id = ? AND section_path LIKE '%Calibration'`, l.m87)
	question := embedInput(target.SectionPath, target.Text)
	res := search(t, l.svc, Query{Text: question})
	if res.Mode != ModeHybrid || res.Note != "" {
		t.Fatalf("mode %q note %q", res.Mode, res.Note)
	}
	if len(res.Hits) == 0 || res.Hits[0].ID != target.ID || res.Hits[0].VectorRank != 1 || res.Hits[0].Similarity < 0.999 {
		t.Fatalf("hits %+v, want passage %d first by vector", res.Hits, target.ID)
	}
	if res.Hits[0].KeywordRank == 0 {
		t.Errorf("the passage's own words should also rank it by keyword")
	}
	// Filters reach the vector side too (paper_id metadata in vec0).
	if res := search(t, l.svc, Query{Text: question, Filter: Filter{PaperIDs: []int64{l.cosmo}}}); len(res.Hits) != 0 {
		t.Errorf("filtered to the other paper: %+v", res.Hits)
	}
	if res := search(t, l.svc, Query{Text: question, Filter: Filter{Tag: "eht", Year: 2019}}); len(res.Hits) == 0 || res.Hits[0].ID != target.ID {
		t.Errorf("filtered to its paper: %+v", res.Hits)
	}
	var vectors, bits int
	if storetest.Get(t, l.st, &vectors, `SELECT COUNT(*) FROM rag_embeddings`); vectors != prog.Passages {
		t.Errorf("%d embeddings, want %d", vectors, prog.Passages)
	}
	if dim%8 == 0 {
		if storetest.Get(t, l.st, &bits, `SELECT COUNT(*) FROM rag_vectors`); bits != prog.Passages {
			t.Errorf("%d binary vectors, want %d", bits, prog.Passages)
		}
		// Re-indexing changed Markdown drops the old vectors everywhere.
		if err := l.svc.IndexPaper(context.Background(), l.cosmo, l.cosmoMD+"\n## 4 Addendum\n\nMore text.\n"); err != nil {
			t.Fatal(err)
		}
		var n, m int
		storetest.Get(t, l.st, &n, `SELECT COUNT(*) FROM rag_vectors`)
		storetest.Get(t, l.st, &m, `SELECT COUNT(*) FROM rag_chunks`)
		if n != m {
			t.Errorf("%d binary vectors for %d passages after re-indexing", n, m)
		}
	}
	// A random vector is far from everything: no support.
	if res := search(t, l.svc, Query{Text: "zzzz qqqq"}); len(res.Hits) != 0 {
		t.Errorf("nonsense question found %+v", res.Hits)
	}
}

func TestReindexOnlyWhenMarkdownChanges(t *testing.T) {
	l := newLibrary(t, Options{})
	ctx := context.Background()
	ids := func() []int64 {
		var out []int64
		storetest.Select(t, l.st, &out, `SELECT id FROM rag_chunks WHERE paper_id = ? ORDER BY seq`, l.m87)
		return out
	}
	before := ids()
	if err := l.svc.IndexPaper(ctx, l.m87, l.m87MD); err != nil {
		t.Fatal(err)
	}
	if after := ids(); len(after) != len(before) || after[0] != before[0] {
		t.Fatalf("same Markdown re-chunked: %v → %v", before, after)
	}
	changed := strings.Replace(l.m87MD, "asymmetric ring", "lopsided ring", 1)
	if err := l.svc.IndexPaper(ctx, l.m87, changed); err != nil {
		t.Fatal(err)
	}
	after := ids()
	if after[0] == before[0] {
		t.Fatal("changed Markdown not re-indexed")
	}
	if _, err := l.svc.Passage(ctx, before[0]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("old passage still there: %v", err)
	}
	if res := search(t, l.svc, Query{Text: "lopsided ring"}); len(res.Hits) != 1 || changed[res.Hits[0].Start:res.Hits[0].End] != res.Hits[0].Text {
		t.Errorf("new text not searchable: %+v", res.Hits)
	}
	if res := search(t, l.svc, Query{Text: "asymmetric"}); len(res.Hits) != 0 {
		t.Errorf("old text still searchable")
	}
}

func TestAsk(t *testing.T) {
	srv, _, gen := model(t, 8)
	l := newLibrary(t, Options{Generator: gen})
	srv.Enqueue(llmtest.Text("The black hole in M87 has a mass of $6.5\\times10^9 M_\\odot$ [1]. ",
		"It sits in a giant elliptical galaxy. [2]\n\nIts spin was measured to be 0.9 [9]."))
	a, err := l.svc.Ask(context.Background(), Query{Text: "What is the mass of the black hole in M87?"})
	if err != nil {
		t.Fatal(err)
	}
	if a.NoSupport || a.GenerationError != "" || len(a.Passages) < 2 {
		t.Fatalf("answer %+v", a)
	}
	want := []Sentence{{"The black hole in M87 has a mass of $6.5\\times10^9 M_\\odot$.", []int{1}},
		{"It sits in a giant elliptical galaxy.", []int{2}}}
	if len(a.Paragraphs) != 1 || len(a.Paragraphs[0]) != 2 || a.Paragraphs[0][0].Text != want[0].Text || a.Paragraphs[0][1].Cites[0] != 2 {
		t.Errorf("paragraphs %+v, want %+v", a.Paragraphs, want)
	}
	if len(a.Removed) != 1 || !strings.Contains(a.Removed[0], "spin") {
		t.Errorf("removed %q, want the sentence citing [9]", a.Removed)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	prompt := reqs[0].LastMessage().Content
	if !strings.Contains(prompt, "[1] First M87 Event Horizon Telescope Results (2019)") ||
		!strings.Contains(prompt, "Question: What is the mass of the black hole in M87?") {
		t.Errorf("prompt:\n%s", prompt)
	}
	if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, "ONLY the numbered passages") {
		t.Errorf("system prompt: %s", sys)
	}
}

func TestAskWithoutSupport(t *testing.T) {
	srv, _, gen := model(t, 8)
	l := newLibrary(t, Options{Generator: gen})
	ctx := context.Background()
	// Nothing retrieved: the model is not asked at all (llmtest fails any
	// unscripted chat request).
	a, err := l.svc.Ask(ctx, Query{Text: "What is the rotation curve of the Andromeda galaxy?"})
	if err != nil || !a.NoSupport || len(a.Passages) != 0 || len(srv.Requests()) != 0 {
		t.Fatalf("answer %+v, %v; %d requests", a, err, len(srv.Requests()))
	}
	// Passages retrieved but the model finds no answer in them.
	srv.Enqueue(llmtest.Text("NO_SUPPORT"))
	a, err = l.svc.Ask(ctx, Query{Text: "Who built the calibration network of the black hole array?"})
	if err != nil || !a.NoSupport || len(a.Paragraphs) != 0 || len(a.Passages) == 0 {
		t.Fatalf("answer %+v, %v", a, err)
	}
	// The model answers from memory without citing: nothing survives.
	srv.Enqueue(llmtest.Text("Andromeda is 2.5 million light years away."))
	a, err = l.svc.Ask(ctx, Query{Text: "black hole mass"})
	if err != nil || !a.NoSupport || len(a.Removed) != 1 {
		t.Fatalf("answer %+v, %v", a, err)
	}
	// The model is down: passages still come back.
	srv.Enqueue(llmtest.HTTPError(400, nil, "bad request"))
	a, err = l.svc.Ask(ctx, Query{Text: "black hole mass"})
	if err != nil || a.GenerationError == "" || len(a.Passages) == 0 || a.NoSupport {
		t.Fatalf("answer %+v, %v", a, err)
	}
}
