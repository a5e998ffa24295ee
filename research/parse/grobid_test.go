package parse

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// TestGrobidEngine: the PDF goes to a fake GROBID as the "input" form
// field; its TEI (GROBID's real shape) becomes Markdown with headings,
// formulas, captions and citations linked to the reference list.
func TestGrobidEngine(t *testing.T) {
	tei, err := os.ReadFile("testdata/grobid_fulltext.tei.xml")
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "p.pdf")
	os.WriteFile(pdf, []byte("%PDF-1.7 test"), 0o644)
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, _, err := r.FormFile("input")
		if r.URL.Path != "/api/processFulltextDocument" || err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		got, _ = io.ReadAll(f)
		w.Header().Set("Content-Type", "application/xml")
		w.Write(tei)
	}))
	defer srv.Close()
	e := &GrobidEngine{Web: fetch.New(fetch.Options{Allow: []string{srv.URL}}), URL: srv.URL}
	doc, err := e.Parse(context.Background(), Input{PDFPath: pdf}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "%PDF-1.7 test" || doc.Engine != "grobid" {
		t.Fatalf("sent %q, engine %q", got, doc.Engine)
	}
	for _, want := range []string{
		"# Cold gas in ultra-faint dwarf galaxies\n", "## Abstract\n\nWe stack \\[CII\\] observations",
		"## 1. Introduction\n\nDwarf galaxies are gas rich [(Smith & Jones 2020)](#ref-1), and their slope $β$ is steep.",
		"$$A λ = k(λ) E(B − V ) (1)$$", "### 2.1. Stacking\n\nSpectra are aligned [\\[2\\]](#ref-2).",
		"**Figure 1:** Stacked spectrum of the sample.", "## Acknowledgements\n\nWe thank the referee.",
		`1. <span id="ref-1"></span>Smith A, Jones B, 2020, Gas in dwarfs, ApJ, 900, 1 [doi:10.3847/1538-4357/abc123](<https://doi.org/10.3847/1538-4357/abc123>)`,
		`2. <span id="ref-2"></span>Lee C, 2021, Stacking spectra [arXiv:2101.01234](<https://arxiv.org/abs/2101.01234>)`,
	} {
		if !strings.Contains(doc.Markdown, want) {
			t.Errorf("missing %q in\n%s", want, doc.Markdown)
		}
	}
	if _, err := (&GrobidEngine{}).Parse(context.Background(), Input{PDFPath: pdf}, nil); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("unconfigured: %v", err)
	}
}

// FuzzTEI: arbitrary TEI never panics.
func FuzzTEI(f *testing.F) {
	tei := readTestdata(f, "testdata/grobid_fulltext.tei.xml")
	f.Add(string(tei))
	f.Add(`<TEI><text><body><div><head n="1">x</head><p><ref type="bibr" target="#b9">y</ref></p></div></body></text></TEI>`)
	f.Fuzz(func(t *testing.T, in string) {
		md, err := TEIToMarkdown([]byte(in))
		if err == nil && len(md) > 8*len(in)+64 {
			t.Fatalf("%d bytes of Markdown from %d bytes", len(md), len(in))
		}
	})
}
