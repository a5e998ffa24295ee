package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServerFor: building the per-request server (tools, templates,
// prompts from the skills directory).
func BenchmarkServerFor(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		f.svc.ServerFor(ctx, f.vera)
	}
}

// BenchmarkStatelessCall: one tools/call request over HTTP as the
// endpoint serves it (a server per request), library_search on a small
// library; reports requests per second.
func BenchmarkStatelessCall(b *testing.B) {
	f := newFixture(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := f.svc.ServerFor(r.Context(), f.vera)
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}).ServeHTTP(w, r)
	}))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"library_search","arguments":{"query":"shadow"}}}`
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
