package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/auth"
)

// The three CORS layers of docs/features.md S4, chosen by path in cors:
//
//	(a) /api/auth/*        same origin, plus CORS_DEV_ORIGINS with credentials
//	(b) /api/bookmarklet/* any origin, never with credentials; token auth only
//	(c) everything else    same origin only: no CORS headers, foreign preflights
//	                       and foreign state-changing requests refused
//
// cors runs before routing so preflight requests are answered even though no
// OPTIONS routes exist.
func (s *Server) cors(next echo.HandlerFunc) echo.HandlerFunc {
	auth, open, same := s.corsAuth(next), s.corsOpen(next), s.corsSameOrigin(next)
	return func(c echo.Context) error {
		p := strings.TrimPrefix(c.Request().URL.Path, s.cfg.BasePath)
		switch {
		case strings.HasPrefix(p, "/api/auth/"):
			return auth(c)
		case strings.HasPrefix(p, "/api/bookmarklet/"):
			return open(c)
		default:
			return same(c)
		}
	}
}

func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

func isSafeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

var errCrossOrigin = apiError(http.StatusForbidden, "cross_origin", "Cross-origin requests are not allowed here.")

// corsAuth is layer (a).
func (s *Server) corsAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		origin := r.Header.Get("Origin")
		if origin == "" || origin == s.proxies.origin(r) {
			return next(c)
		}
		if !slices.Contains(s.cfg.CORSDevOrigins, origin) {
			return errCrossOrigin
		}
		h := c.Response().Header()
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		if isPreflight(r) {
			h.Set("Access-Control-Allow-Methods", "GET, POST")
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusNoContent)
		}
		return next(c)
	}
}

// corsOpen is layer (b): readable from any origin, but credentials are
// never allowed, so a page elsewhere cannot act with the user's cookie.
func (s *Server) corsOpen(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if isPreflight(c.Request()) {
			h.Set("Access-Control-Allow-Methods", "POST")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusNoContent)
		}
		return next(c)
	}
}

// corsSameOrigin is layer (c).
func (s *Server) corsSameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		origin := r.Header.Get("Origin")
		if origin != "" && origin != s.proxies.origin(r) && (isPreflight(r) || !isSafeMethod(r.Method)) {
			return errCrossOrigin
		}
		return next(c)
	}
}

// csrf refuses cross-site state-changing requests with Go's
// http.CrossOriginProtection (Sec-Fetch-Site, then Origin against Host).
// The bookmarklet API is exempt: it takes no cookies, only tokens.
func (s *Server) csrf() (echo.MiddlewareFunc, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range s.cfg.CORSDevOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("trusted origin %q: %w", o, err)
		}
	}
	cop.AddInsecureBypassPattern(s.cfg.BasePath + "/api/bookmarklet/")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return apiError(http.StatusForbidden, "cross_site", "This request came from another site and was refused. Reload the page and try again.")
			}
			return next(c)
		}
	}, nil
}

// tokenOnly authenticates by API token alone (layer b): cookies are
// ignored, so nothing a browser sends on its own can act for the user.
func (s *Server) tokenOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		secret, ok := bearer(c.Request())
		if !ok {
			return apiError(http.StatusUnauthorized, "unauthenticated", "Send your API token as Authorization: Bearer <token>.")
		}
		u, err := s.accounts.UserByToken(c.Request().Context(), secret)
		if errors.Is(err, auth.ErrBadToken) || errors.Is(err, auth.ErrDisabled) {
			return apiError(http.StatusUnauthorized, "invalid_token", "The API token is invalid, revoked, or its account is disabled.")
		}
		if err != nil {
			return err
		}
		c.Set(ctxUser, &u)
		return next(c)
	}
}
