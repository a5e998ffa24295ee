package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestPaperTags(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	p, _, err := s.UpsertPaper(ctx, Paper{Title: "Cavities", ArxivID: sp("2305.01234")})
	if err != nil {
		t.Fatal(err)
	}
	tags, err := s.AddPaperTags(ctx, p.ID, []string{"perseus", "AGN feedback"}, 3)
	if err != nil || !slices.Equal(tags, []string{"AGN feedback", "perseus"}) {
		t.Fatalf("add: %q %v", tags, err)
	}
	// Case-insensitive: "Perseus" is the tag it already has.
	if tags, err = s.AddPaperTags(ctx, p.ID, []string{"Perseus"}, 3); err != nil || len(tags) != 2 {
		t.Fatalf("add again: %q %v", tags, err)
	}
	// Over the limit: refused, nothing added.
	if _, err := s.AddPaperTags(ctx, p.ID, []string{"a", "b"}, 3); !errors.Is(err, ErrTooManyTags) {
		t.Fatalf("over the limit: %v", err)
	}
	if got, _ := s.PaperByID(ctx, p.ID); len(got.Tags) != 2 {
		t.Fatalf("tags after a refused add: %q", got.Tags)
	}
	if tags, err = s.RemovePaperTag(ctx, p.ID, "PERSEUS"); err != nil || !slices.Equal(tags, []string{"AGN feedback"}) {
		t.Fatalf("remove: %q %v", tags, err)
	}
	if tags, err = s.RemovePaperTag(ctx, p.ID, "absent"); err != nil || len(tags) != 1 {
		t.Fatalf("remove absent: %q %v", tags, err)
	}
	if tags, err = s.SetPaperTags(ctx, p.ID, []string{"x", "y"}); err != nil || !slices.Equal(tags, []string{"x", "y"}) {
		t.Fatalf("set: %q %v", tags, err)
	}
	if tags, err = s.SetPaperTags(ctx, p.ID, nil); err != nil || tags == nil || len(tags) != 0 {
		t.Fatalf("clear: %q %v", tags, err)
	}
	for name, f := range map[string]func() ([]string, error){
		"add":    func() ([]string, error) { return s.AddPaperTags(ctx, 999, []string{"x"}, 3) },
		"remove": func() ([]string, error) { return s.RemovePaperTag(ctx, 999, "x") },
		"set":    func() ([]string, error) { return s.SetPaperTags(ctx, 999, []string{"x"}) },
	} {
		if _, err := f(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s on a missing paper: %v", name, err)
		}
	}
}

func TestLibraryVersionGrowsWithEveryWrite(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	last, err := s.LibraryVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	steps := []struct {
		name string
		do   func() error
	}{
		{"import", func() error {
			p, _, err := s.UpsertPaper(ctx, Paper{Title: "T", ArxivID: sp("2401.00001"), Authors: []string{"A"}})
			id = p.ID
			return err
		}},
		{"merge", func() error {
			_, _, err := s.UpsertPaper(ctx, Paper{ArxivID: sp("2401.00001"), Bibcode: sp("2024ApJ...1....1A"), CitationCount: ip(3)})
			return err
		}},
		{"tag", func() error { _, err := s.AddPaperTags(ctx, id, []string{"x"}, 5); return err }},
		{"untag", func() error { _, err := s.RemovePaperTag(ctx, id, "x"); return err }},
		{"status", func() error { return s.SetDownloadStatus(ctx, id, "failed", "no") }},
		{"file", func() error {
			_, err := s.AddPaperFile(ctx, PaperFile{PaperID: id, Kind: "pdf", SHA256: "ab", Path: "p"})
			return err
		}},
		{"raw SQL", func() error {
			_, err := s.w.ExecContext(ctx, `INSERT INTO paper_tags (paper_id, tag) VALUES (?, 'raw')`, id)
			return err
		}},
		{"delete", func() error { _, err := s.w.ExecContext(ctx, `DELETE FROM papers WHERE id = ?`, id); return err }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		v, err := s.LibraryVersion(ctx)
		if err != nil || v <= last {
			t.Fatalf("%s: version %d after %d (%v)", st.name, v, last, err)
		}
		last = v
	}
}

func TestListPapersOrders(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	for i, p := range []struct {
		title string
		year  *int
		cites *int
	}{{"beta", ip(2020), ip(5)}, {"Alpha", ip(2022), nil}, {"gamma galaxy", nil, ip(50)}, {"delta galaxy galaxy", ip(2021), ip(1)}} {
		id := fmt.Sprintf("2401.0000%d", i)
		if _, _, err := s.UpsertPaper(ctx, Paper{Title: p.title, ArxivID: &id, Year: p.year, CitationCount: p.cites}); err != nil {
			t.Fatal(err)
		}
	}
	titles := func(f PaperFilter) []string {
		t.Helper()
		ps, _, err := s.ListPapers(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.Title)
		}
		return out
	}
	for _, c := range []struct {
		f    PaperFilter
		want []string
	}{
		{PaperFilter{}, []string{"delta galaxy galaxy", "gamma galaxy", "Alpha", "beta"}},
		{PaperFilter{Sort: SortRelevance}, []string{"delta galaxy galaxy", "gamma galaxy", "Alpha", "beta"}},
		{PaperFilter{Sort: SortTitle}, []string{"Alpha", "beta", "delta galaxy galaxy", "gamma galaxy"}},
		{PaperFilter{Sort: SortYear}, []string{"Alpha", "delta galaxy galaxy", "beta", "gamma galaxy"}},
		{PaperFilter{Sort: SortCited}, []string{"gamma galaxy", "beta", "delta galaxy galaxy", "Alpha"}},
		{PaperFilter{Query: "galaxy"}, []string{"delta galaxy galaxy", "gamma galaxy"}},
		{PaperFilter{Query: "galaxy", Sort: SortTitle}, []string{"delta galaxy galaxy", "gamma galaxy"}},
		{PaperFilter{Query: "galaxy", Sort: SortCited}, []string{"gamma galaxy", "delta galaxy galaxy"}},
		{PaperFilter{Sort: SortTitle, Limit: 2, Offset: 1}, []string{"beta", "delta galaxy galaxy"}},
		{PaperFilter{Query: "!!!"}, nil},
	} {
		if got := titles(c.f); !slices.Equal(got, c.want) {
			t.Errorf("%+v: got %q, want %q", c.f, got, c.want)
		}
	}
	if n, err := s.CountPapers(ctx, PaperFilter{Query: "galaxy", Sort: SortTitle, Limit: 1}); err != nil || n != 2 {
		t.Fatalf("count %d %v", n, err)
	}
	if !ValidSort("cited") || ValidSort("random") {
		t.Fatal("ValidSort")
	}
}
