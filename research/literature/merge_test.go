package literature

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
)

func axEntry(id, title, doi string, authors ...string) arxiv.Entry {
	e := arxiv.Entry{ID: arxiv.ID{Base: id, Version: 2}, Title: title, DOI: doi, Summary: "arXiv abstract of " + title,
		Published: time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC), Categories: []string{"astro-ph.GA"}}
	for _, a := range authors {
		e.Authors = append(e.Authors, arxiv.Author{Name: a})
	}
	return e
}

func TestMergeRules(t *testing.T) {
	published := ads.Doc{Bibcode: "2023ApJ...950...12S", Title: "Cavities in Perseus (journal title)", Authors: []string{"Smith, J."},
		Journal: "The Astrophysical Journal", Year: 2023, DOI: "10.3847/1538-4357/ACD123", ArxivID: "2305.01234", CitationCount: new(42), Refereed: true}
	preprint := ads.Doc{Bibcode: "2024arXiv240101234D", Title: "Old preprint title", Authors: []string{"Doe, A."},
		Journal: "arXiv e-prints", Year: 2024, ArxivID: "2401.01234", CitationCount: new(1)}
	noIDs := ads.Doc{Bibcode: "1999A&A...345..100X", Title: "A paper ADS alone knows", Year: 1999, CitationCount: new(7)}
	entries := []arxiv.Entry{
		axEntry("2401.01234", "New preprint title (v2)", "", "A. Doe", "B. Roe"),
		axEntry("2305.01234", "Cavities in Perseus (submitted title)", "", "J. Smith"),
		axEntry("2402.09999", "Only on arXiv", "10.1000/xyz", "C. Poe"),
		// Matched to the published paper by DOI (case differs) although ADS has another arXiv id.
		axEntry("9999.00001", "Same DOI", "10.3847/1538-4357/acd123"),
	}
	got := Merge([]ads.Doc{published, preprint, noIDs}, entries)
	if len(got) != 4 {
		for _, p := range got {
			t.Logf("%+v", p)
		}
		t.Fatalf("%d papers, want 4 (two merged pairs, one ADS-only, one arXiv-only)", len(got))
	}
	p := got[0]
	if p.Title != "Cavities in Perseus (journal title)" || p.Journal != "The Astrophysical Journal" || *p.CitationCount != 42 ||
		p.Abstract != "arXiv abstract of Cavities in Perseus (submitted title)" || strings.Join(p.Sources, ",") != "ads,arxiv" {
		t.Errorf("published paper: ADS metadata must win, arXiv fills the abstract: %+v", p)
	}
	pre := got[1]
	if pre.Title != "New preprint title (v2)" || strings.Join(pre.Authors, ";") != "A. Doe;B. Roe" || pre.Bibcode != "2024arXiv240101234D" || *pre.CitationCount != 1 {
		t.Errorf("preprint: arXiv's current title/authors, ADS's bibcode and citations: %+v", pre)
	}
	if got[2].Bibcode != "1999A&A...345..100X" || got[3].ArxivID != "2402.09999" || got[3].CitationCount != nil {
		t.Errorf("order or single-source records wrong: %+v / %+v", got[2], got[3])
	}
}

type fakeADS struct {
	docs []ads.Doc
	err  error
	got  ads.Query
}

func (f *fakeADS) Search(ctx context.Context, q ads.Query) (ads.Result, error) {
	f.got = q
	return ads.Result{NumFound: len(f.docs), Docs: f.docs}, f.err
}

type fakeArxiv struct {
	entries []arxiv.Entry
	err     error
	got     arxiv.Query
	block   bool
}

func (f *fakeArxiv) Search(ctx context.Context, q arxiv.Query) (arxiv.Result, error) {
	f.got = q
	if f.block {
		<-ctx.Done()
		return arxiv.Result{}, ctx.Err()
	}
	return arxiv.Result{Total: len(f.entries), Entries: f.entries}, f.err
}

func TestSearcherOneSourceFailing(t *testing.T) {
	a := &fakeADS{err: fmt.Errorf("ads: %w", ads.ErrNoToken)}
	x := &fakeArxiv{entries: []arxiv.Entry{axEntry("2402.09999", "Only on arXiv", "")}}
	res, err := NewSearcher(a, x).Search(context.Background(), Query{Text: "perseus cavities", Rows: 500, Sort: ByDate})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Papers) != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "ADS_API_TOKEN") || res.ADS != -1 || res.Arxiv != 1 {
		t.Fatalf("%+v", res)
	}
	if x.got.Max != 50 || x.got.SortBy != arxiv.SortSubmitted || a.got.Sort != "date desc" || a.got.Rows != 50 {
		t.Fatalf("queries sent: ads %+v arxiv %+v", a.got, x.got)
	}
	_, err = NewSearcher(&fakeADS{err: errors.New("HTTP 500")}, &fakeArxiv{err: errors.New("HTTP 503")}).Search(context.Background(), Query{Text: "x"})
	if !errors.Is(err, ErrNoSource) || !strings.Contains(err.Error(), "HTTP 500") || !strings.Contains(err.Error(), "HTTP 503") {
		t.Fatalf("both failing: %v", err)
	}
}

func TestSearcherSlowSourceTimesOut(t *testing.T) {
	s := NewSearcher(&fakeADS{docs: []ads.Doc{{Bibcode: "2020ApJ...1....1A", Title: "fast"}}}, &fakeArxiv{block: true})
	s.timeout = 50 * time.Millisecond
	res, err := s.Search(context.Background(), Query{Text: "x"})
	if err != nil || len(res.Papers) != 1 || !strings.Contains(strings.Join(res.Notes, " "), "arXiv: did not answer in time") {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestMergeDates(t *testing.T) {
	both := ads.Doc{Bibcode: "2023ApJ...950...12S", Title: "Cavities", PubDate: "2023-06-00", ArxivID: "2305.01234", Year: 2023}
	adsOnly := ads.Doc{Bibcode: "1999A&A...345..100X", Title: "Old", PubDate: "1999-05-00", Year: 1999}
	got := Merge([]ads.Doc{both, adsOnly}, []arxiv.Entry{axEntry("2305.01234", "Cavities", ""), axEntry("2401.00001", "Preprint only", "")})
	want := map[string]string{"Cavities": "2023-05-01", "Old": "1999-05-00", "Preprint only": "2023-05-01"}
	for _, p := range got {
		if p.Date != want[p.Title] {
			t.Errorf("%s: date %q, want %q (the arXiv submission day when known, else ADS's month)", p.Title, p.Date, want[p.Title])
		}
	}
}
