package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestBookmarkletFlow(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	settings := admin.get("/settings")
	if !strings.Contains(settings.body, `data-testid="bookmarklet"`) || !strings.Contains(settings.body, "javascript:(function(){window.open(") ||
		!strings.Contains(settings.body, a.http.URL+"/import?url=") {
		t.Fatalf("bookmarklet link missing:\n%s", settings.body)
	}
	page := "https://arxiv.org/abs/2401.01234v2"
	// The new tab arrives without the Strict cookie: the page bounces once.
	anon := a.client()
	res := anon.get("/import?url=" + url.QueryEscape(page))
	expectStatus(t, "bounce", res, http.StatusOK)
	if !strings.Contains(res.body, `http-equiv="refresh"`) || !strings.Contains(res.body, "bounced=1") {
		t.Fatalf("no same-origin bounce:\n%s", res.body)
	}
	// Still signed out after the bounce: sign in first, then come back.
	res = anon.get("/import?url=" + url.QueryEscape(page) + "&bounced=1")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login?next=%2Fimport%3Furl%3D") {
		t.Fatalf("signed out: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	// Signed in: confirm, then a same-origin POST imports.
	res = admin.get("/import?url=" + url.QueryEscape(page) + "&bounced=1")
	expectStatus(t, "confirm", res, http.StatusOK)
	if !strings.Contains(res.body, "arXiv 2401.01234v2") {
		t.Fatalf("confirm page:\n%s", res.body)
	}
	res = admin.postForm("/import", url.Values{"ref": {page}})
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/library/") {
		t.Fatalf("import: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	unknown := admin.get("/import?url=" + url.QueryEscape("https://example.com/blog"))
	if !strings.Contains(unknown.body, `data-testid="import-unknown"`) || strings.Contains(unknown.body, "Add to my library") {
		t.Fatal("an unknown page must say so and offer no import")
	}
	expectStatus(t, "no url", admin.get("/import"), http.StatusBadRequest)
	expectStatus(t, "cross-site POST", admin.postForm("/import", url.Values{"ref": {page}}, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)

	// The token API, from another origin, without cookies.
	secret := createToken(t, admin, "bookmarklet")
	res = a.client().postJSON("/api/bookmarklet/import", `{"url":"https://arxiv.org/pdf/2401.01234"}`,
		"Origin", "https://arxiv.org", "Sec-Fetch-Site", "cross-site", "Authorization", "Bearer "+secret)
	expectStatus(t, "token import", res, http.StatusOK) // already imported above: idempotent
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatal("bookmarklet API must be readable from any origin")
	}
	expectAPIError(t, "unknown page via API", a.client().postJSON("/api/bookmarklet/import", `{"url":"https://example.com/x"}`,
		"Authorization", "Bearer "+secret), http.StatusBadRequest, "invalid_ref")
	expectAPIError(t, "no token", admin.postJSON("/api/bookmarklet/import", `{"url":"https://arxiv.org/abs/2401.01234"}`), http.StatusUnauthorized, "unauthenticated")
}
