package e2e

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tokenRE matches a personal API token as the settings page shows it once.
var tokenRE = regexp.MustCompile(`astro_[A-Za-z0-9_-]{43}`)

// createToken makes a personal API token through the settings page.
func (c *apiClient) createToken(name string) string {
	c.tb.Helper()
	res, err := c.hc.PostForm(c.base+"/settings/tokens", url.Values{"name": {name}})
	if err != nil {
		c.tb.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	tok := tokenRE.FindString(string(body))
	if res.StatusCode != http.StatusCreated || tok == "" {
		c.tb.Fatalf("create token = %d:\n%.2000s", res.StatusCode, body)
	}
	return tok
}

type withToken struct{ token string }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPEndToEnd starts the binary under a BASE_PATH, makes a token on the
// settings page and talks MCP to /mcp over HTTP with the SDK's client:
// tools, an import through the (fake) arXiv, the library as resources,
// the paper resource, prompts, the audit log; then the same through the
// `astroresearch mcp` stdio bridge, and 401 without a token.
func TestMCPEndToEnd(t *testing.T) {
	ax := fakeArxivStrict(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password, "BASE_PATH": "/astro",
		"ARXIV_API_URL": ax.URL + "/api/query", "ADS_API_URL": ax.URL + "/no-ads"})
	web := signIn(t, a.URL, user, password)
	token := web.createToken("claude")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	res, err := http.Post(a.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("no token: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: a.URL + "/mcp", HTTPClient: &http.Client{Transport: withToken{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 6 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	imp, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "import_paper", Arguments: map[string]any{"ref": "arXiv:2401.01234"}})
	if err != nil || imp.IsError {
		t.Fatalf("import_paper: %+v %v", imp, err)
	}
	paper := imp.StructuredContent.(map[string]any)["paper"].(map[string]any)
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].Title != paper["title"] {
		t.Fatalf("resources: %+v %v", list, err)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: list.Resources[0].URI})
	if err != nil || !strings.Contains(read.Contents[0].Text, "not parsed yet") {
		t.Fatalf("read %s: %v", list.Resources[0].URI, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "literature-review", Arguments: map[string]string{"task": "M87"}}); err != nil {
		t.Fatal(err)
	}

	bridge := exec.Command(binPath, "mcp", "--url", a.URL)
	bridge.Env = []string{"ASTRO_TOKEN=" + token, "PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	bridge.Dir = t.TempDir()
	var stderr strings.Builder
	bridge.Stderr = &stderr
	stdio, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-stdio", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: bridge}, nil)
	if err != nil {
		t.Fatalf("bridge: %v\n%s", err, stderr.String())
	}
	found, err := stdio.CallTool(ctx, &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{}})
	if err != nil || found.IsError || found.StructuredContent.(map[string]any)["total"] != 1.0 {
		t.Fatalf("library_search through the bridge: %+v %v\n%s", found, err, stderr.String())
	}
	if err := stdio.Close(); err != nil {
		t.Fatalf("bridge exit: %v\n%s", err, stderr.String())
	}

	audit, err := web.hc.Get(a.URL + "/audit")
	if err != nil {
		t.Fatal(err)
	}
	defer audit.Body.Close()
	page, _ := io.ReadAll(audit.Body)
	for _, want := range []string{"import_paper", "library_search", "read_resource", "get_prompt", "MCP clients"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the audit page lacks %q", want)
		}
	}
}
