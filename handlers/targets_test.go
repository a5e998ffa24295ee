package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/research/sesame"
)

func TestTargetsAPIAndPage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.get("/api/targets/NGC%201275")
	expectStatus(t, "resolve", res, http.StatusOK)
	var o sesame.Object
	res.json(t, &o)
	if o.Name != "NGC 1275" || o.RASex != "03:19:48.16" || o.Redshift == nil || len(o.Aliases) != 2 {
		t.Fatalf("object %+v", o)
	}
	expectAPIError(t, "unknown", c.get("/api/targets/xyzzy"), http.StatusNotFound, "not_found")
	expectAPIError(t, "down", c.get("/api/targets/down"), http.StatusServiceUnavailable, "unavailable")
	expectAPIError(t, "anonymous", a.client().get("/api/targets/M87"), http.StatusUnauthorized, "unauthenticated")

	home := c.get("/")
	if !strings.Contains(home.body, `data-testid="resolve-form"`) {
		t.Fatal("home page lacks the resolve box")
	}
	page := c.get("/targets?name=ngc+1275")
	expectStatus(t, "page", page, http.StatusOK)
	for _, want := range []string{"Perseus A", "03:19:48.16", "+41:30:42.1", "z = 0.017559", `value="ngc 1275"`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	page = c.get("/targets?name=xyzzy")
	expectStatus(t, "unknown page", page, http.StatusNotFound)
	if !strings.Contains(page.body, "was not found by Sesame") {
		t.Fatal("not-found message missing")
	}
}
