package objects

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/ads/adstest"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

// fakeResolver knows NGC 4258 (main identifier M 106) under "NGC 4258".
type fakeResolver struct{ asked []string }

func (f *fakeResolver) Resolve(_ context.Context, name string) (sesame.Object, error) {
	f.asked = append(f.asked, name)
	switch name {
	case "NGC 4258":
		z := 0.001541
		return sesame.Object{Name: "M 106", Type: "LIN", RADeg: 184.74008, DecDeg: 47.30372, Redshift: &z,
			Aliases: []string{"NGC 4258", "UGC 7353", "NAME Messier 106"}, Resolver: "Simbad", Resolvers: []string{"Simbad", "NED"}}, nil
	case "down":
		return sesame.Object{}, fmt.Errorf("%w: HTTP 503", sesame.ErrUnavailable)
	}
	return sesame.Object{}, fmt.Errorf("sesame: %q: %w", name, sesame.ErrNotFound)
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	return storetest.New(t)
}

func TestVariants(t *testing.T) {
	for in, want := range map[string]string{"NGC4258": "NGC4258|NGC 4258", "NGC  4258": "NGC 4258|NGC4258", "Perseus A": "Perseus A", "3C 84": "3C 84"} {
		if got := strings.Join(Variants(in), "|"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestReport(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	srv := adstest.NewServer(t, "tok")
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	client := ads.New(srv.URL+"/v1", "tok", web)
	bib := "1995Natur.373..127M"
	inLib, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "Evidence for a supermassive black hole", Bibcode: &bib})
	year, arxiv := 2020, "2001.00001"
	p, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "Masers", ArxivID: &arxiv, Year: &year})
	md := "# Masers\n\n## 1 Data\n\nWe observed Messier 106 with the VLBA.\n\n## 2 Other\n\nNothing about it here, only M87.\n"
	if err := rag.New(st, rag.Options{}).IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, "vera", "x", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateNote(ctx, store.PaperNote{UserID: u.ID, PaperID: p.ID, Kind: "note", Body: "Check the UGC 7353 distance"}); err != nil {
		t.Fatal(err)
	}
	res := &fakeResolver{}
	r, err := New(st, res, client).Report(ctx, u.ID, "NGC4258")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Tried, "|") != "NGC4258|NGC 4258" || r.Object.Name != "M 106" {
		t.Fatalf("tried %v object %+v", r.Tried, r.Object)
	}
	if r.Literature == nil || r.Literature.Total != 1843 || r.Literature.Refereed != 1204 || len(r.Literature.ByYear) != 5 || len(r.Literature.Top) != 3 {
		t.Fatalf("literature %+v (%s)", r.Literature, r.LiteratureNote)
	}
	if r.Literature.Top[1].LibraryID != inLib.ID || r.Literature.Top[0].LibraryID != 0 {
		t.Fatalf("library status of top papers %+v", r.Literature.Top)
	}
	if len(r.Library.Papers) != 1 || r.Library.Papers[0].ID != p.ID || len(r.Library.Passages) != 1 || !strings.Contains(r.Library.Passages[0].Text, "Messier 106") {
		t.Fatalf("library %+v", r.Library)
	}
	if len(r.Notes) != 1 {
		t.Fatalf("notes %+v", r.Notes)
	}

	_, err = New(st, res, nil).Report(ctx, 1, "Xyzzy 12")
	var nr *NotResolvedError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "Xyzzy 12, Xyzzy12") {
		t.Fatalf("unknown object: %v", err)
	}
	if _, err := New(st, res, nil).Report(ctx, 1, "down"); !errors.Is(err, sesame.ErrUnavailable) {
		t.Fatalf("Sesame down: %v", err)
	}
	noADS, err := New(st, res, nil).Report(ctx, 1, "NGC 4258")
	if err != nil || noADS.Literature != nil || noADS.LiteratureNote == "" {
		t.Fatalf("without ADS: %+v %v", noADS, err)
	}
}
