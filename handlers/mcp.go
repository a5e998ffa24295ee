package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/views"
)

// The MCP endpoint (O6): streamable HTTP at BASE_PATH/mcp for other
// assistants, authenticated by the user's personal API token only (cookies
// are ignored, like the bookmarklet API). It is stateless — every POST is
// authenticated and served by a server built for that user — so a revoked
// token or a disabled account stops working at the next request, and
// GET/DELETE answer 405 as the transport allows. Browsers from other
// origins are refused by CORS layer (c) and the cross-site check, which
// together with the token requirement stands in for the SDK's own
// localhost check (see mcpserver.Service.Handler; TestMCPDNSRebinding).

// mcpRealm is the WWW-Authenticate realm of /mcp.
const mcpRealm = `Bearer realm="AstroResearch"`

// mcpAuth authenticates an MCP request by its Bearer token: none → 401
// with WWW-Authenticate; invalid, revoked or of a disabled account → 401
// with error="invalid_token".
func (s *Server) mcpAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		secret, ok := bearer(c.Request())
		if !ok || secret == "" {
			e := apiError(http.StatusUnauthorized, "unauthenticated",
				"Send your personal API token as Authorization: Bearer <token> (Settings → Personal API tokens).")
			e.header = http.Header{"Www-Authenticate": {mcpRealm}}
			return e
		}
		u, err := s.accounts.UserByToken(c.Request().Context(), secret)
		if errors.Is(err, auth.ErrBadToken) || errors.Is(err, auth.ErrDisabled) {
			e := apiError(http.StatusUnauthorized, "invalid_token", "The API token is invalid, revoked, or its account is disabled.")
			e.header = http.Header{"Www-Authenticate": {mcpRealm + `, error="invalid_token"`}}
			return e
		}
		if err != nil {
			return err
		}
		c.Set(ctxUser, &u)
		return next(c)
	}
}

// mcpEndpoint serves one MCP request for the authenticated user.
func (s *Server) mcpEndpoint(c echo.Context) error {
	s.mcp.Handler(c.Request().Context(), *currentUser(c)).ServeHTTP(c.Response(), c.Request())
	return nil
}

// mcpDeadline bounds one MCP request: the slowest tool call plus time to
// answer.
func (s *Server) mcpDeadline() time.Duration {
	d := s.cfg.AgentToolTimeout
	if d <= 0 {
		d = 120 * time.Second
	}
	return d + 30*time.Second
}

// mcpURL is the endpoint's absolute URL as the caller reaches it.
func (s *Server) mcpURL(c echo.Context) string {
	return s.proxies.origin(c.Request()) + s.cfg.BasePath + "/mcp"
}

// mcpSetup builds the settings page's MCP snippets for this server; nil
// without an MCP service.
func (s *Server) mcpSetup(c echo.Context) *views.MCPSetup {
	if s.mcp == nil {
		return nil
	}
	endpoint := s.mcpURL(c)
	server := strings.TrimSuffix(endpoint, "/mcp")
	return &views.MCPSetup{Endpoint: endpoint, ServerURL: server,
		ClaudeCodeCLI: `claude mcp add --transport http astroresearch ` + endpoint + ` --header "Authorization: Bearer $ASTRO_TOKEN"`,
		ClaudeCode: mcpJSON(map[string]any{"mcpServers": map[string]any{"astroresearch": map[string]any{
			"type": "http", "url": endpoint, "headers": map[string]string{"Authorization": "Bearer ${ASTRO_TOKEN}"}}}}),
		Crush: mcpJSON(map[string]any{"$schema": "https://charm.land/crush.json", "mcp": map[string]any{"astroresearch": map[string]any{
			"type": "http", "url": endpoint, "headers": map[string]string{"Authorization": "Bearer $ASTRO_TOKEN"}}}}),
		ClaudeDesktop: mcpJSON(map[string]any{"mcpServers": map[string]any{"astroresearch": map[string]any{
			"command": "astroresearch", "args": []string{"mcp", "--url", server, "--token-file", "/home/you/.config/astroresearch/token"}}}}),
	}
}

// mcpJSON renders a configuration snippet: indented, keys sorted, no HTML
// escaping (templ escapes on output).
func mcpJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // maps of strings always encode
	}
	return strings.TrimSpace(b.String())
}
