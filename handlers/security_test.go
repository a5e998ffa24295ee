package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

const devOrigin = "http://localhost:5173"

func TestCORSAuthLayer(t *testing.T) {
	a := newApp(t, map[string]string{"CORS_DEV_ORIGINS": devOrigin})
	a.setupAdmin()
	c := a.client()

	res := c.method(http.MethodOptions, "/api/auth/login", "Origin", devOrigin, "Access-Control-Request-Method", "POST")
	expectStatus(t, "dev preflight", res, http.StatusNoContent)
	if res.Header.Get("Access-Control-Allow-Origin") != devOrigin || res.Header.Get("Access-Control-Allow-Credentials") != "true" ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("dev preflight headers: %v", res.Header)
	}
	res = c.postJSON("/api/auth/login", `{"username":"vera","password":"galaxy-rotation"}`, "Origin", devOrigin, "Sec-Fetch-Site", "same-site")
	expectStatus(t, "dev origin login", res, http.StatusOK)
	if res.Header.Get("Access-Control-Allow-Origin") != devOrigin {
		t.Fatal("dev origin not allowed on the response")
	}
	res = c.method(http.MethodOptions, "/api/auth/login", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	expectAPIError(t, "foreign preflight", res, http.StatusForbidden, "cross_origin")
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("foreign origin got CORS headers")
	}
	res = c.get("/api/auth/verify", "Origin", "https://evil.example")
	expectAPIError(t, "foreign verify", res, http.StatusForbidden, "cross_origin")
	res = c.get("/api/auth/verify", "Origin", a.http.URL)
	expectStatus(t, "same-origin verify", res, http.StatusOK)
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("same-origin request needs no CORS headers")
	}
}

func TestCORSBookmarkletLayer(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	// The layer's routes arrive with the import feature; a probe route
	// proves the middleware now.
	a.srv.BookmarkletGroup().POST("/probe", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"user": currentUser(c).Username})
	})
	secret := createToken(t, admin, "bookmarklet")

	res := admin.method(http.MethodOptions, "/api/bookmarklet/probe", "Origin", "https://arxiv.org", "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "authorization, content-type")
	expectStatus(t, "preflight from any origin", res, http.StatusNoContent)
	if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Access-Control-Allow-Credentials") != "" ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight headers: %v", res.Header)
	}
	// The session cookie alone does not authenticate here.
	res = admin.postJSON("/api/bookmarklet/probe", `{}`, "Origin", "https://arxiv.org", "Sec-Fetch-Site", "cross-site")
	expectAPIError(t, "cookie only", res, http.StatusUnauthorized, "unauthenticated")
	res = a.client().postJSON("/api/bookmarklet/probe", `{}`, "Origin", "https://arxiv.org", "Sec-Fetch-Site", "cross-site",
		"Authorization", "Bearer "+secret)
	expectStatus(t, "token from a foreign page", res, http.StatusOK)
	if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("response headers: %v", res.Header)
	}
	res = a.client().postJSON("/api/bookmarklet/probe", `{}`, "Authorization", "Bearer astro_wrong")
	expectAPIError(t, "bad token", res, http.StatusUnauthorized, "invalid_token")
}

func TestCORSSameOriginLayer(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	res := admin.method(http.MethodOptions, "/api/sessions", "Origin", "https://evil.example", "Access-Control-Request-Method", "GET")
	expectAPIError(t, "foreign preflight", res, http.StatusForbidden, "cross_origin")
	res = admin.get("/settings", "Origin", "https://evil.example")
	expectStatus(t, "foreign GET gets no CORS grant", res, http.StatusOK)
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("layer (c) must never send Access-Control-Allow-Origin")
	}
	res = admin.postForm("/settings/tokens", url.Values{"name": {"x"}}, "Origin", "https://evil.example")
	expectStatus(t, "foreign POST", res, http.StatusForbidden)
}

func TestCrossSitePostRefused(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	cases := []struct {
		name    string
		headers []string
	}{
		{"Sec-Fetch-Site cross-site", []string{"Sec-Fetch-Site", "cross-site"}},
		{"Sec-Fetch-Site same-site", []string{"Sec-Fetch-Site", "same-site"}},
		{"Origin mismatch without Sec-Fetch-Site", []string{"Origin", "https://evil.example"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := admin.postForm("/logout", nil, tc.headers...)
			expectStatus(t, "cross-site logout", res, http.StatusForbidden)
			if !strings.Contains(res.body, "came from another site") && !strings.Contains(res.body, "Cross-origin requests are not allowed") {
				t.Fatalf("plain message missing:\n%s", res.body)
			}
			if admin.verify() != http.StatusOK {
				t.Fatal("the refused request had an effect")
			}
		})
	}
	res := admin.postForm("/settings/tokens", url.Values{"name": {"ok"}}, "Sec-Fetch-Site", "same-origin", "Origin", a.http.URL)
	expectStatus(t, "same-origin POST", res, http.StatusCreated)
}

func TestSecurityHeadersEverywhere(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	for _, path := range []string{"/", "/login", "/healthz", "/readyz", "/static/css/app.css", "/nope", "/api/auth/verify", "/api/nope"} {
		res := admin.get(path)
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "img-src 'self' data:"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Referrer-Policy") == "" || res.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s: headers %v", path, res.Header)
		}
	}
}

func TestNotFound(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	expectAPIError(t, "unknown API path", admin.get("/api/nope"), http.StatusNotFound, "not_found")
	res := admin.get("/nope")
	expectStatus(t, "unknown page", res, http.StatusNotFound)
	if !strings.Contains(res.body, "There is nothing at this address.") {
		t.Fatal("404 page message missing")
	}
	expectAPIError(t, "anonymous API", a.client().get("/api/nope"), http.StatusUnauthorized, "unauthenticated")
}

func TestBasePath(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro/"})
	c := a.client()
	res := c.get("/")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/astro/setup" {
		t.Fatalf("GET /astro/ = %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = c.get("/setup")
	expectStatus(t, "setup under the base path", res, http.StatusOK)
	for _, want := range []string{`href="/astro/static/css/app.`, `src="/astro/static/vendor/htmx.min.js"`, `action="/astro/setup"`, `href="/astro/"`} {
		if !strings.Contains(res.body, want) {
			t.Errorf("setup page lacks %s", want)
		}
	}
	res = c.postForm("/setup", url.Values{"username": {"vera"}, "password": {"galaxy-rotation"}})
	if res.Header.Get("Location") != "/astro/" {
		t.Fatalf("setup redirect %q", res.Header.Get("Location"))
	}
	if res := c.get("/static/css/app.css"); res.StatusCode != http.StatusOK {
		t.Fatalf("static under base path: %d", res.StatusCode)
	}
	// Outside the prefix nothing but the probes answers.
	for path, want := range map[string]int{"/setup": 404, "/api/auth/verify": 404, "/healthz": 200, "/readyz": 200} {
		req, _ := http.NewRequest(http.MethodGet, a.http.URL+path, nil)
		if res := c.do(req); res.StatusCode != want {
			t.Errorf("root %s = %d, want %d", path, res.StatusCode, want)
		}
	}
	res = c.postForm("/logout", nil)
	if res.Header.Get("Location") != "/astro/login" {
		t.Fatalf("logout redirect %q", res.Header.Get("Location"))
	}
}

func TestReadiness(t *testing.T) {
	a := newApp(t, nil)
	c := a.client()
	a.ready.Store(false)
	expectStatus(t, "healthz while starting", c.get("/healthz"), http.StatusOK)
	expectStatus(t, "readyz while starting", c.get("/readyz"), http.StatusServiceUnavailable)
	res := c.get("/login")
	expectStatus(t, "page while starting", res, http.StatusServiceUnavailable)
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("Retry-After missing while starting")
	}
	a.ready.Store(true)
	expectStatus(t, "readyz when ready", c.get("/readyz"), http.StatusOK)
	a.store.Close()
	expectStatus(t, "readyz with the database closed", c.get("/readyz"), http.StatusServiceUnavailable)
}

func TestStaticAssets(t *testing.T) {
	a := newApp(t, nil)
	c := a.client()
	res := c.get("/static/css/app.css")
	expectStatus(t, "stylesheet", res, http.StatusOK)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") || res.Header.Get("Cache-Control") == "" {
		t.Fatalf("stylesheet headers %v", res.Header)
	}
	for _, p := range []string{"/static/embed.go", "/static/../main.go", "/static/css/missing.css"} {
		if res := c.get(p); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s = %d, want 404", p, res.StatusCode)
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	a := newApp(t, map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8"})
	tp := a.srv.proxies
	req := func(remote string, headers ...string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = remote
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Add(headers[i], headers[i+1])
		}
		return r
	}
	cases := []struct {
		r      *http.Request
		ip     string
		https  bool
		reason string
	}{
		{req("203.0.113.9:5000", "X-Forwarded-For", "1.2.3.4", "X-Forwarded-Proto", "https"), "203.0.113.9", false, "untrusted peer: headers ignored"},
		{req("10.1.2.3:5000", "X-Forwarded-For", "198.51.100.7", "X-Forwarded-Proto", "https"), "198.51.100.7", true, "trusted proxy"},
		{req("10.1.2.3:5000", "X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.9.9.9"), "198.51.100.7", false, "right-most untrusted hop"},
		{req("[::ffff:10.1.2.3]:5000", "X-Forwarded-For", "198.51.100.7"), "198.51.100.7", false, "IPv4-mapped peer"},
		{req("10.1.2.3:5000", "X-Forwarded-For", "garbage"), "10.1.2.3", false, "malformed header"},
	}
	for _, tc := range cases {
		if got := tp.realIP(tc.r); got != tc.ip {
			t.Errorf("%s: realIP = %s, want %s", tc.reason, got, tc.ip)
		}
		if got := tp.isHTTPS(tc.r); got != tc.https {
			t.Errorf("%s: isHTTPS = %v, want %v", tc.reason, got, tc.https)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/settings":             "/settings",
		"/admin?x=1":            "/admin?x=1",
		"":                      "",
		"//evil.example":        "",
		"/\\evil.example":       "",
		"https://evil.example/": "",
		"settings":              "",
		"/\tx":                  "",
		"javascript:alert(1)":   "",
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/a", "//b", "/\\c", "http://d", "/%2F%2Fe", "/.//f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := safeNext(s)
		if got == "" {
			return
		}
		if got != s || got[0] != '/' || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\r\n\t") {
			t.Fatalf("safeNext(%q) = %q: not a plain local path", s, got)
		}
		// Resolved against our origin it must stay on our host.
		base, _ := url.Parse("https://astro.example/")
		ref, err := url.Parse(got)
		if err != nil {
			t.Fatalf("accepted unparsable %q", got)
		}
		if u := base.ResolveReference(ref); u.Host != "astro.example" {
			t.Fatalf("safeNext(%q) leaves the host: %s", s, u)
		}
	})
}
