package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fakeSesameAll answers like CDS Sesame asked with ~SNV: the recorded
// multi-resolver answer for NGC 4258, "nothing found" for other names.
func fakeSesameAll(t *testing.T) *httptest.Server {
	t.Helper()
	found, err := os.ReadFile("../research/sesame/testdata/ngc4258_all.xml")
	if err != nil {
		t.Fatal(err)
	}
	missing, err := os.ReadFile("../research/sesame/testdata/notfound.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		if strings.Contains(r.URL.RawQuery, "4258") {
			w.Write(found)
			return
		}
		w.Write(missing)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserObjectsAndMeasurements: a parsed paper reporting a distance
// to NGC 4258 is indexed and its value extracted in the background; the
// measurements page compares it (table, plot, exports) and its sentence
// link opens the reader on the highlighted sentence; the object page shows
// the merged resolution and the library passage naming an alias; an
// unknown object says it was not resolved — all without a console problem.
func TestBrowserObjectsAndMeasurements(t *testing.T) {
	ax := fakeArxivHTMLRevised(t, nil)
	page, err := os.ReadFile("../research/parse/testdata/arxiv_2401.01234.html")
	if err != nil {
		t.Fatal(err)
	}
	page = bytes.Replace(page, []byte(`<div class="ltx_para" id="S1.p1">`),
		[]byte(`<div class="ltx_para" id="S1.p0"><p class="ltx_p">The maser distance to NGC 4258 is 7.576 ± 0.082 Mpc &lt;script&gt;alert(1)&lt;/script&gt;.</p></div><div class="ltx_para" id="S1.p1">`), 1)
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/html/") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(html.Close)
	sesame := fakeSesameAll(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_HTML_URL": html.URL + "/html", "AR5IV_URL": html.URL + "/ar5iv",
		"SESAME_URL": sesame.URL})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	do(t, ctx, chromedp.Navigate(a.URL+"/library"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`), "2401.01234"))
	navigateBy(t, ctx, chromedp.Submit(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`)))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="parse-form"] button`)))
	waitUntil(t, ctx, "the paper to be parsed", `!!document.querySelector('[data-testid="read-link"]')`)

	// The value appears once the paper is indexed and extracted.
	deadline := time.Now().Add(20 * time.Second)
	for {
		navigateBy(t, ctx, chromedp.Navigate(a.URL+"/measurements?quantity=distance&object=NGC+4258"))
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="measurements-table"]')`))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the value was never extracted")
		}
		time.Sleep(300 * time.Millisecond)
	}
	type table struct {
		Row, Plot, CSV string
		Scripts        int
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[table](`({
		row: document.querySelector('[data-testid="measurements-table"] tbody tr').textContent,
		plot: document.querySelector('[data-testid="measurements-plot"] svg title').textContent,
		csv: document.querySelector('[data-testid="export-csv"]').getAttribute('href'),
		scripts: document.querySelectorAll('main script').length})`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Row, "7.576 ± 0.082") || !strings.Contains(got.Row, "Mpc") || !strings.Contains(got.Row, "NGC 4258") ||
		!strings.Contains(got.Plot, "against year") || !strings.Contains(got.CSV, "export.csv") || got.Scripts != 0 {
		t.Fatalf("measurements page: %+v", got)
	}

	// The sentence opens the reader, highlighted.
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="measurements-table"] tbody tr td:last-child a`)))
	waitUntil(t, ctx, "the highlighted sentence", `!!document.querySelector('#reader-text .passage')`)
	mark, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#reader-text .passage').textContent`))
	if err != nil || !strings.Contains(mark, "maser distance to NGC 4258") || strings.Contains(mark, "Dust shapes") {
		t.Fatalf("highlight %q (%v)", mark, err)
	}

	// The object page: merged resolution, the library passage (the paper
	// says "NGC 4258", an alias of the main identifier M 106).
	navigateBy(t, ctx, chromedp.Navigate(a.URL+"/objects/NGC%204258"))
	type object struct {
		Name, Facts, Library, Lit string
	}
	o, err := chromedp.Run(ctx, chromedp.Evaluate[object](`({
		name: document.querySelector('[data-testid="object-name"]').textContent,
		facts: document.querySelector('dl.facts').textContent,
		library: document.querySelector('[data-testid="object-library"]').textContent,
		lit: document.querySelector('[data-testid="object-literature"]').textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Name != "M 106" || !strings.Contains(o.Facts, "184.74008") || !strings.Contains(o.Facts, "SAB(s)bc") ||
		!strings.Contains(o.Library, "maser distance to NGC 4258") || !strings.Contains(o.Lit, "ADS_API_TOKEN") {
		t.Fatalf("object page: %+v", o)
	}
	do(t, ctx, chromedp.Navigate(a.URL+"/objects/Xyzzy%2042")) // a 404 page
	nr, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="object-not-resolved"]').textContent`))
	if err != nil || !strings.Contains(nr, "Xyzzy 42, Xyzzy42") {
		t.Fatalf("unknown object: %q (%v)", nr, err)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
