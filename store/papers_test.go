package store

import (
	"context"
	"sync"
	"testing"
)

func sp(s string) *string { return &s }
func ip(i int) *int       { return &i }

func TestUpsertPaperMergesByAnyIdentifier(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	pre := Paper{Title: "Cavities in Perseus", Abstract: "We find...", ArxivID: sp("2305.01234"), ArxivVersion: ip(1),
		Year: ip(2023), Authors: []string{"Smith, J.", "Doe, A."}, Categories: "astro-ph.GA"}
	p1, created, err := s.UpsertPaper(ctx, pre)
	if err != nil || !created || p1.ID == 0 || len(p1.Authors) != 2 {
		t.Fatalf("insert: %+v %v %v", p1, created, err)
	}
	// The published version arrives from ADS: same arXiv id plus bibcode and DOI.
	pub := Paper{Title: "Cavities in Perseus (journal)", ArxivID: sp("2305.01234"), Bibcode: sp("2023ApJ...950...12S"),
		DOI: sp("10.3847/1538-4357/acd123"), Journal: "The Astrophysical Journal", CitationCount: ip(42), Refereed: true,
		Keywords: []string{"galaxy clusters"}, ArxivVersion: ip(2)}
	p2, created, err := s.UpsertPaper(ctx, pub)
	if err != nil || created || p2.ID != p1.ID {
		t.Fatalf("merge: %+v %v %v", p2, created, err)
	}
	if p2.Title != "Cavities in Perseus" || *p2.Bibcode != "2023ApJ...950...12S" || *p2.CitationCount != 42 || !p2.Refereed ||
		p2.Journal != "The Astrophysical Journal" || *p2.ArxivVersion != 2 || len(p2.Keywords) != 1 {
		t.Fatalf("merged entry %+v", p2)
	}
	// Found by DOI with another case.
	got, err := s.PaperByIdentifier(ctx, PaperIDs{DOI: "10.3847/1538-4357/ACD123"})
	if err != nil || got.ID != p1.ID || len(got.Authors) != 2 {
		t.Fatalf("by DOI: %+v %v", got, err)
	}
	if _, err := s.PaperByIdentifier(ctx, PaperIDs{Bibcode: "nope"}); err == nil {
		t.Fatal("unknown bibcode found")
	}
	if _, _, err := s.UpsertPaper(ctx, Paper{Title: "No ids"}); err == nil {
		t.Fatal("a paper without identifiers was stored")
	}
}

func TestConcurrentImportsOfOnePaper(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	ids := make(chan int64, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, _, err := s.UpsertPaper(ctx, Paper{Title: "Same paper", ArxivID: sp("2401.00001"), Authors: []string{"A"}})
			if err != nil {
				t.Error(err)
				return
			}
			ids <- p.ID
		}()
	}
	wg.Wait()
	close(ids)
	first := int64(0)
	for id := range ids {
		if first == 0 {
			first = id
		}
		if id != first {
			t.Fatalf("two entries for one paper: %d and %d", first, id)
		}
	}
	var n int
	s.r.GetContext(ctx, &n, `SELECT COUNT(*) FROM papers`)
	if n != 1 {
		t.Fatalf("%d rows", n)
	}
}

func TestPaperStatuses(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	a, _, _ := s.UpsertPaper(ctx, Paper{Title: "A", ArxivID: sp("2401.00001")})
	b, _, _ := s.UpsertPaper(ctx, Paper{Title: "B", Bibcode: sp("2024ApJ...1....1B"), DOI: sp("10.1/B")})
	if err := s.SetDownloadStatus(ctx, b.ID, "downloaded", ""); err != nil {
		t.Fatal(err)
	}
	got, err := s.PaperStatuses(ctx, []PaperIDs{
		{ArxivID: "2401.00001"}, {DOI: "10.1/b"}, {ArxivID: "9999.99999", Bibcode: "2024ApJ...1....1B"}, {}, {ArxivID: "2402.00002"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{a.ID, b.ID, b.ID, 0, 0}
	for i, w := range want {
		if got[i].ID != w {
			t.Fatalf("statuses %+v, want ids %v", got, want)
		}
	}
	if got[1].DownloadStatus != "downloaded" || got[0].DownloadStatus != "none" {
		t.Fatalf("statuses %+v", got)
	}
	if out, err := s.PaperStatuses(ctx, nil); err != nil || len(out) != 0 {
		t.Fatal(out, err)
	}
	if _, err := s.PaperStatuses(ctx, make([]PaperIDs, 501)); err == nil {
		t.Fatal("501 lookups accepted")
	}
	// PaperByIdentifier matches only the identifiers given.
	if p, err := s.PaperByIdentifier(ctx, PaperIDs{DOI: "10.1/B"}); err != nil || p.ID != b.ID {
		t.Fatal(p, err)
	}
	if _, err := s.PaperByIdentifier(ctx, PaperIDs{}); err == nil {
		t.Fatal("empty identifiers matched a paper")
	}
}
