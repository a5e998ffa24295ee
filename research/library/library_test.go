package library

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

func TestParseRef(t *testing.T) {
	for in, want := range map[string]string{
		"2305.01234v2":                     "arxiv 2305.01234v2",
		"https://arxiv.org/pdf/2305.01234": "arxiv 2305.01234",
		"astro-ph/0601001":                 "arxiv astro-ph/0601001",
		"2019ApJ...875L...1E":              "bibcode 2019ApJ...875L...1E",
		"https://ui.adsabs.harvard.edu/abs/2019ApJ...875L...1E/abstract":                 "bibcode 2019ApJ...875L...1E",
		"10.3847/2041-8213/ab0ec7":                                                       "doi 10.3847/2041-8213/ab0ec7",
		"https://doi.org/10.3847/2041-8213/AB0EC7":                                       "doi 10.3847/2041-8213/AB0EC7",
		"https://iopscience.iop.org/article/10.3847/2041-8213/ab0ec7/pdf":                "doi 10.3847/2041-8213/ab0ec7",
		"https://www.aanda.org/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html": "doi 10.1051/0004-6361/201833051",
		"https://www.aanda.org/articles/aa/abs/2018/08/aa33051-18/aa33051-18.html":       "doi 10.1051/0004-6361/201833051",
		"https://www.aanda.org/articles/aa/pdf/2018/08/aa33051-18.pdf":                   "doi 10.1051/0004-6361/201833051",
		"https://www.aanda.org/10.1051/0004-6361/201833051":                              "doi 10.1051/0004-6361/201833051",
		"https://www.aanda.org/articles/aa/abs/2006/26/aa5071-06/aa5071-06.html":         "doi 10.1051/0004-6361:20065071",
	} {
		r, err := ParseRef(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		got := map[RefKind]string{RefArxiv: "arxiv " + r.Arxiv.String(), RefBibcode: "bibcode " + r.Value, RefDOI: "doi " + r.Value}[r.Kind]
		if got != want {
			t.Errorf("ParseRef(%q) = %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"", "hello world", "https://example.com/paper", "javascript:alert(1)", "http://user@arxiv.org.evil/abs/x",
		"https://www.aanda.org/component/toc/", "https://www.aanda.org/articles/aa/abs/2018/08/contents.html", "https://evil.example/articles/aa/abs/2018/08/aa33051-18/aa33051-18.html"} {
		if _, err := ParseRef(bad); !errors.Is(err, ErrUnknownRef) {
			t.Errorf("ParseRef(%q) = %v, want ErrUnknownRef", bad, err)
		}
	}
}

type fakeADS struct {
	token bool
	docs  map[string]ads.Doc
	calls atomic.Int32
}

func (f *fakeADS) HasToken() bool { return f.token }
func (f *fakeADS) Lookup(ctx context.Context, id string) (ads.Doc, error) {
	f.calls.Add(1)
	if !f.token {
		return ads.Doc{}, ads.ErrNoToken
	}
	if d, ok := f.docs[id]; ok {
		return d, nil
	}
	return ads.Doc{}, fmt.Errorf("ads: %w", ads.ErrNotFound)
}

type fakeArxiv struct{ entries map[string]arxiv.Entry }

func (f *fakeArxiv) Lookup(ctx context.Context, id arxiv.ID) (arxiv.Entry, error) {
	if e, ok := f.entries[id.Base]; ok {
		return e, nil
	}
	return arxiv.Entry{}, arxiv.ErrNotFound
}

func newLib(t *testing.T, token bool) (*Library, *store.Store, *fakeADS) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	st.CreateFirstUser(ctx, "vera", "h")
	a := &fakeADS{token: token, docs: map[string]ads.Doc{
		"arXiv:1906.11238": {Bibcode: "2019ApJ...875L...1E", Title: "First M87 Event Horizon Telescope Results. I.", Authors: []string{"EHT Collaboration"},
			Journal: "The Astrophysical Journal", Year: 2019, DOI: "10.3847/2041-8213/ab0ec7", ArxivID: "1906.11238", CitationCount: new(812), Refereed: true},
	}}
	a.docs["2019ApJ...875L...1E"] = a.docs["arXiv:1906.11238"]
	a.docs["10.3847/2041-8213/ab0ec7"] = a.docs["arXiv:1906.11238"]
	x := &fakeArxiv{entries: map[string]arxiv.Entry{"1906.11238": {ID: arxiv.ID{Base: "1906.11238", Version: 1},
		Title: "First M87 EHT Results (preprint)", Summary: "We present the first image...", Authors: []arxiv.Author{{Name: "EHT Collaboration"}},
		Published: time.Date(2019, 6, 26, 0, 0, 0, 0, time.UTC), Categories: []string{"astro-ph.GA"}}}}
	return New(st, a, x), st, a
}

func TestImportIdempotentAcrossIdentifiers(t *testing.T) {
	l, _, a := newLib(t, true)
	ctx := context.Background()
	ref, _ := ParseRef("arXiv:1906.11238v1")
	p, created, err := l.Import(ctx, 1, ref)
	if err != nil || !created {
		t.Fatalf("import: %+v %v %v", p, created, err)
	}
	if p.Title != "First M87 Event Horizon Telescope Results. I." || *p.Bibcode != "2019ApJ...875L...1E" ||
		p.Abstract != "We present the first image..." || *p.CitationCount != 812 {
		t.Fatalf("published metadata from ADS, abstract from arXiv: %+v", p)
	}
	for _, again := range []string{"2019ApJ...875L...1E", "https://doi.org/10.3847/2041-8213/ab0ec7", "https://arxiv.org/abs/1906.11238v2"} {
		r, _ := ParseRef(again)
		q, created, err := l.Import(ctx, 1, r)
		if err != nil || created || q.ID != p.ID {
			t.Fatalf("%s: imported twice: %+v %v %v", again, q, created, err)
		}
	}
	if a.calls.Load() != 1 {
		t.Fatalf("ADS was asked %d times; a paper already in the library needs no lookup", a.calls.Load())
	}
}

func TestImportWithoutTokenAndUnknown(t *testing.T) {
	l, _, _ := newLib(t, false)
	ctx := context.Background()
	ref, _ := ParseRef("1906.11238")
	p, _, err := l.Import(ctx, 1, ref)
	if err != nil || p.Title != "First M87 EHT Results (preprint)" || p.Bibcode != nil {
		t.Fatalf("arXiv-only import: %+v %v", p, err)
	}
	bib, _ := ParseRef("2020MNRAS.491..111X")
	if _, _, err := l.Import(ctx, 1, bib); !errors.Is(err, ads.ErrNoToken) {
		t.Fatalf("bibcode without a token: %v", err)
	}
	unknown, _ := ParseRef("2401.99999")
	if _, _, err := l.Import(ctx, 1, unknown); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown arXiv id: %v", err)
	}
}

// The same paper imported many times at once, by different identifiers,
// gives one library entry.
func TestConcurrentImportsGiveOneEntry(t *testing.T) {
	l, st, _ := newLib(t, true)
	ctx := context.Background()
	refs := []string{"1906.11238", "2019ApJ...875L...1E", "10.3847/2041-8213/ab0ec7", "https://arxiv.org/abs/1906.11238v1"}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := ParseRef(refs[i%len(refs)])
			if err == nil {
				_, _, err = l.Import(ctx, 1, r)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	storetest.Get(t, st, &n, `SELECT COUNT(*) FROM papers`)
	if n != 1 {
		t.Fatalf("%d entries for one paper", n)
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"2305.01234v2", "astro-ph/0601001", "2019ApJ...875L...1E", "10.3847/2041-8213/ab0ec7",
		"https://www.aanda.org/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html", "https://www.aanda.org/10.1051/x",
		"https://iopscience.iop.org/article/10.3847/a/b/pdf", "https://ui.adsabs.harvard.edu/abs/2019ApJ...875L...1E/abstract"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRef(s)
		if err != nil {
			if !errors.Is(err, ErrUnknownRef) {
				t.Fatalf("ParseRef(%q): %v is not ErrUnknownRef", s, err)
			}
			return
		}
		switch r.Kind {
		case RefArxiv:
			if r.Arxiv.Base == "" {
				t.Fatalf("ParseRef(%q) = empty arXiv id", s)
			}
		case RefBibcode:
			if !ads.ValidBibcode(r.Value) {
				t.Fatalf("ParseRef(%q) = bad bibcode %q", s, r.Value)
			}
		case RefDOI:
			if d, err := ads.NormalizeDOI(r.Value); err != nil || d != r.Value {
				t.Fatalf("ParseRef(%q) = DOI %q not normalised (%q, %v)", s, r.Value, d, err)
			}
		default:
			t.Fatalf("ParseRef(%q) = kind %d", s, r.Kind)
		}
	})
}
