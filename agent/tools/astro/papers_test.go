package astro

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
)

type fakeSearcher struct{ res literature.Result }

func (f fakeSearcher) Search(ctx context.Context, q literature.Query) (literature.Result, error) {
	return f.res, nil
}

func TestSearchPapersOutput(t *testing.T) {
	n := 812
	tool := SearchPapers(fakeSearcher{literature.Result{ADS: 1284, Arxiv: -1, Notes: []string{"arXiv: did not answer in time"},
		Papers: []literature.Paper{{Title: "First M87 Event Horizon Telescope Results. I.", Authors: []string{"Event Horizon Telescope Collaboration", "Akiyama, K.", "Alberdi, A.", "Alef, W."},
			Year: 2019, Journal: "The Astrophysical Journal", Bibcode: "2019ApJ...875L...1E", ArxivID: "1906.11238", DOI: "10.3847/2041-8213/ab0ec7", CitationCount: &n, Refereed: true},
			{Title: "Not here", ArxivID: "2402.00001"}}}}, shelfWith("1906.11238"))
	res, err := tool.Execute(context.Background(), &tools.Context{}, json.RawMessage(`{"query":"M87 shadow"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 papers for \"M87 shadow\" (ADS has 1284 matches)", "et al. (4 authors) (2019), The Astrophysical Journal",
		"bibcode 2019ApJ...875L...1E · arXiv:1906.11238 · doi:10.3847/2041-8213/ab0ec7 · 812 citations · refereed · in library #5, PDF downloaded",
		"arXiv:2402.00001 · not in library", "Note — arXiv: did not answer in time"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if c := tools.Caps(SearchPapers(fakeSearcher{}, nil)); !c.ReadOnly || c.Deferred {
		t.Fatal("search_papers is read-only and resident (docs/features.md §5)")
	}
}

type shelf map[string]bool

func shelfWith(arxivIDs ...string) shelf {
	s := shelf{}
	for _, id := range arxivIDs {
		s[id] = true
	}
	return s
}

func (s shelf) PaperStatuses(ctx context.Context, ids []store.PaperIDs) ([]store.PaperStatus, error) {
	out := make([]store.PaperStatus, len(ids))
	for i, id := range ids {
		if s[id.ArxivID] {
			out[i] = store.PaperStatus{ID: 5, DownloadStatus: "downloaded"}
		}
	}
	return out, nil
}
