package store

import (
	"context"
	"fmt"
	"testing"
)

// seedLibrary adds n papers on galaxy clusters, three authors each.
func seedLibrary(tb testing.TB, s *Store, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("2401.%05d", i)
		y, cites := 2000+i%25, i%300
		if _, _, err := s.UpsertPaper(ctx, Paper{Title: fmt.Sprintf("Paper %d on galaxy clusters", i), ArxivID: &id, Year: &y,
			CitationCount: &cites, Abstract: "We study the intracluster medium.", Authors: []string{"Smith, J.", "Doe, A.", "Roe, B."},
			Keywords: []string{"clusters"}}); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkListPapers times one list query (a page of 50 with its count)
// over 10,000 papers, per filter and order.
func BenchmarkListPapers(b *testing.B) {
	s := newStore(b, nil)
	seedLibrary(b, s, 10_000)
	ctx := context.Background()
	for _, f := range []PaperFilter{
		{}, {Query: "galaxy clusters"}, {Query: "paper 42"}, {Year: 2010}, {Sort: SortTitle}, {Sort: SortCited}, {Query: "galaxy", Sort: SortYear},
		{Offset: 9000},
	} {
		b.Run(fmt.Sprintf("q=%q,year=%d,sort=%s,offset=%d", f.Query, f.Year, f.Sort, f.Offset), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := s.ListPapers(ctx, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
