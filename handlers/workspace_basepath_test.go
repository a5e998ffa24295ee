package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWorkspacePagesUnderBasePath: the new workspace pages build every
// link and form address from BASE_PATH.
func TestWorkspacePagesUnderBasePath(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	c := a.setupAdmin()
	res := c.postForm("/research", url.Values{"title": {"Vela"}})
	s := strings.TrimPrefix(res.Header.Get("Location"), "/astro/research/")

	expectContains(t, "session page", c.get("/research/"+s).body,
		`action="/astro/research/`+s+`/rename"`, `href="/astro/research/`+s+`/delete"`, `href="/astro/search?only=1&amp;session=`+s+`"`)
	expectContains(t, "list", c.get("/research").body, `action="/astro/research/`+s+`/rename"`)
	expectContains(t, "confirm", c.get("/research/"+s+"/delete").body, `action="/astro/research/`+s+`/delete"`, `href="/astro/research/`+s+`"`)
	expectContains(t, "search", c.get("/search?q=vela").body, `action="/astro/search"`, `hx-get="/astro/search/results"`,
		`href="/astro/research/`+s+`"`, `href="/astro/search" aria-current="page"`)
	expectContains(t, "settings", c.get("/settings").body, `action="/astro/settings/permissions"`)
	expectContains(t, "audit", c.get("/audit").body, `action="/astro/audit"`, `href="/astro/audit" aria-current="page"`)

	res = c.postForm("/research/"+s+"/rename", url.Values{"title": {"Vela pulsar"}, "return": {"list"}})
	expectStatus(t, "rename", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/astro/research" {
		t.Fatalf("rename went to %q", loc)
	}
	res = c.postForm("/research/"+s+"/delete", nil)
	expectStatus(t, "delete", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/astro/research" {
		t.Fatalf("delete went to %q", loc)
	}
	res = c.postForm("/settings/permissions", url.Values{"tool": {"*"}, "decision": {"ask"}})
	if loc := res.Header.Get("Location"); loc != "/astro/settings#permission-rules" {
		t.Fatalf("add rule went to %q", loc)
	}
}
