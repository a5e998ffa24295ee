package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/store"
)

// bearerTransport adds a token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpClient connects an SDK client to the app's /mcp with token.
func (a *testApp) mcpClient(token string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: a.url("/mcp"), HTTPClient: &http.Client{Transport: bearerTransport{token}}, MaxRetries: -1}
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
}

// token creates an API token for the named user.
func (a *testApp) token(name string) (store.User, string) {
	a.t.Helper()
	u, err := a.store.UserByName(context.Background(), name)
	if err != nil {
		a.t.Fatal(err)
	}
	secret, _, err := a.accounts.CreateToken(context.Background(), u.ID, "mcp")
	if err != nil {
		a.t.Fatal(err)
	}
	return u, secret
}

const mcpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// TestMCPAuth: no token, a bad token and a cookie alone get 401 with
// WWW-Authenticate; a token works; a disabled account's token stops at the
// next request; a revoked token too.
func TestMCPAuth(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	member := a.member("otto", "otto-password-1")
	hdr := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}
	for _, tt := range []struct {
		name   string
		c      *client
		extra  []string
		wwwHas string
	}{
		{"no token", a.client(), nil, `Bearer realm="AstroResearch"`},
		{"cookie only", member, nil, `Bearer realm="AstroResearch"`},
		{"bad token", a.client(), []string{"Authorization", "Bearer astro_nope"}, `error="invalid_token"`},
		{"empty bearer", a.client(), []string{"Authorization", "Bearer "}, `Bearer realm="AstroResearch"`},
	} {
		res := tt.c.postJSON("/mcp", mcpInit, append(hdr, tt.extra...)...)
		if res.StatusCode != http.StatusUnauthorized || !strings.Contains(res.Header.Get("WWW-Authenticate"), tt.wwwHas) ||
			!strings.Contains(res.body, `"error":{"code":`) {
			t.Errorf("%s: %d %q %s", tt.name, res.StatusCode, res.Header.Get("WWW-Authenticate"), res.body)
		}
	}

	otto, secret := a.token("otto")
	cs, err := a.mcpClient(secret)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult().ServerInfo.Name != "astroresearch" {
		t.Fatalf("server %+v", cs.InitializeResult().ServerInfo)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("library_search: %+v %v", res, err)
	}
	sess, err := a.store.MCPSession(context.Background(), otto.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := a.store.AuditForSession(context.Background(), sess.ID); len(rows) != 1 || rows[0].AgentName != "mcp" {
		t.Fatalf("audit %+v", rows)
	}

	if got := admin.get("/admin"); !strings.Contains(got.body, `data-testid="mcp-calls">1 (0)</dd>`) {
		t.Errorf("the admin page does not count the MCP call:\n%s", got.body)
	}
	res2 := admin.postForm("/admin/users/"+strconv.FormatInt(otto.ID, 10)+"/disabled", map[string][]string{"disabled": {"1"}})
	if res2.StatusCode >= 400 {
		t.Fatalf("disable: %d %s", res2.StatusCode, res2.body)
	}
	if u, _ := a.store.UserByID(context.Background(), otto.ID); !u.Disabled {
		t.Fatalf("otto was not disabled: %s", res2.body)
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{}}); err == nil {
		t.Fatalf("a disabled account's token still works: %+v", res)
	}
	if r := a.client().postJSON("/mcp", mcpInit, append(hdr, "Authorization", "Bearer "+secret)...); r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("disabled: %d", r.StatusCode)
	}
}

// TestMCPTransport: the endpoint speaks streamable HTTP without sessions,
// refuses other sites' browsers and oversized bodies, and lives under
// BASE_PATH.
func TestMCPTransport(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	a.setupAdmin()
	_, secret := a.token(adminName)
	c := a.client()
	auth := []string{"Authorization", "Bearer " + secret, "Content-Type", "application/json", "Accept", "application/json, text/event-stream"}

	res := c.postJSON("/mcp", mcpInit, auth...)
	if res.StatusCode != http.StatusOK || !strings.Contains(res.body, `"protocolVersion":"2025-06-18"`) || res.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize: %d %v %s", res.StatusCode, res.Header, res.body)
	}
	list := c.postJSON("/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, append(auth, "MCP-Protocol-Version", "2025-06-18")...)
	if list.StatusCode != http.StatusOK || !strings.Contains(list.body, `"library_search"`) || strings.Contains(list.body, "run_bash") {
		t.Fatalf("tools/list: %d %s", list.StatusCode, list.body)
	}
	if r, _ := http.Get(a.http.URL + "/mcp"); r.StatusCode != http.StatusNotFound {
		t.Fatalf("/mcp outside BASE_PATH: %d", r.StatusCode)
	}
	get := c.get("/mcp", auth...)
	if get.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", get.StatusCode)
	}
	cross := c.postJSON("/mcp", mcpInit, append(auth, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")...)
	if cross.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site: %d %s", cross.StatusCode, cross.body)
	}
	huge := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"library_search","arguments":{"query":"` + strings.Repeat("a", 2<<20) + `"}}}`
	if r := c.postJSON("/mcp", huge, auth...); r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("2 MB body: %d", r.StatusCode)
	}
	notJSON := c.postJSON("/mcp", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"library_search","arguments":{"query":"`, auth...)
	if notJSON.StatusCode < 400 && !strings.Contains(notJSON.body, `"error"`) {
		t.Fatalf("broken JSON: %d %s", notJSON.StatusCode, notJSON.body)
	}
}

// TestSettingsShowsMCPSetup: the settings page gives the endpoint under
// BASE_PATH and configuration snippets that are valid JSON pointing at it,
// with no token in them.
func TestSettingsShowsMCPSetup(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	c := a.setupAdmin()
	res := c.get("/settings")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	endpoint := a.url("/mcp")
	if got := doc.Find(`[data-testid="mcp-endpoint"]`).Text(); got != endpoint {
		t.Fatalf("endpoint %q, want %q", got, endpoint)
	}
	for id, want := range map[string]string{"mcp-claude-code": endpoint, "mcp-crush": endpoint, "mcp-claude-desktop": a.url("")} {
		var v map[string]any
		snippet := doc.Find(`[data-testid="` + id + `"]`).Text()
		if err := json.Unmarshal([]byte(snippet), &v); err != nil || !strings.Contains(snippet, `"`+want+`"`) || secretRE.MatchString(snippet) {
			t.Errorf("%s: %v\n%s", id, err, snippet)
		}
	}
	if !strings.Contains(doc.Find(`[data-testid="mcp-setup"]`).Text(), "claude mcp add --transport http astroresearch "+endpoint) {
		t.Error("no claude mcp add command")
	}
}

// TestMCPSessionIsNoResearchSession: the session MCP calls are audited in
// is not a research session — its research page, turns, messages, events,
// renaming and deleting are 404 — yet the audit log filters by it.
func TestMCPSessionIsNoResearchSession(t *testing.T) {
	a := newApp(t, nil)
	vera := a.setupAdmin()
	u, secret := a.token(adminName)
	cs, err := a.mcpClient(secret)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("library_search: %+v %v", res, err)
	}
	sess, err := a.store.MCPSession(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	id := sess.ID
	for _, r := range []response{
		vera.get("/research/" + id),
		vera.get("/research/" + id + "/stream"),
		vera.postForm("/research/"+id+"/turns", map[string][]string{"question": {"What is M87?"}}),
		vera.postForm("/research/"+id+"/rename", map[string][]string{"title": {"mine"}}),
		vera.get("/research/" + id + "/delete"),
		vera.postForm("/research/"+id+"/delete", nil),
		vera.get("/api/sessions/" + id + "/messages"),
		vera.postJSON("/api/sessions/"+id+"/turns", `{"question":"What is M87?"}`),
		vera.get("/api/sessions/" + id + "/events"),
	} {
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s: %d, want 404", r.Request.Method, r.Request.URL.Path, r.StatusCode)
		}
	}
	if got, err := a.store.MCPSession(context.Background(), u.ID); err != nil || got.ID != id || got.Title != store.MCPSessionTitle {
		t.Fatalf("the MCP session changed: %+v %v", got, err)
	}
	audit := vera.get("/audit?session=" + id)
	if audit.StatusCode != http.StatusOK || !strings.Contains(audit.body, "library_search") {
		t.Fatalf("audit filtered by the MCP session: %d\n%s", audit.StatusCode, audit.body)
	}
}

// TestMCPDNSRebinding: the SDK's localhost check is off, so a page whose
// name was rebound to this server — a request with a foreign Host and a
// matching Origin, same-origin to the browser — must get nothing without
// the token, even if the browser sent the user's session cookie; with the
// token (which such a page cannot know) the request is served as usual.
func TestMCPDNSRebinding(t *testing.T) {
	a := newApp(t, nil)
	vera := a.setupAdmin()
	_, secret := a.token(adminName)
	rebound := func(headers ...string) response {
		req, _ := http.NewRequest(http.MethodPost, a.url("/mcp"), strings.NewReader(mcpInit))
		req.Host = "rebind.example:80"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", "http://rebind.example:80")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Cookie", "astro_session="+vera.sessionCookie())
		return a.client().do(req, headers...)
	}
	if r := rebound(); r.StatusCode != http.StatusUnauthorized || strings.Contains(r.body, "protocolVersion") {
		t.Fatalf("a rebound page with the cookie: %d %s", r.StatusCode, r.body)
	}
	if r := rebound("Authorization", "Bearer "+secret); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "protocolVersion") {
		t.Fatalf("with the token: %d %s", r.StatusCode, r.body)
	}
}
