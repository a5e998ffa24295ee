package library

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/ads/adstest"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

// adsLinksFake is a local ADS answering citations(...) and references(...)
// with package adstest's recorded answers (ADS's Solr format), counting
// calls; status, when set, is returned instead.
type adsLinksFake struct {
	srv    *httptest.Server
	now    atomic.Int64 // the fetch clock (Unix seconds), for the 10-minute search cache
	status atomic.Int32
	calls  atomic.Int32
}

func newADSLinksFake(t *testing.T) *adsLinksFake {
	t.Helper()
	cites, refs := adstest.Citations, adstest.References
	f := &adsLinksFake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error": "Unauthorized"}`))
			return
		}
		if s := f.status.Load(); s != 0 {
			w.WriteHeader(int(s))
			w.Write([]byte(`{"responseHeader": {"status": 500}, "error": {"msg": "boom", "code": 500}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch q := r.URL.Query().Get("q"); {
		case r.URL.Path != "/v1/search/query":
			http.NotFound(w, r)
		case strings.HasPrefix(q, "citations("):
			w.Write(cites)
		case strings.HasPrefix(q, "references("):
			w.Write(refs)
		default:
			w.Write([]byte(`{"responseHeader": {"status": 0}, "response": {"numFound": 0, "start": 0, "docs": []}}`))
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// client is an ADS client for the fake with token; its fetch clock is
// f.now, so a test can let the search cache expire.
func (f *adsLinksFake) client(token string) *ads.Client {
	f.now.CompareAndSwap(0, time.Now().Unix())
	web := fetch.New(fetch.Options{Allow: []string{f.srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{},
		Now: func() time.Time { return time.Unix(f.now.Load(), 0) }})
	return ads.New(f.srv.URL+"/v1", token, web)
}

func TestLinksFetchStoreAndLibraryStatus(t *testing.T) {
	_, st, _ := newLib(t, false)
	ctx := context.Background()
	fake := newADSLinksFake(t)
	links := NewLinks(st, fake.client("tok"))
	bib := "2019ApJ...875L...1E"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "EHT I", Bibcode: &bib})
	if err != nil {
		t.Fatal(err)
	}
	// One reference is already in the library (by its arXiv id only).
	ax := "2401.01234"
	inLib, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Cold gas", ArxivID: &ax})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetDownloadStatus(ctx, inLib.ID, "downloaded", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := links.Stored(ctx, p); ok || err != nil {
		t.Fatalf("stored before any fetch: %v %v", ok, err)
	}
	cites, refs, err := links.Lists(ctx, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if cites.Total != 4637 || len(cites.Links) != 2 || cites.Links[0].Bibcode != "2024arXiv240112345K" ||
		cites.Links[1].Title != "First M87 Event Horizon Telescope Results. VII. Polarization of the Ring" {
		t.Fatalf("citations: %+v", cites)
	}
	if refs.Total != 3 || len(refs.Links) != 3 {
		t.Fatalf("references: %+v", refs)
	}
	first := refs.Links[0]
	if first.LibraryID == nil || *first.LibraryID != inLib.ID || *first.DownloadStatus != "downloaded" {
		t.Fatalf("the reference in the library is not linked: %+v", first)
	}
	if refs.Links[1].LibraryID != nil || refs.Links[1].Authors != "Brown, Anthony G. A.; Vallenari, Antonella; Prusti, Timo et al." ||
		*refs.Links[2].Year != 1977 || *refs.Links[2].CitationCount != 4390 {
		t.Fatalf("references: %+v", refs.Links[1:])
	}
	// Stored: a second look needs no ADS call.
	calls := fake.calls.Load()
	if _, _, err := links.Lists(ctx, p, false); err != nil || fake.calls.Load() != calls {
		t.Fatalf("second look: %v, %d new calls", err, fake.calls.Load()-calls)
	}
	// Importing another reference later links it without a new fetch.
	doi := "10.1093/mnras/179.3.433"
	bz, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "BZ77", DOI: &doi})
	_, refs, _, _ = links.Stored(ctx, p)
	if refs.Links[2].LibraryID == nil || *refs.Links[2].LibraryID != bz.ID {
		t.Fatalf("a later import is not linked: %+v", refs.Links[2])
	}
	// A failing refresh (once ADS answers are no longer cached) keeps the
	// stored lists.
	fake.status.Store(http.StatusInternalServerError)
	fake.now.Add(3600)
	if _, _, err := links.Lists(ctx, p, true); !errors.Is(err, ads.ErrServer) {
		t.Fatalf("ADS 500: %v", err)
	}
	if _, refs, ok, _ := links.Stored(ctx, p); !ok || len(refs.Links) != 3 {
		t.Fatal("a failed refresh lost the stored lists")
	}
	// Deleting the paper removes its links.
	storetest.Exec(t, st, `DELETE FROM papers WHERE id = ?`, p.ID)
	var n int
	storetest.Get(t, st, &n, `SELECT COUNT(*) FROM paper_links`)
	if n != 0 {
		t.Fatalf("%d links outlived their paper", n)
	}
}

func TestLinksRefusals(t *testing.T) {
	_, st, _ := newLib(t, false)
	ctx := context.Background()
	fake := newADSLinksFake(t)
	bib := "2019ApJ...875L...1E"
	withBib := store.Paper{ID: 1, Bibcode: &bib}
	if err := NewLinks(st, fake.client("")).Check(withBib); !errors.Is(err, ads.ErrNoToken) {
		t.Fatalf("no token: %v", err)
	}
	if err := NewLinks(st, fake.client("tok")).Check(store.Paper{ID: 1}); !errors.Is(err, ErrNoBibcode) {
		t.Fatalf("no identifier at all: %v", err)
	}
	// A preprint ADS does not know (yet): no bibcode to list by.
	ax := "2402.99999"
	pre, _, err := st.UpsertPaper(ctx, store.Paper{Title: "New preprint", ArxivID: &ax})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewLinks(st, fake.client("tok")).Lists(ctx, pre, false); !errors.Is(err, ErrNotInADS) {
		t.Fatalf("unknown to ADS: %v", err)
	}
	fake.calls.Store(0)
	if _, _, err := NewLinks(st, fake.client("wrong")).Lists(ctx, withBib, false); !errors.Is(err, ads.ErrUnauthorized) {
		t.Fatalf("bad token: %v", err)
	}
	bad := "not a bibcode"
	if _, _, err := NewLinks(st, fake.client("tok")).Lists(ctx, store.Paper{ID: 1, Bibcode: &bad}, false); !errors.Is(err, ads.ErrMalformedID) {
		t.Fatalf("malformed bibcode: %v", err)
	}
	// An unknown paper id: nothing stored.
	if _, _, err := NewLinks(st, fake.client("tok")).Lists(ctx, store.Paper{ID: 999, Bibcode: &bib}, false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown paper: %v", err)
	}
	if fake.calls.Load() != 3 {
		// wrong token: 1 call; unknown paper: citations + references before the store refuses.
		t.Fatalf("%d ADS calls", fake.calls.Load())
	}
}
