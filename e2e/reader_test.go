package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fakeArxivHTML is arXiv with an HTML rendering: the id_list feed for the
// lookup and a LaTeXML page (the parse package's fixture) under /html/.
func fakeArxivHTML(t *testing.T) *httptest.Server { return fakeArxivHTMLRevised(t, nil) }

// fakeArxivHTMLRevised is fakeArxivHTML whose page, from the second HTML
// request on, is revise(page) — a new version of the paper.
func fakeArxivHTMLRevised(t *testing.T, revise func([]byte) []byte) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	served := 0
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
			mu.Lock()
			served++
			body := page
			if served > 1 && revise != nil {
				body = revise(page)
			}
			mu.Unlock()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(body)
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
// reload the highlight is still marked in the text and listed → after the
// paper is parsed again from a revised version (text added before the
// quote), the highlight is found again by its quote and context.
func TestBrowserReader(t *testing.T) {
	ax := fakeArxivHTMLRevised(t, func(page []byte) []byte {
		return bytes.Replace(page, []byte(`<div class="ltx_para" id="S1.p1">`),
			[]byte(`<div class="ltx_para" id="S1.p0"><p class="ltx_p">A new opening paragraph of the revised version. Dust shapes what we see, it is said.</p></div><div class="ltx_para" id="S1.p1">`), 1)
	})
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
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="highlight-button"]`)))
	check := `(() => { const m = document.querySelector('#reader-text mark.highlight'); return !!m && m.textContent === 'Dust shapes what we see' && document.querySelectorAll('[data-testid="note"]').length === 1 })()`
	waitUntil(t, ctx, "the highlight after saving", check)
	navigateBy(t, ctx, chromedp.Navigate(a.URL+strings.TrimPrefix(readPage(t, ctx).Path, a.BasePath)))
	waitUntil(t, ctx, "the highlight after a reload", check)
	checkA11y(t, ctx, "reader")

	// Parse again: the revised version has a new paragraph before the
	// quote and another "Dust shapes what we see" (without the context).
	readerPath := readPage(t, ctx).Path
	navigateBy(t, ctx, chromedp.Navigate(a.URL+strings.TrimPrefix(strings.TrimSuffix(readerPath, "/read"), a.BasePath)))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="parse-form"] button`)))
	contentURL := a.URL + "/api/papers/" + strings.TrimPrefix(strings.TrimSuffix(readerPath, "/read"), a.BasePath+"/library/") + "/content"
	for deadline := time.Now().Add(15 * time.Second); ; {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch(`+"`"+contentURL+"`"+`).then(r => r.json()).then(j => (j.markdown || "").includes("A new opening paragraph"))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the paper was not parsed again")
		}
		time.Sleep(100 * time.Millisecond)
	}
	navigateBy(t, ctx, chromedp.Navigate(a.URL+strings.TrimPrefix(readerPath, a.BasePath)))
	waitUntil(t, ctx, "the highlight re-anchored after a re-parse", `(() => {
		const ms = document.querySelectorAll('#reader-text mark.highlight');
		return ms.length === 1 && ms[0].textContent === 'Dust shapes what we see' && ms[0].closest('p').textContent.startsWith('Dust shapes what we see of early galaxies') })()`)
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
