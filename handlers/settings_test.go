package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// createToken creates an API token through the settings form and returns
// the secret shown once.
func createToken(t *testing.T, c *client, name string) string {
	t.Helper()
	res := c.postForm("/settings/tokens", url.Values{"name": {name}})
	expectStatus(t, "create token", res, http.StatusCreated)
	secret := secretRE.FindString(res.body)
	if secret == "" {
		t.Fatalf("token secret not shown:\n%s", res.body)
	}
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Fatal("page with a secret must not be cached")
	}
	return secret
}

func TestAPITokens(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	expectStatus(t, "empty name", admin.postForm("/settings/tokens", url.Values{"name": {"  "}}), http.StatusUnprocessableEntity)
	expectStatus(t, "over-long name", admin.postForm("/settings/tokens", url.Values{"name": {strings.Repeat("n", 101)}}), http.StatusUnprocessableEntity)
	secret := createToken(t, admin, "jupyter")

	page := admin.get("/settings")
	if !strings.Contains(page.body, "jupyter") || strings.Contains(page.body, secret) {
		t.Fatal("token list must show the name and never the secret again")
	}
	script := a.client()
	res := script.get("/api/auth/verify", "Authorization", "Bearer "+secret)
	expectStatus(t, "bearer verify", res, http.StatusOK)
	var body UserResponse
	res.json(t, &body)
	if body.User.Username != adminName {
		t.Fatalf("bearer user %+v", body)
	}
	if len(res.Cookies()) != 0 {
		t.Fatal("a token request must not create a session")
	}
	expectAPIError(t, "wrong token", script.get("/api/auth/verify", "Authorization", "Bearer astro_nope"), http.StatusUnauthorized, "invalid_token")

	toks, _ := a.accounts.ListTokens(context.Background(), 1)
	if len(toks) != 1 {
		t.Fatalf("%d tokens", len(toks))
	}
	res = admin.postForm("/settings/tokens/"+strconv.FormatInt(toks[0].ID, 10)+"/revoke", nil)
	expectStatus(t, "revoke", res, http.StatusSeeOther)
	expectAPIError(t, "revoked token", script.get("/api/auth/verify", "Authorization", "Bearer "+secret), http.StatusUnauthorized, "invalid_token")
	expectStatus(t, "revoke again", admin.postForm("/settings/tokens/"+strconv.FormatInt(toks[0].ID, 10)+"/revoke", nil), http.StatusNotFound)
	expectStatus(t, "revoke junk id", admin.postForm("/settings/tokens/abc/revoke", nil), http.StatusNotFound)
}

func TestTokenOfDisabledUserRefused(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	m := a.member("edwin", "expanding-universe")
	secret := createToken(t, m, "script")
	res := admin.postForm("/admin/users/2/disabled", url.Values{"disabled": {"true"}})
	expectStatus(t, "disable", res, http.StatusSeeOther)
	expectAPIError(t, "token of a disabled user", a.client().get("/api/auth/verify", "Authorization", "Bearer "+secret), http.StatusUnauthorized, "invalid_token")
}
