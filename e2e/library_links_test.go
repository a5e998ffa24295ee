package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/research/ads/adstest"
)

// fakeArxivStrict answers id_list lookups of 2401.01234 with the fixture
// and any other id with an empty feed, as arXiv does.
func fakeArxivStrict(t *testing.T) *httptest.Server {
	t.Helper()
	idlist, err := os.ReadFile("../research/arxiv/testdata/idlist.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/atom+xml")
		if strings.Contains(r.URL.Query().Get("id_list"), "2401.01234") {
			w.Write(idlist)
			return
		}
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>0</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex><opensearch:itemsPerPage>0</opensearch:itemsPerPage></feed>`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserCitationsAndTags: import by bibcode → the paper's references
// and citations load by themselves (htmx) → add a reference with one
// click → it shows as in the library → tags added and removed in place.
func TestBrowserCitationsAndTags(t *testing.T) {
	adsSrv, ax := adstest.NewServer(t, "e2e-token"), fakeArxivStrict(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ADS_API_URL": adsSrv.URL + "/v1", "ADS_API_TOKEN": "e2e-token", "ARXIV_API_URL": ax.URL + "/api/query"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)
	do(t, ctx, chromedp.Navigate(a.URL+"/library"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#import-ref`), "2019ApJ...875L...1E"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="import-form"] button`)))
	paper := readPage(t, ctx)
	if !strings.HasPrefix(paper.Path, a.BasePath+"/library/") || !strings.Contains(paper.H1, "First M87 Event Horizon Telescope Results") {
		t.Fatalf("after the import: %+v", paper)
	}

	// The block loads itself from ADS.
	waitUntil(t, ctx, "the references", `!!document.querySelector('[data-testid="links-references"] [data-testid="link-row"]')`)
	summary, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="links-references"] summary').textContent`))
	if err != nil || summary != "References (3)" {
		t.Fatalf("references summary %q %v", summary, err)
	}
	// One click adds a reference and comes back to this paper.
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Add to library: Cold gas in ultra-faint dwarf galaxies"]`)))
	back := readPage(t, ctx)
	if back.Path != paper.Path {
		t.Fatalf("after adding a reference: on %s, want %s", back.Path, paper.Path)
	}
	waitUntil(t, ctx, "the added reference marked", `document.querySelectorAll('[data-testid="in-library"]').length === 1`)

	// Tags, in place.
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#add-tags`), "EHT, black holes"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="add-tags-form"] button`)))
	waitUntil(t, ctx, "two tags", `document.querySelectorAll('[data-testid="tag"]').length === 2`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Remove the tag EHT"]`)))
	waitUntil(t, ctx, "one tag left", `document.querySelectorAll('[data-testid="tag"]').length === 1 && document.querySelector('[data-testid="tag"] a').textContent === "black holes"`)
	if p := readPage(t, ctx); p.Path != paper.Path {
		t.Fatalf("the tag edits left the page: %s", p.Path)
	}
	// The list filters by the tag.
	do(t, ctx, chromedp.Navigate(a.URL+"/library?tag=black+holes"))
	waitUntil(t, ctx, "the tagged paper in the list", `document.querySelectorAll('[data-testid="paper-row"]').length === 1`)
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
