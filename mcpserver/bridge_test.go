package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bridged starts an HTTP MCP endpoint for vera (token "vera-token") and a
// Bridge to it with token, and returns an SDK client talking stdio to the
// bridge.
func (f *fixture) bridged(token string) (*mcp.ClientSession, error) {
	f.t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer vera-token" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="AstroResearch"`)
			http.Error(w, `{"error":{"code":"invalid_token","message":"The API token is invalid."}}`, http.StatusUnauthorized)
			return
		}
		f.svc.Handler(r.Context(), f.vera).ServeHTTP(w, r)
	}))
	f.t.Cleanup(srv.Close)
	clientIn, bridgeOut := io.Pipe()
	bridgeIn, clientOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Bridge(ctx, bridgeIn, bridgeOut, BridgeOptions{Endpoint: srv.URL + "/mcp", Token: token})
		bridgeOut.Close()
	}()
	f.t.Cleanup(func() {
		clientOut.Close()
		select {
		case err := <-done:
			if err != nil {
				f.t.Errorf("bridge: %v", err)
			}
		case <-time.After(5 * time.Second):
			f.t.Error("the bridge did not end when its input closed")
		}
		cancel()
	})
	return mcp.NewClient(&mcp.Implementation{Name: "stdio-client", Version: "1"}, nil).Connect(ctx,
		&mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
}

// TestBridge: a stdio client reaches tools, resources and prompts through
// the bridge, with progress notifications relayed.
func TestBridge(t *testing.T) {
	f := newFixture(t)
	cs, err := f.bridged("vera-token")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if got := cs.InitializeResult(); got.ServerInfo.Name != "astroresearch" || got.ProtocolVersion == "" {
		t.Fatalf("initialize %+v", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 10 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{"query": "shadow"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "The Shadow") || res.StructuredContent == nil {
		t.Fatalf("library_search: %+v %v", res, err)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "astro://papers/1"})
	if err != nil || !strings.Contains(read.Contents[0].Text, "42 microarcseconds") {
		t.Fatalf("read: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "astro://papers/../1"}); err == nil {
		t.Fatal("a bad URI was read through the bridge")
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "compare-measurements"})
	if err != nil || len(p.Messages) != 1 {
		t.Fatalf("prompt: %v", err)
	}
	// Calls run concurrently.
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_target", Arguments: map[string]any{"name": "M87"}})
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBridgeRefusedToken: the client is told why, in words.
func TestBridgeRefusedToken(t *testing.T) {
	f := newFixture(t)
	_, err := f.bridged("wrong")
	if err == nil || !strings.Contains(err.Error(), "AstroResearch refused the API token (HTTP 401)") {
		t.Fatalf("connect with a wrong token: %v", err)
	}
}

// TestBridgeUnreachable: a server that is not running is reported.
func TestBridgeUnreachable(t *testing.T) {
	clientIn, bridgeOut := io.Pipe()
	bridgeIn, clientOut := io.Pipe()
	go func() {
		_ = Bridge(context.Background(), bridgeIn, bridgeOut, BridgeOptions{Endpoint: "http://127.0.0.1:1/mcp", Token: "x"})
		bridgeOut.Close()
	}()
	defer clientOut.Close()
	_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot reach AstroResearch at http://127.0.0.1:1/mcp") {
		t.Fatalf("%v", err)
	}
}

// TestBridgeCancel: a call the client gives up on is stopped on the
// server (the bridge drops its HTTP request), is audited as cancelled, and
// the bridge goes on relaying other calls.
func TestBridgeCancel(t *testing.T) {
	f := newFixture(t)
	cs, err := f.bridged("vera-token")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	callErr := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rag_search", Arguments: map[string]any{"query": "slow"}})
		callErr <- err
	}()
	<-f.ask.started
	cancel()
	if err := <-callErr; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	<-f.ask.stopped // the tool's context ended: the server stopped the call
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "library_search", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("after a cancel: %+v %v", res, err)
	}
	sess, err := f.st.MCPSession(context.Background(), f.vera.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.st.AuditForSession(context.Background(), sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{}
	for _, r := range rows {
		statuses[r.Tool] = r.Status
	}
	if statuses["rag_search"] != "cancelled" || statuses["library_search"] != "ok" {
		t.Fatalf("audit %v", statuses)
	}
}

// TestBridgeRedirect: a redirect is not followed, so the token reaches no
// other address (here plain http elsewhere), and the client is told where
// the server points.
func TestBridgeRedirect(t *testing.T) {
	leaked := make(chan string, 8)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked <- r.Header.Get("Authorization")
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer elsewhere.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	clientIn, bridgeOut := io.Pipe()
	bridgeIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Bridge(context.Background(), bridgeIn, bridgeOut, BridgeOptions{Endpoint: redirect.URL + "/mcp", Token: "secret-token"})
		bridgeOut.Close()
	}()
	_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err == nil || !strings.Contains(err.Error(), "redirects (HTTP 307) to "+elsewhere.URL+"/mcp") {
		t.Fatalf("connect through a redirect: %v", err)
	}
	clientOut.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case auth := <-leaked:
		t.Fatalf("the redirect was followed, Authorization %q", auth)
	default:
	}
}
