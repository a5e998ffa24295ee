package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserBookmarklet follows the bookmarklet's path from a page on a
// second origin: a cross-site navigation to /import (which arrives without
// the SameSite=Strict cookie), the same-origin bounce that brings the
// cookie, the confirmation, and the import.
func TestBrowserBookmarklet(t *testing.T) {
	ax := fakeArxiv(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_PDF_URL": ax.URL + "/pdf"})
	paper := "https://arxiv.org/abs/2401.01234v2"
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// What the bookmarklet opens, as a plain link on another origin.
		fmt.Fprintf(w, `<!doctype html><title>arXiv abstract</title><a id="go" href="%s/import?url=%s">save</a>`,
			a.URL, url.QueryEscape(paper))
	}))
	defer other.Close()

	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	do(t, ctx, chromedp.Navigate(other.URL))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#go`)))
	waitUntil(t, ctx, "the confirmation page after the bounce", `!!document.querySelector('[data-testid="import-recognised"]')`)
	if text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="import-recognised"]').textContent`)); !strings.Contains(text, "2401.01234v2") {
		t.Fatalf("recognised %q", text)
	}
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)))
	p := readPage(t, ctx)
	if !strings.HasPrefix(p.Path, a.BasePath+"/library/") {
		t.Fatalf("after importing: on %s (%q)", p.Path, p.H1)
	}
}
