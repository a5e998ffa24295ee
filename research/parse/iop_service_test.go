package parse

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
)

// TestServiceIOPPaper: a library paper with an IOP DOI and no arXiv id or
// PDF is read from its IOPscience page, and the engine is recorded.
func TestServiceIOPPaper(t *testing.T) {
	ctx := context.Background()
	st, dir := newTestStore(t)
	page := readTestdata(t, "testdata/iop_apj_ad1234.html")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/article/10.3847/1538-4357/ad1234" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write(page)
	}))
	defer srv.Close()
	doi := "10.3847/1538-4357/ad1234"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Cold gas", DOI: &doi})
	if err != nil {
		t.Fatal(err)
	}
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}})
	svc := NewService(st, dir, &ArxivHTMLEngine{Web: web, HTMLURL: srv.URL + "/html"}, &IOPHTMLEngine{Web: web, URL: srv.URL}, &PDFEngine{})
	c, err := svc.Parse(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Engine != "iop-html" || c.Source != srv.URL+"/article/"+doi {
		t.Errorf("engine %q source %q", c.Engine, c.Source)
	}
	if md, engine, err := svc.Markdown(ctx, p.ID); err != nil || engine != "iop-html" || len(md) < 500 {
		t.Errorf("Markdown: %d bytes, %q, %v", len(md), engine, err)
	}
}
