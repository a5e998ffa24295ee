package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSetupFlow(t *testing.T) {
	a := newApp(t, nil)
	c := a.client()
	res := c.get("/")
	expectStatus(t, "GET / on a fresh install", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/setup" {
		t.Fatalf("redirect to %q, want /setup", loc)
	}
	if res := c.get("/login"); res.Header.Get("Location") != "/setup" {
		t.Fatalf("login page before setup must send to /setup, got %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = c.get("/setup")
	expectStatus(t, "setup page", res, http.StatusOK)
	if !strings.Contains(res.body, `data-testid="setup-form"`) {
		t.Fatal("setup form missing")
	}
	res = c.postForm("/setup", url.Values{"username": {"vera"}, "password": {"short"}})
	expectStatus(t, "short password", res, http.StatusUnprocessableEntity)
	if !strings.Contains(res.body, "at least 8 characters") || !strings.Contains(res.body, `value="vera"`) {
		t.Fatalf("short password: message or kept username missing\n%s", res.body)
	}
	res = c.postForm("/setup", url.Values{"password": {"long-enough"}})
	expectStatus(t, "missing username", res, http.StatusUnprocessableEntity)

	c = a.setupAdmin()
	res = c.get("/")
	expectStatus(t, "home after setup", res, http.StatusOK)
	for _, want := range []string{"Hello, vera", `href="/settings"`, `href="/admin"`, "Your administrator account is ready."} {
		if !strings.Contains(res.body, want) {
			t.Errorf("home page lacks %q", want)
		}
	}
	// A second setup attempt, signed in or not, is refused plainly.
	other := a.client()
	res = other.postForm("/setup", url.Values{"username": {"mallory"}, "password": {"long-enough"}})
	expectStatus(t, "second setup", res, http.StatusConflict)
	if !strings.Contains(res.body, "Setup is already complete") {
		t.Fatalf("second setup message missing:\n%s", res.body)
	}
	if res := other.get("/setup"); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Fatalf("setup page after setup = %d %q, want redirect to /login", res.StatusCode, res.Header.Get("Location"))
	}
}

func TestLoginLogoutPages(t *testing.T) {
	a := newApp(t, nil)
	a.setupAdmin()
	c := a.client()
	res := c.get("/settings")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?next=%2Fsettings" {
		t.Fatalf("anonymous /settings = %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = c.get("/login?next=%2Fsettings")
	expectStatus(t, "login page", res, http.StatusOK)
	if !strings.Contains(res.body, `name="next" value="/settings"`) {
		t.Fatal("next not carried in the form")
	}
	res = c.postForm("/login", url.Values{"username": {adminName}, "password": {"wrong-password"}, "next": {"/settings"}})
	expectStatus(t, "wrong password", res, http.StatusUnauthorized)
	if !strings.Contains(res.body, "Wrong username or password.") || !strings.Contains(res.body, `role="alert"`) {
		t.Fatalf("wrong password message missing:\n%s", res.body)
	}
	res = c.postForm("/login", url.Values{"username": {adminName}, "password": {adminPass}, "next": {"//evil.example/x"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
		t.Fatalf("open redirect: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = c.postForm("/login", url.Values{"username": {adminName}, "password": {adminPass}, "next": {"/settings"}})
	if res.Header.Get("Location") != "/settings" {
		t.Fatalf("next ignored: %q", res.Header.Get("Location"))
	}
	if res := c.get("/login"); res.Header.Get("Location") != "/" {
		t.Fatal("signed-in user not sent home from the login page")
	}
	res = c.postForm("/logout", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Fatalf("logout = %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if c.verify() != http.StatusUnauthorized {
		t.Fatal("still signed in after logout")
	}
}

func TestAPIAuth(t *testing.T) {
	a := newApp(t, nil)
	a.setupAdmin()
	c := a.client()
	expectAPIError(t, "verify anonymous", c.get("/api/auth/verify"), http.StatusUnauthorized, "unauthenticated")
	expectAPIError(t, "malformed JSON", c.postJSON("/api/auth/login", `{"username":`), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "wrong type", c.postJSON("/api/auth/login", `{"username":42}`), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "empty body", c.postJSON("/api/auth/login", ``), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "trailing data", c.postJSON("/api/auth/login", `{} {}`), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "missing fields", c.postJSON("/api/auth/login", `{}`), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "over-long username", c.apiLogin(strings.Repeat("u", 65), "whatever"), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "over-long password", c.apiLogin(adminName, strings.Repeat("p", 1025)), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "huge body", c.postJSON("/api/auth/login", `{"username":"`+strings.Repeat("x", 2<<20)+`"}`), http.StatusRequestEntityTooLarge, "request_entity_too_large")
	expectAPIError(t, "unknown user", c.apiLogin("nobody", "whatever-pw"), http.StatusUnauthorized, "bad_credentials")
	expectAPIError(t, "wrong password", c.apiLogin(adminName, "wrong-password"), http.StatusUnauthorized, "bad_credentials")

	res := c.apiLogin(adminName, adminPass)
	expectStatus(t, "login", res, http.StatusOK)
	var body UserResponse
	res.json(t, &body)
	if body.User.Username != adminName || body.User.Role != "admin" || body.User.ID == 0 {
		t.Fatalf("login body %+v", body)
	}
	res = c.get("/api/auth/verify")
	expectStatus(t, "verify", res, http.StatusOK)
	res.json(t, &body)
	if body.User.Username != adminName {
		t.Fatalf("verify body %+v", body)
	}
	res = c.postJSON("/api/auth/logout", "")
	expectStatus(t, "logout", res, http.StatusNoContent)
	if c.verify() != http.StatusUnauthorized {
		t.Fatal("verify after logout must be 401")
	}
}

func TestDisabledUserLogin(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	m := a.member("edwin", "expanding-universe")
	users, _ := a.accounts.ListUsers(t.Context())
	var id int64
	for _, u := range users {
		if u.Username == "edwin" {
			id = u.ID
		}
	}
	res := admin.postForm("/admin/users/"+strconv.FormatInt(id, 10)+"/disabled", url.Values{"disabled": {"true"}})
	expectStatus(t, "disable", res, http.StatusSeeOther)
	if m.verify() != http.StatusUnauthorized {
		t.Fatal("disabled user's session still valid")
	}
	expectAPIError(t, "disabled login", a.client().apiLogin("edwin", "expanding-universe"), http.StatusForbidden, "account_disabled")
	res = a.client().postForm("/login", url.Values{"username": {"edwin"}, "password": {"expanding-universe"}})
	expectStatus(t, "disabled login form", res, http.StatusForbidden)
	if !strings.Contains(res.body, "This account is disabled") {
		t.Fatal("disabled message missing")
	}
}

func TestSessionCookieFlags(t *testing.T) {
	a := newApp(t, map[string]string{"TRUSTED_PROXIES": "127.0.0.1"})
	a.setupAdmin()
	check := func(what string, headers []string, wantName string, wantSecure bool) {
		t.Helper()
		c := a.client()
		res := c.postJSON("/api/auth/login", `{"username":"vera","password":"galaxy-rotation"}`, headers...)
		expectStatus(t, what, res, http.StatusOK)
		cookies := res.Cookies()
		if len(cookies) != 1 {
			t.Fatalf("%s: %d cookies", what, len(cookies))
		}
		ck := cookies[0]
		if ck.Name != wantName || ck.Secure != wantSecure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Domain != "" {
			t.Fatalf("%s: cookie %+v", what, ck)
		}
		if len(ck.Value) < 40 {
			t.Fatalf("%s: short session token %q", what, ck.Value)
		}
	}
	check("plain http", nil, "astro_session", false)
	check("https through a trusted proxy", []string{"X-Forwarded-Proto", "https"}, "__Host-astro_session", true)

	// The same header from a peer that is not a trusted proxy is ignored.
	b := newApp(t, nil)
	b.setupAdmin()
	res := b.client().postJSON("/api/auth/login", `{"username":"vera","password":"galaxy-rotation"}`, "X-Forwarded-Proto", "https")
	if ck := res.Cookies(); len(ck) != 1 || ck[0].Name != "astro_session" || ck[0].Secure {
		t.Fatalf("untrusted X-Forwarded-Proto honoured: %+v", ck)
	}
}

func TestTokenRenewedOnLoginAndDeadAfterLogout(t *testing.T) {
	a := newApp(t, nil)
	a.setupAdmin()
	c := a.client()
	expectStatus(t, "login", c.apiLogin(adminName, adminPass), http.StatusOK)
	first := c.sessionCookie()
	expectStatus(t, "second login", c.apiLogin(adminName, adminPass), http.StatusOK)
	second := c.sessionCookie()
	if first == "" || first == second {
		t.Fatalf("session token not renewed on login: %q → %q", first, second)
	}
	c.setSessionCookie(first)
	if c.verify() != http.StatusUnauthorized {
		t.Fatal("pre-login token still valid after renewal")
	}
	c.setSessionCookie(second)
	if c.verify() != http.StatusOK {
		t.Fatal("current token rejected")
	}
	res := c.postJSON("/api/auth/logout", "")
	expectStatus(t, "logout", res, http.StatusNoContent)
	if ck := res.Cookies(); len(ck) != 1 || ck[0].MaxAge >= 0 {
		t.Fatalf("logout did not clear the cookie: %+v", ck)
	}
	c.setSessionCookie(second) // a replayed cookie
	if c.verify() != http.StatusUnauthorized {
		t.Fatal("cookie still valid after logout")
	}
}

func TestIdleAndAbsoluteExpiry(t *testing.T) {
	a := newApp(t, map[string]string{"SESSION_LIFETIME": "24h", "SESSION_IDLE_TIMEOUT": "2h"})
	a.setupAdmin()

	idle := a.client()
	expectStatus(t, "login", idle.apiLogin(adminName, adminPass), http.StatusOK)
	a.clock.Advance(time.Hour + 59*time.Minute)
	if idle.verify() != http.StatusOK {
		t.Fatal("session expired before the idle timeout")
	}
	a.clock.Advance(time.Hour + 59*time.Minute) // activity above moved the idle window
	if idle.verify() != http.StatusOK {
		t.Fatal("activity did not extend the idle window")
	}
	a.clock.Advance(2 * time.Hour)
	if idle.verify() != http.StatusUnauthorized {
		t.Fatal("session alive after 2 h idle")
	}

	busy := a.client()
	expectStatus(t, "login", busy.apiLogin(adminName, adminPass), http.StatusOK)
	for i := 0; i < 23; i++ {
		a.clock.Advance(time.Hour)
		if busy.verify() != http.StatusOK {
			t.Fatalf("active session died after %d h", i+1)
		}
	}
	a.clock.Advance(time.Hour)
	if busy.verify() != http.StatusUnauthorized {
		t.Fatal("session alive past the 24 h absolute lifetime")
	}
}

func TestPasswordChangeRevokesOtherSessions(t *testing.T) {
	a := newApp(t, nil)
	here := a.setupAdmin()
	elsewhere := a.client()
	expectStatus(t, "second device", elsewhere.apiLogin(adminName, adminPass), http.StatusOK)

	res := here.postForm("/settings/password", url.Values{"current_password": {"wrong"}, "new_password": {"new-password-1"}, "confirm_password": {"new-password-1"}})
	expectStatus(t, "wrong current password", res, http.StatusUnprocessableEntity)
	if !strings.Contains(res.body, "current password is wrong") {
		t.Fatalf("message missing:\n%s", res.body)
	}
	res = here.postForm("/settings/password", url.Values{"current_password": {adminPass}, "new_password": {"new-password-1"}, "confirm_password": {"different-1"}})
	expectStatus(t, "mismatch", res, http.StatusUnprocessableEntity)
	res = here.postForm("/settings/password", url.Values{"current_password": {adminPass}, "new_password": {"new-password-1"}, "confirm_password": {"new-password-1"}})
	expectStatus(t, "change", res, http.StatusSeeOther)
	if here.verify() != http.StatusOK {
		t.Fatal("the session that changed the password was signed out")
	}
	if elsewhere.verify() != http.StatusUnauthorized {
		t.Fatal("other session survived the password change")
	}
	expectStatus(t, "old password", a.client().apiLogin(adminName, adminPass), http.StatusUnauthorized)
	expectStatus(t, "new password", a.client().apiLogin(adminName, "new-password-1"), http.StatusOK)
}

func TestLoginRateLimit(t *testing.T) {
	a := newApp(t, nil)
	a.setupAdmin()
	c := a.client()
	for i := 0; i < 4; i++ {
		expectStatus(t, "failed attempt", c.apiLogin(adminName, "wrong-password"), http.StatusUnauthorized)
	}
	res := c.apiLogin(adminName, adminPass)
	expectAPIError(t, "after 4 failures", res, http.StatusTooManyRequests, "rate_limited")
	if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Fatalf("Retry-After = %q", res.Header.Get("Retry-After"))
	}
	form := c.postForm("/login", url.Values{"username": {adminName}, "password": {adminPass}})
	expectStatus(t, "form while limited", form, http.StatusTooManyRequests)
	if form.Header.Get("Retry-After") == "" || !strings.Contains(form.body, "Too many login attempts") {
		t.Fatal("form: Retry-After or message missing")
	}
	a.clock.Advance(time.Minute)
	expectStatus(t, "after the wait", c.apiLogin(adminName, adminPass), http.StatusOK)

	// Per IP: 8 attempts at once across any usernames, then 429.
	b := newApp(t, nil)
	b.setupAdmin()
	d := b.client()
	for i := 0; i < 8; i++ {
		d.apiLogin("user"+strconv.Itoa(i), "wrong-password")
	}
	expectAPIError(t, "IP flood", d.apiLogin(adminName, adminPass), http.StatusTooManyRequests, "rate_limited")
}
