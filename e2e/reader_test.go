package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fakeArxivHTML is arXiv with an HTML rendering: the id_list feed for the
// lookup and a LaTeXML page (the parse package's fixture) under /html/.
func fakeArxivHTML(t *testing.T) *httptest.Server {
	t.Helper()
	idlist, err := os.ReadFile("../research/arxiv/testdata/idlist.xml")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../research/parse/testdata/arxiv_2401.01234.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/html/"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		case r.URL.Query().Get("id_list") != "":
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write(idlist)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserReader: import a paper → parse it → open the reader (math
// rendered, contents) → select a sentence and highlight it → after a
// reload the highlight is still marked in the text and listed.
func TestBrowserReader(t *testing.T) {
	ax := fakeArxivHTML(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_HTML_URL": ax.URL + "/html", "AR5IV_URL": ax.URL + "/ar5iv"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	do(t, ctx, chromedp.Navigate(a.URL+"/library"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`), "2401.01234"))
	navigateBy(t, ctx, chromedp.Submit(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`)))
	if p := readPage(t, ctx); !strings.HasPrefix(p.Path, a.BasePath+"/library/") {
		t.Fatalf("after importing: on %s", p.Path)
	}
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="parse-form"] button`)))
	waitUntil(t, ctx, "the paper to be parsed", `!!document.querySelector('[data-testid="read-link"]')`)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="read-link"]`)))
	if p := readPage(t, ctx); !strings.HasSuffix(p.Path, "/read") || !strings.HasPrefix(p.H1, "Cold gas") {
		t.Fatalf("reader: %+v", p)
	}
	waitUntil(t, ctx, "KaTeX to render the math", `document.querySelectorAll('#reader-text .katex').length >= 3`)
	if toc, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="reader-toc"] a').length`)); err != nil || toc < 4 {
		t.Fatalf("table of contents has %d entries (%v)", toc, err)
	}

	// Select the first words of the introduction and highlight them.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const p = [...document.querySelectorAll('#reader-text p')].find(p => p.textContent.startsWith('Dust shapes'));
		const t = [...p.childNodes].find(n => n.nodeType === 3 && n.data.includes('Dust shapes'));
		const r = document.createRange();
		r.setStart(t, 0); r.setEnd(t, 'Dust shapes what we see'.length);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		p.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, ctx, "the highlight button", `!document.getElementById('selection-actions').hidden`)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="highlight-button"]`)))
	check := `(() => { const m = document.querySelector('#reader-text mark.highlight'); return !!m && m.textContent === 'Dust shapes what we see' && document.querySelectorAll('[data-testid="note"]').length === 1 })()`
	waitUntil(t, ctx, "the highlight after saving", check)
	navigateBy(t, ctx, chromedp.Navigate(a.URL+strings.TrimPrefix(readPage(t, ctx).Path, a.BasePath)))
	waitUntil(t, ctx, "the highlight after a reload", check)
	checkA11y(t, ctx, "reader")
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
