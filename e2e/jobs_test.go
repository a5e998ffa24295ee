package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDownloadJobs (W7 item 5): a failed download says what
// happened in one sentence with the technical detail folded away and no
// internal address; a retried download ends with the PDF and no banner
// left saying it is downloading; "Parse for reading" appears only once
// there is something to parse; the Jobs page lists both jobs.
func TestBrowserDownloadJobs(t *testing.T) {
	ax := fakeArxiv(t)
	var failPDF atomic.Bool
	failPDF.Store(true)
	pdf := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failPDF.Load() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"))
	}))
	t.Cleanup(pdf.Close)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_PDF_URL": pdf.URL + "/pdf",
		// No HTML version: only a stored PDF can be parsed.
		"ARXIV_HTML_URL": pdf.URL + "/html", "AR5IV_URL": pdf.URL + "/ar5iv"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	do(t, ctx, chromedp.Navigate(a.URL+"/library/search?q=dwarf+galaxies"))
	waitUntil(t, ctx, "search results", `!!document.querySelector('[data-testid="paper-hits"] li')`)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`form input[value="2401.01234"] + button`)))

	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="download-form"] button`)))
	waitUntil(t, ctx, "the download to fail", `!!document.querySelector('[data-testid="download-error"]')`)
	failure := text(t, ctx, `[data-testid="download-error"]`)
	if strings.Count(failure, ".")+strings.Count(failure, ";") > 2 || !strings.Contains(failure, "No source") {
		t.Errorf("failure summary %q: want one sentence saying no source had the PDF", failure)
	}
	open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="download-error-detail"]').open`))
	if err != nil || open {
		t.Errorf("technical detail shown unfolded (%v)", err)
	}
	if body := text(t, ctx, "main"); strings.Contains(body, "127.0.0.1") || strings.Contains(body, "Downloading the PDF") {
		t.Errorf("page shows an internal address or a stale banner:\n%s", body)
	}

	failPDF.Store(false)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="download-form"] button`)))
	waitUntil(t, ctx, "the PDF to be downloaded", `!!document.querySelector('[data-testid="pdf-link"]')`)
	if body := text(t, ctx, "main"); strings.Contains(body, "Downloading the PDF") || strings.Contains(body, "downloading…") {
		t.Errorf("a banner still says the PDF is downloading:\n%s", body)
	}
	// The PDF makes the paper parseable; before it, the page asked for it.
	do(t, ctx, chromedp.Reload())
	waitUntil(t, ctx, "the parse button", `!!document.querySelector('[data-testid="parse-form"]')`)

	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`nav[aria-label="Main"] a[href$="/jobs"]`)))
	expectPage(t, ctx, a.BasePath+"/jobs", "Jobs")
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('[data-testid="job"]')].map(li => li.dataset.status)`))
	if err != nil || strings.Join(statuses, ",") != "done,failed" {
		t.Fatalf("jobs %v (%v), want the finished download above the failed one", statuses, err)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}

// text is the visible text of the first element matching sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+"`"+sel+"`"+`).innerText`))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}
