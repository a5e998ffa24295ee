package parse

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/store"
)

// testdata/aanda_aa46770-23.html is an A&A full-text page. A&A publishes no
// description of its markup, so the engine reads structure, not class
// names, and the fixture holds what public sources show of the site:
//   - the URL scheme /articles/aa/{abs,full_html,pdf,ref}/2023/07/
//     aa46770-23/aa46770-23.html, and www.aanda.org/{DOI} as a link to a
//     paper (links and scrapers in public code);
//   - the abstract under a heading holding <a name="abs"> (an open-source
//     EDP Sciences page parser reads it as a_name_abs.parent, then the
//     following <p>), authors in .article-authors spans, citation_author
//     and citation_publisher "EDP Sciences" meta tags;
//   - fragment anchors #T3 (tables) and #FD14 (equations) cited in public
//     code comments, and DEXTER links on article pages (ADS's Dexter help);
//   - the reference list as printed on an A&A /ref/ page: "Aguado, D. S.,
//     Belokurov, V., … 2021, ApJ, 908, L8 [NASA ADS] [CrossRef] [EDP
//     Sciences] [Google Scholar]", also reachable on its own page.
//
// The math forms (TeX in \(…\) and \[…\], MathML with alttext, <script
// type="math/tex">, TeX in an equation image's alt) are those MathJax pages
// carry; the engine reads any of them.
func TestAandAGolden(t *testing.T) {
	md, err := AandAHTMLToMarkdown(readTestdata(t, "testdata/aanda_aa46770-23.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "aanda_aa46770-23.md", md)
	for _, must := range []string{
		"# Radio galaxies in the LOFAR deep fields\n\n*A. Astronomer, B. Observer*\n\n## Abstract\n\n*Context.* Radio galaxies",
		`with $M_\bullet \gt 10^{8}\,M_\odot$.`,
		"**Key words:** galaxies: active / radio continuum: galaxies",
		"## 1 Introduction\n", "## 2 Data\n", "### 2.1 Classification\n",
		"low frequencies ([Smith & Jones 2020](#ref-2)), and their spectral index $\\alpha$ is steep. [Lee (2021)](#ref-1) classified them before.<sup>1</sup>",
		"$$S_\\nu \\propto \\nu^{\\alpha}\\tag{1}$$",
		"$$L_{150}=4\\pi D_{L}^{2}S_{150}\\tag{2}$$",
		"above $10^{24}$ W Hz<sup>−1</sup> are kept.",
		"The sources are listed at the [CDS](<https://cdsarc.cds.unistra.fr/>).",
		"- first, its morphology is measured;\n- then the classifier votes.",
		"**Fig. 1.** Luminosity function of the sample at *z* \\< 0.5.",
		"**Table 1.** The sample.",
		"| Field | Sources |\n| --- | --- |\n| Lockman Hole | 1200 |\n| Boötes | 1800 |",
		"Notes. Counts above 5σ.",
		"## Acknowledgements\n\nWe thank the referee.\n\n## References\n\n1. ",
		"1. <span id=\"ref-1\"></span>Lee, C. 2021, AJ, 161, 12 [doi:10.3847/1538-3881/abc999](<https://doi.org/10.3847/1538-3881/abc999>)",
		"2. <span id=\"ref-2\"></span>Smith, A., & Jones, B. 2020, A&A, 640, A1 [doi:10.1051/0004-6361/202037001]",
		"## Appendix A: Catalogue columns\n\nColumn 1 is the source name.\n\n### A.1 Flags\n\nFlag 1 marks blended sources.",
		"## Footnotes\n\n- Data at [example.org](<https://example.org/data>).",
	} {
		if !strings.Contains(md, must) {
			t.Errorf("missing %q in\n%s", must, md)
		}
	}
	for _, never := range []string{"DEXTER", "In the text", "NASA ADS", "CrossRef", "Google Scholar", "EDP Sciences",
		"Cookie", "Login", "Related Articles", "usage metrics", "tracker", "Published online", "Observatory, Somewhere",
		"Received:", "thumbnail", "Full HTML"} {
		if strings.Contains(md, never) {
			t.Errorf("page chrome %q leaked into the text:\n%s", never, md)
		}
	}
}

// TestAandAHTMLVariants: the reference list from the /ref/ page when the
// full text has none, and a page with the abstract only.
func TestAandAHTMLVariants(t *testing.T) {
	page := `<html><head><meta name="citation_title" content="T"></head><body>
<h2><a name="abs"></a>Abstract</h2><p>Short.</p>
<h2>1 Introduction</h2><p>As <a href="#R1">Doe 2019</a> showed.</p><p>More text.</p></body></html>`
	ref := `<html><body><p>Open Access</p><ol><li><a name="R1"></a>Doe, J. 2019, MNRAS, 1, 2 <a href="https://doi.org/10.1093/mnras/x1">CrossRef</a></li></ol></body></html>`
	md, err := AandAHTMLToMarkdown([]byte(page), []byte(ref))
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"As [Doe 2019](#ref-1) showed.", "## References\n\n1. <span id=\"ref-1\"></span>Doe, J. 2019, MNRAS, 1, 2 [doi:10.1093/mnras/x1]"} {
		if !strings.Contains(md, must) {
			t.Errorf("missing %q in\n%s", must, md)
		}
	}
	if md, err := AandAHTMLToMarkdown([]byte(page), nil); err != nil || !strings.Contains(md, "As Doe 2019 showed.") || strings.Contains(md, "## References") {
		t.Errorf("without a reference list: %v\n%s", err, md)
	}
	abstractOnly := `<html><body><h2><a name="abs"></a>Abstract</h2><p>Only the abstract.</p><p>Buy the article.</p></body></html>`
	if _, err := AandAHTMLToMarkdown([]byte(abstractOnly), nil); !errors.Is(err, ErrNoFullText) {
		t.Errorf("abstract-only page: %v, want ErrNoFullText", err)
	}
	if _, err := AandAHTMLToMarkdown([]byte(`<html><body><p>Nothing here.</p></body></html>`), nil); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("no article: %v, want ErrNotApplicable", err)
	}
}

const aandaAbstractPage = `<html><body><h2><a name="abs"></a>Abstract</h2><p>Only the abstract.</p></body></html>`

// aandaSite fakes www.aanda.org: /{DOI} redirects to the abstract page;
// full_html, ref and abs pages answer from pages; every path is logged.
type aandaSite struct {
	mu    sync.Mutex
	paths []string
	pages map[string]string // path → body
	// elsewhere: another site /10.1051/0004-6361/202300002 redirects to.
	elsewhere string
}

func (s *aandaSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/10.1051/0004-6361/202346770":
		http.Redirect(w, r, "/articles/aa/abs/2023/07/aa46770-23/aa46770-23.html", http.StatusFound)
	case r.URL.Path == "/10.1051/0004-6361/202399999":
		http.Error(w, "blocked", http.StatusForbidden)
	case r.URL.Path == "/10.1051/0004-6361/202300001":
		http.Redirect(w, r, "/about-aa", http.StatusFound)
	case r.URL.Path == "/10.1051/0004-6361/202300004": // straight to a full_html page that holds only the abstract
		http.Redirect(w, r, "/articles/aa/full_html/2023/07/aa00004-23/aa00004-23.html", http.StatusFound)
	case r.URL.Path == "/10.1051/0004-6361/202300003":
		http.Redirect(w, r, "/articles/aa/abs/2023/07/aa00003-23/aa00003-23.html", http.StatusFound)
	case r.URL.Path == "/articles/aa/full_html/2023/07/aa00003-23/aa00003-23.html": // no full text: back to the abstract
		http.Redirect(w, r, "/articles/aa/abs/2023/07/aa00003-23/aa00003-23.html", http.StatusFound)
	case r.URL.Path == "/10.1051/0004-6361/202300002" && s.elsewhere != "":
		http.Redirect(w, r, s.elsewhere+"/articles/aa/abs/2023/07/aa46770-23/aa46770-23.html", http.StatusFound)
	default:
		body, ok := s.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}
}

// TestAandAHTMLEngine: an A&A DOI resolves at AANDA_URL/{DOI} to the
// abstract page, whose full_html twin is read; refusals and pages that are
// not articles are errors the service records before the PDF engines run;
// other DOIs are not applicable.
func TestAandAHTMLEngine(t *testing.T) {
	full := "/articles/aa/full_html/2023/07/aa46770-23/aa46770-23.html"
	site := &aandaSite{pages: map[string]string{
		full:        string(readTestdata(t, "testdata/aanda_aa46770-23.html")),
		"/about-aa": "<html><body><p>About</p></body></html>",
		"/articles/aa/abs/2023/07/aa46770-23/aa46770-23.html": aandaAbstractPage,
	}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	e := &AandAHTMLEngine{Web: fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf}), URL: srv.URL}
	ctx := context.Background()
	var steps []string
	doc, err := e.Parse(ctx, Input{DOI: "10.1051/0004-6361/202346770"}, func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	if doc.Engine != "aanda-html" || doc.Source != srv.URL+full || !strings.Contains(doc.Markdown, "## 2 Data") {
		t.Errorf("engine %q source %q\n%s", doc.Engine, doc.Source, doc.Markdown)
	}
	if got := strings.Join(site.paths, " "); got != "/10.1051/0004-6361/202346770 /articles/aa/abs/2023/07/aa46770-23/aa46770-23.html "+full {
		t.Errorf("requests: %s", got)
	}
	if len(steps) != 2 {
		t.Errorf("progress %q", steps)
	}
	for _, c := range []struct{ doi, want string }{
		{"10.1051/0004-6361/202399999", "HTTP 403"},
		{"10.1051/0004-6361/202300001", "not an A&A article page"},
	} {
		if _, err := e.Parse(ctx, Input{DOI: c.doi}, nil); err == nil || errors.Is(err, ErrNotApplicable) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.doi, err, c.want)
		}
	}
	site.pages["/articles/aa/abs/2023/07/aa00003-23/aa00003-23.html"] = aandaAbstractPage
	if _, err := e.Parse(ctx, Input{DOI: "10.1051/0004-6361/202300003"}, nil); !errors.Is(err, ErrNoFullText) {
		t.Errorf("full text redirected to the abstract: %v, want ErrNoFullText", err)
	}

	site.pages["/articles/aa/full_html/2023/07/aa00004-23/aa00004-23.html"] = aandaAbstractPage
	site.paths = nil
	if _, err := e.Parse(ctx, Input{DOI: "10.1051/0004-6361/202300004"}, nil); !errors.Is(err, ErrNoFullText) {
		t.Errorf("abstract-only full_html page: %v, want ErrNoFullText", err)
	}
	if got := strings.Join(site.paths, " "); strings.Contains(got, "/ref/") {
		t.Errorf("the reference page was fetched for an abstract page: %s", got)
	}

	// A DOI that leads to another site: the full text still comes from
	// AANDA_URL's.
	other := &aandaSite{pages: map[string]string{"/articles/aa/abs/2023/07/aa46770-23/aa46770-23.html": aandaAbstractPage}}
	otherSrv := httptest.NewServer(other)
	defer otherSrv.Close()
	site.elsewhere = otherSrv.URL
	e.Web = fetch.New(fetch.Options{Allow: []string{srv.URL, otherSrv.URL}, DefaultRate: rate.Inf})
	site.paths = nil
	if doc, err := e.Parse(ctx, Input{DOI: "10.1051/0004-6361/202300002"}, nil); err != nil || doc.Source != srv.URL+full {
		t.Errorf("source %q, %v", doc.Source, err)
	}
	if got := strings.Join(site.paths, " "); got != "/10.1051/0004-6361/202300002 "+full || len(other.paths) != 1 {
		t.Errorf("requests here: %s; elsewhere: %v", got, other.paths)
	}

	for _, in := range []Input{{}, {DOI: "10.3847/1538-4357/ad1234"}, {DOI: "10.1051/epjconf/2020"}, {ArxivID: "2401.01234"},
		{DOI: "10.1051/0004-6361/../../admin"}, {DOI: "10.1051/0004-6361//x"}} {
		if _, err := e.Parse(ctx, in, nil); !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%+v: %v, want ErrNotApplicable", in, err)
		}
	}
	e.Limits = Limits{MaxFileBytes: 100, Timeout: time.Second}
	if _, err := e.Parse(ctx, Input{DOI: "10.1051/0004-6361/202346770"}, nil); err == nil {
		t.Error("a page over the size limit was parsed")
	}
}

// TestAandAHTMLEngineRefPage: a full-text page without references gets
// them from the article's /ref/ page.
func TestAandAHTMLEngineRefPage(t *testing.T) {
	dir := "/articles/aa/%s/2023/07/aa46770-23/aa46770-23.html"
	site := &aandaSite{pages: map[string]string{
		strings.Replace(dir, "%s", "full_html", 1): `<html><body><h2><a name="abs"></a>Abstract</h2><p>A.</p><h2>1 Introduction</h2><p>As <a href="#R1">Doe 2019</a> showed.</p></body></html>`,
		strings.Replace(dir, "%s", "ref", 1):       `<html><body><ul><li><a name="R1"></a>Doe, J. 2019, MNRAS, 1, 2</li></ul></body></html>`,
		strings.Replace(dir, "%s", "abs", 1):       aandaAbstractPage,
	}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	e := &AandAHTMLEngine{Web: fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf}), URL: srv.URL}
	doc, err := e.Parse(context.Background(), Input{DOI: "10.1051/0004-6361/202346770"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Markdown, "As [Doe 2019](#ref-1) showed.") || !strings.Contains(doc.Markdown, "1. <span id=\"ref-1\"></span>Doe, J. 2019, MNRAS, 1, 2") {
		t.Errorf("references from the ref page missing:\n%s", doc.Markdown)
	}
}

// FuzzAandAHTML: arbitrary pages never panic and the output stays bounded.
func FuzzAandAHTML(f *testing.F) {
	f.Add(string(readTestdata(f, "testdata/aanda_aa46770-23.html")), "")
	f.Add(`<h2><a name="abs">Abstract</a></h2><p>\( x \[ y \) $$ z</p><h2>1 A</h2><table><tr><td colspan="99999">$$a$$</td><td>(1)</td></tr></table><h2>References</h2><ul><li id="R1">A 2020</li></ul><h3>x</h3>`, `<ol><li>`)
	f.Fuzz(func(t *testing.T, page, ref string) {
		md, err := AandAHTMLToMarkdown([]byte(page), []byte(ref))
		if err == nil && len(md) > 8*(len(page)+len(ref))+64 {
			t.Fatalf("%d bytes of Markdown from %d bytes of HTML", len(md), len(page)+len(ref))
		}
	})
}

// TestServiceAandAPaper: a library paper with an A&A DOI and no arXiv id
// or PDF is read from its A&A full-text page, after the IOP engine passed
// on it, and the engine is recorded.
func TestServiceAandAPaper(t *testing.T) {
	ctx := context.Background()
	st, dir := newTestStore(t)
	full := "/articles/aa/full_html/2023/07/aa46770-23/aa46770-23.html"
	srv := httptest.NewServer(&aandaSite{pages: map[string]string{
		full: string(readTestdata(t, "testdata/aanda_aa46770-23.html")),
		"/articles/aa/abs/2023/07/aa46770-23/aa46770-23.html": aandaAbstractPage,
	}})
	defer srv.Close()
	doi := "10.1051/0004-6361/202346770"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Radio galaxies", DOI: &doi})
	if err != nil {
		t.Fatal(err)
	}
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf})
	svc := NewService(st, dir, &ArxivHTMLEngine{Web: web, HTMLURL: srv.URL + "/html"}, &IOPHTMLEngine{Web: web, URL: srv.URL},
		&AandAHTMLEngine{Web: web, URL: srv.URL}, &PDFEngine{})
	c, err := svc.Parse(ctx, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Engine != "aanda-html" || c.Source != srv.URL+full {
		t.Errorf("engine %q source %q", c.Engine, c.Source)
	}
	if md, engine, err := svc.Markdown(ctx, p.ID); err != nil || engine != "aanda-html" || !strings.Contains(md, "### 2.1 Classification") {
		t.Errorf("Markdown: %q, %v\n%s", engine, err, md)
	}
}

// TestAandAHostilePages: pages built to mislead the converter.
func TestAandAHostilePages(t *testing.T) {
	fixture := string(readTestdata(t, "testdata/aanda_aa46770-23.html"))
	cut := func(from, to string) string { // the fixture without [from, to)
		i, j := strings.Index(fixture, from), strings.Index(fixture, to)
		if i < 0 || j < i {
			t.Fatalf("fixture lacks %q … %q", from, to)
		}
		return fixture[:i] + fixture[j:]
	}
	t.Run("abstract page with chrome headings", func(t *testing.T) {
		page := cut(`<div class="sec">`, `</div>
</div>
<aside`)
		if md, err := AandAHTMLToMarkdown([]byte(page), nil); !errors.Is(err, ErrNoFullText) {
			t.Errorf("err %v, want ErrNoFullText; got\n%s", err, md)
		}
	})
	t.Run("no References heading: the ref page's list, no chrome", func(t *testing.T) {
		page := cut(`<h2><a name="BIBL"></a>References</h2>`, `<h2>Appendix A`)
		ref := `<html><body><nav><ul><li>Home</li><li>Issues</li><li>Authors</li><li>About</li></ul></nav><ul><li><a name="R2"></a>Smith, A., &amp; Jones, B. 2020, A&amp;A, 640, A1</li></ul></body></html>`
		md, err := AandAHTMLToMarkdown([]byte(page), []byte(ref))
		if err != nil {
			t.Fatal(err)
		}
		for _, never := range []string{"usage metrics", "Login", "Home"} {
			if strings.Contains(md, never) {
				t.Errorf("%q leaked:\n%s", never, md)
			}
		}
		if !strings.Contains(md, "([Smith & Jones 2020](#ref-1))") || !strings.Contains(md, "## References\n\n1. <span id=\"ref-1\"></span>Smith, A., & Jones, B. 2020") {
			t.Errorf("references from the ref page:\n%s", md)
		}
	})
	t.Run("references as paragraphs: the footnotes are not the list", func(t *testing.T) {
		page := strings.Replace(fixture, `<ul>
    <li><a name="R1"></a>`, `<div><p><a name="R1"></a>`, 1)
		if aandaReferenceList(mustParse(t, page)) != nil {
			t.Error("a list after the next heading was taken for the references")
		}
	})
	t.Run("hidden, injected DOI, list item markup, false citations", func(t *testing.T) {
		page := `<h2><a name="abs"></a>Abstract</h2><p>A.</p><h2>1 Intro</h2>
<div hidden><p>SECRET hidden chrome</p></div>
<p>The 2019 campaign, In 2019 and Lee 2021 [x].</p><ul><li># not a heading</li><li>~~~ not code</li></ul>
<h2>References</h2><ul><li>The EHT Collaboration, 2019, ApJL, 875, L1</li><li>In prep. 2019</li>
<li>Lee, C. 2021 <a href="https://doi.org/10.1234/x%0A%23%20Injected">CrossRef</a></li></ul>`
		md, err := AandAHTMLToMarkdown([]byte(page), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, never := range []string{"SECRET", "[The 2019", "[In 2019", "Injected", "\n- # ", "\n- ~~~"} {
			if strings.Contains(md, never) {
				t.Errorf("%q in\n%s", never, md)
			}
		}
		for _, must := range []string{"[Lee 2021](#ref-3)", "- \\# not a heading", "- \\~~~ not code", "3. <span id=\"ref-3\"></span>Lee, C. 2021\n"} {
			if !strings.Contains(md, must) {
				t.Errorf("missing %q in\n%s", must, md)
			}
		}
	})
	t.Run("TeX that would read as HTML", func(t *testing.T) {
		page := `<h2><a name="abs"></a>Abstract</h2><p>A.</p><h2>1 Intro</h2><p>We find \(v &lt;a href="https://evil.example/"&gt;\)1 km/s, 3\(\times\)10\(^{5}\) and \(|x|\ \).</p>`
		md, err := AandAHTMLToMarkdown([]byte(page), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := `We find $v \lt a href="https://evil.example/"\gt$1 km/s, 3$\times$10$^{5}$ and $|x|\,$.`; !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	})
}

func mustParse(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// BenchmarkAandAHostile times pages whose cost grew with the square of
// their size before (captions far from any float, unclosed math
// delimiters, many citations in one text node).
func BenchmarkAandAHostile(b *testing.B) {
	head := `<h2><a name="abs"></a>Abstract</h2><p>A.</p><h2>1 Intro</h2>`
	pages := map[string]string{
		"captions 240KB":    head + strings.Repeat("Fig. 1 x<p></p>", 240<<10/15),
		"math 800KB":        head + "<p>" + strings.Repeat("$$a$$", 800<<10/5) + `\(</p>`,
		"citations 1.7MB":   head + "<p>" + strings.Repeat("Lee 2021 [1] ", 1700<<10/13) + "</p><h2>References</h2><ul><li>Lee, C. 2021</li></ul>",
		"fixture (6KB)":     "",
		"nested divs 1.2MB": head + strings.Repeat("<div>Fig. 2 text Lee 2021 ", 40000),
	}
	for name, page := range pages {
		if page == "" {
			page = string(readTestdata(b, "testdata/aanda_aa46770-23.html"))
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				AandAHTMLToMarkdown([]byte(page), nil)
			}
		})
	}
}

// TestRefKey: entries starting with a capitalised function word give no
// author–year key (so "The 2019 campaign" is not a citation).
func TestRefKey(t *testing.T) {
	for entry, want := range map[string]string{
		"Smith A. B., 2014, The Example Journal, 12, 345": "smith|2014",
		"van der Berg 2020":                          "",
		"The EHT Collaboration, 2019, ApJL, 875, L1": "",
		"In prep. 2019":                              "",
		"Table 2019":                                 "",
		"Ávila, R. 2018b, A&A, 1, 2":                 "ávila|2018b",
	} {
		got, ok := refKey(entry)
		if got != want || ok != (want != "") {
			t.Errorf("refKey(%q) = %q, %v; want %q", entry, got, ok, want)
		}
	}
}

// TestCollapse: the hand-written collapse matches RE2's \s+ → " ".
func TestCollapse(t *testing.T) {
	re := regexp.MustCompile(`\s+`)
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "\t", "\n", "\f", "\r", "\v", "\u00a0", "a", "é", "x"}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if got, want := collapse(b.String()), re.ReplaceAllString(b.String(), " "); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", b.String(), got, want)
		}
	}
}

func TestInlineTeX(t *testing.T) {
	for in, want := range map[string]string{
		` a<b \quad c>d `:                      `a\lt b \quad c\gt d`,
		`|x| + \|y\| \left<x\right>`:           `|x| + \|y\| \left\lt x\right\gt`,
		`\$5 and $`:                            `\$5 and \$`,
		"x\\ ":                                 `x\,`,
		`a\\ b`:                                `a\\ b`,
		"a\n\tb":                               "a b",
		`\begin{array}{c|c} a & b \end{array}`: `\begin{array}{c|c} a & b \end{array}`,
		`\text{a<b, for $x>0$} > \mbox {c>d} e<f`: `\text{a\textless{}b, for \$x\textgreater{}0\$} \gt  \mbox {c\textgreater{}d} e\lt f`,
		`\textbf{x{<}y} < z`:                      `\textbf{x{\textless{}}y} \lt  z`,
	} {
		if got := inlineTeX(in); got != want {
			t.Errorf("inlineTeX(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeCellMath(t *testing.T) {
	for in, want := range map[string]string{
		`a \| b`:             `a \| b`,
		`$|x|$ and $\|y\|$`:  `$\|x\|$ and $\Vert y\Vert $`,
		`$$|x|$$ \$ | $|y|$`: `$$\|x\|$$ \$ | $\|y\|$`,
	} {
		if got := escapeCellMath(in); got != want {
			t.Errorf("escapeCellMath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEscapeStrayDollars: MinerU's formulas stay, its prices do not become
// math in the reader.
func TestEscapeStrayDollars(t *testing.T) {
	for in, want := range map[string]string{
		"grants of US$50,000 and US$20,000": `grants of US\$50,000 and US\$20,000`,
		"from $5-$10, A$1 coin":             `from \$5-\$10, A\$1 coin`,
		`about $\sim$10 Myr and $M_\odot$`:  `about $\sim$10 Myr and $M_\odot$`,
		`$$E=mc^2$$ costs \$3`:              `$$E=mc^2$$ costs \$3`,
		"a $ b $x$ and $y\nz$ $":            "a \\$ b $x$ and \\$y\nz\\$ \\$",
	} {
		if got := escapeStrayDollars(in); got != want {
			t.Errorf("escapeStrayDollars(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAandAArticleBounds: without a References heading only the headings
// after the last section end the article; menus are not reference lists.
func TestAandAArticleBounds(t *testing.T) {
	page := `<nav><h3>References</h3><ul><li>Home</li><li>Menu</li></ul></nav>
<h2><a name="abs"></a>Abstract</h2><p>A.</p><h2>1 Introduction</h2><p>One.</p>
<h2>Observations with JWST</h2><p>Kept.</p><h2>3 Later</h2><p>Also kept.</p><h2>Summary and outlook.</h2><p>Outlook kept.</p>
<h2>Current usage metrics</h2><p>Login.</p><h2>Related articles</h2><p>More.</p>`
	md, err := AandAHTMLToMarkdown([]byte(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"## Observations with JWST\n\nKept.", "## 3 Later\n\nAlso kept.", "## Summary and outlook.\n\nOutlook kept."} {
		if !strings.Contains(md, must) {
			t.Errorf("missing %q in\n%s", must, md)
		}
	}
	for _, never := range []string{"usage metrics", "Login", "Related", "Home"} {
		if strings.Contains(md, never) {
			t.Errorf("%q leaked:\n%s", never, md)
		}
	}
	hiddenHeading := `<h2>References</h2><h3 hidden>x</h3><ul><li>Doe 2019</li></ul>`
	if l := aandaReferenceList(mustParse(t, hiddenHeading)); l == nil {
		t.Error("a hidden heading hid the reference list")
	}
}
