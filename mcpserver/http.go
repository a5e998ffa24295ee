package mcpserver

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/store"
)

// MaxBody bounds one MCP request body.
const MaxBody = 1 << 20

// Handler serves u's MCP requests over streamable HTTP, statelessly (no
// MCP session outlives a request). The caller has authenticated u; it
// also refuses other sites' browsers, which is why the SDK's localhost
// check is off: that check exists for unauthenticated local servers
// (DNS rebinding), would refuse every request a reverse proxy on the same
// host forwards, and protects nothing here, where every request needs a
// token that a rebinding page cannot know. A call ends when its HTTP
// request does: a client that hangs up stops its tool.
func (s *Service) Handler(ctx context.Context, u store.User) http.Handler {
	srv := s.ServerFor(ctx, u)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless: true, DisableLocalhostProtection: true, Logger: s.log, MaxRequestBodyBytes: MaxBody})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, r.Context())))
	})
}

// requestKey holds the HTTP request's context among the values the SDK
// passes on to the method handlers (it detaches them from the request's
// cancellation for this protocol version).
type requestKey struct{}

// requestScope ends each method's context when its HTTP request ends.
func requestScope(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		rc, ok := ctx.Value(requestKey{}).(context.Context)
		if !ok {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(rc, cancel)
		defer stop()
		return next(ctx, method, req)
	}
}
