package parse

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// testdata/iop_apj_ad1234.html is written in IOPscience's article-page
// markup as public scrapers of iopscience.iop.org read it:
//   - an open-source publisher handler's IOPHandler (a "publisher/iop.py"
//     checked against captured pages): the body in div.wd-jnl-art-full-text
//     with nested div.article-text, h2/h3 headings; TeX in <script
//     type="math/tex"> and <script type="math/tex; mode=display"> inside
//     div.display-eqn, wrapped in span.inline-eqn > span.tex next to a hidden
//     span.texImage; figures as <figure class="boxout"
//     data-toolbar-type="figure"> with figcaption > strong + p; tables as
//     <table data-toolbar-type="table" data-toolbar-title> in div.boxout with
//     <p><small> notes; footnotes under h2#footnotes as li.indices-list with
//     div.indices-id / div.indices-content; references from
//     citation_reference meta tags ("key=value; …" pairs);
//   - HEPcrawl-style harvesters and abstract scrapers: div "article-text
//     wd-jnl-art-abstract cf", ul "clear-list wd-content-footnotes",
//     citation_* meta tags.
//
// The citation_reference key names follow the Highwire citation_*
// convention (citation_author, citation_title, citation_journal_title,
// citation_year, citation_volume, citation_firstpage, citation_doi);
// other key names fall back to listing the values.
func TestIOPGolden(t *testing.T) {
	page, err := os.ReadFile("testdata/iop_apj_ad1234.html")
	if err != nil {
		t.Fatal(err)
	}
	md, err := IOPHTMLToMarkdown(page)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "iop_apj_ad1234.md", md)
	for _, must := range []string{
		"# Cold Gas in Ultra-faint Dwarf Galaxies\n\n*A. Astronomer, B. Observer*\n",
		"## Abstract\n\nWe stack \\[C ii\\] observations",
		`${M}_{\mathrm{gas}}\gt {10}^{4}\,{M}_{\odot }$ in most of them.`,
		"## 1. Introduction\n", "### 2.1. Stacking\n", "## Acknowledgments\n\nWe thank the referee.",
		"gas rich ([Smith & Jones 2020](#ref-2)), and their slope $\\beta$ is steep. [Lee (2021)](#ref-1) stacked spectra before.<sup>4</sup>",
		`$${A}_{\lambda }=k(\lambda )\,E(B-V)\tag{1}$$`,
		"See the [MAST archive](<https://archive.stsci.edu/>) for the data.",
		"- first, the continuum is removed;\n- then the spectra are averaged.",
		"**Figure 1.** Stacked spectrum of the sample at $z\\lt 0.01$.",
		"**Table 1.** The Sample", "| Name | $z$ |\n| --- | --- |\n| Segue 1 | 0.0001 |",
		"**Note.** Redshifts from the literature.",
		"## Notes\n\n4. Data at [example.org](<https://example.org/data>).",
		"1. <span id=\"ref-1\"></span>Lee, C., 2021, Stacking spectra, AJ, 161, 12 [doi:10.3847/1538-3881/abc999](<https://doi.org/10.3847/1538-3881/abc999>)",
		"2. <span id=\"ref-2\"></span>Smith, A., Jones, B., 2020, Gas in dwarfs, ApJ, 900, 1",
	} {
		if !strings.Contains(md, must) {
			t.Errorf("missing %q in\n%s", must, md)
		}
	}
	for _, never := range []string{"Download figure", "Cookie", "Login", "data:image", "iVBOR"} {
		if strings.Contains(md, never) {
			t.Errorf("page chrome %q leaked into the text", never)
		}
	}
}

// TestIOPHTMLEngine: IOP DOIs go to IOP_URL/article/{DOI}; other DOIs and
// abstract-only pages are not applicable, so the PDF engines run.
func TestIOPHTMLEngine(t *testing.T) {
	page := readTestdata(t, "testdata/iop_apj_ad1234.html")
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if strings.Contains(r.URL.Path, "abstractonly") {
			w.Write([]byte(`<html><head><meta name="citation_title" content="X"></head><body><div class="article-text wd-jnl-art-abstract cf"><p>Only the abstract.</p></div></body></html>`))
			return
		}
		w.Write(page)
	}))
	defer srv.Close()
	e := &IOPHTMLEngine{Web: fetch.New(fetch.Options{Allow: []string{srv.URL}}), URL: srv.URL}
	ctx := context.Background()
	doc, err := e.Parse(ctx, Input{DOI: "10.3847/1538-4357/ad1234"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Engine != "iop-html" || doc.Source != srv.URL+"/article/10.3847/1538-4357/ad1234" || paths[0] != "/article/10.3847/1538-4357/ad1234" {
		t.Errorf("engine %q source %q paths %v", doc.Engine, doc.Source, paths)
	}
	for _, in := range []Input{{}, {DOI: "10.1051/0004-6361/201833051"}, {ArxivID: "2401.01234"}} {
		if _, err := e.Parse(ctx, in, nil); !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%+v: %v, want ErrNotApplicable", in, err)
		}
	}
	if _, err := e.Parse(ctx, Input{DOI: "10.1088/0004-637X/abstractonly"}, nil); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("abstract-only page: %v, want ErrNotApplicable", err)
	}
	e.Limits = Limits{MaxFileBytes: 100, Timeout: time.Second}
	if _, err := e.Parse(ctx, Input{DOI: "10.3847/1538-4357/ad1234"}, nil); err == nil {
		t.Error("a page over the size limit was parsed")
	}
}

// FuzzIOPHTML: arbitrary pages never panic and the output stays bounded.
func FuzzIOPHTML(f *testing.F) {
	page := readTestdata(f, "testdata/iop_apj_ad1234.html")
	f.Add(string(page))
	f.Add(`<meta name="citation_reference" content="citation_author=A;citation_year=2020"><div class="wd-jnl-art-full-text"><p>A 2020 [1] <script type="math/tex">$</script></p><div class="boxout"><table><tr><td colspan="99999">x</td></tr></table></div></div>`)
	f.Fuzz(func(t *testing.T, in string) {
		md, err := IOPHTMLToMarkdown([]byte(in))
		if err == nil && len(md) > 8*len(in)+64 {
			t.Fatalf("%d bytes of Markdown from %d bytes of HTML", len(md), len(in))
		}
	})
}
