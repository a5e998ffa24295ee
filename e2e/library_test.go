package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fakeArxiv serves the arxiv package's fixtures: the search feed for
// queries, the id_list feed for lookups, and a small PDF under /pdf/.
func fakeArxiv(t *testing.T) *httptest.Server {
	t.Helper()
	search, err := os.ReadFile("../research/arxiv/testdata/search_astroph.xml")
	if err != nil {
		t.Fatal(err)
	}
	idlist, err := os.ReadFile("../research/arxiv/testdata/idlist.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/pdf/"):
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"))
		case r.URL.Query().Get("id_list") != "":
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write(idlist)
		default:
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write(search)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserLibrary: search ADS and arXiv → add → detail → download the
// PDF → BibTeX, in a real browser against the binary and local fakes.
func TestBrowserLibrary(t *testing.T) {
	ax := fakeArxiv(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_PDF_URL": ax.URL + "/pdf"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`nav[aria-label="Main"] a[href$="/library"]`)))
	expectPage(t, ctx, a.BasePath+"/library", "Library")
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="search-sources"]`)))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#paper-q`), "dwarf galaxies"))
	navigateBy(t, ctx, chromedp.Submit(chromedp.CSS(`#paper-q`)))
	waitUntil(t, ctx, "search results", `!!document.querySelector('[data-testid="paper-hits"] li')`)

	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`form input[value="2401.01234"] + button`)))
	p := readPage(t, ctx)
	if !strings.HasPrefix(p.Path, a.BasePath+"/library/") {
		t.Fatalf("after adding: on %s", p.Path)
	}
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="download-form"] button`)))
	waitUntil(t, ctx, "the PDF to be downloaded", `!!document.querySelector('[data-testid="pdf-link"]')`)

	bib, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`fetch(document.querySelector('[data-testid="paper-bibtex"]').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(bib, "eprint        = {2401.01234}") {
		t.Fatalf("BibTeX: %v\n%s", err, bib)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
