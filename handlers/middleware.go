package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"path"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
)

// contentSecurityPolicy is docs/features.md S5's policy: only our own scripts, styles
// and images (plus data: images), no plugins, no <base>, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
	"frame-ancestors 'none'; form-action 'self'"

// securityHeaders sets the response headers of docs/features.md S5 on every response.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if s.proxies.isHTTPS(c.Request()) {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		return next(c)
	}
}

// requestID gives every request an id (kept from a trusted proxy's
// X-Request-Id, generated otherwise), echoed in the response header.
func (s *Server) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		id := r.Header.Get(echo.HeaderXRequestID)
		if id == "" || len(id) > 128 || !s.proxies.fromTrustedPeer(r) {
			id = uuid.NewString()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// accessLog writes one structured line per request and counts it.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		s.metrics.inFlight.Add(1)
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		s.metrics.inFlight.Add(-1)
		status := c.Response().Status
		s.metrics.count(status)
		level := accessLevel(c.Request().URL.Path, status)
		attrs := []slog.Attr{
			slog.String("method", c.Request().Method),
			slog.String("path", logPath(c.Request().URL.Path)),
			slog.Int("status", status),
			slog.Duration("duration", time.Since(start)),
			slog.String("ip", c.RealIP()),
			slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
		}
		if u := currentUser(c); u != nil {
			attrs = append(attrs, slog.Int64("user_id", u.ID))
		}
		s.log.LogAttrs(c.Request().Context(), level, "http", attrs...)
		return nil
	}
}

// accessLevel keeps probes out of the info log and reserves ERROR for real
// failures: a 503 while starting is expected, not an error.
func accessLevel(urlPath string, status int) slog.Level {
	switch {
	case status == http.StatusServiceUnavailable:
		return slog.LevelWarn
	case status >= 500:
		return slog.LevelError
	case path.Base(urlPath) == "healthz" || path.Base(urlPath) == "readyz":
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// readyGate answers 503 to everything but the health probes until the
// database is migrated.
func (s *Server) readyGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.ready.Load() {
			p := path.Base(c.Request().URL.Path)
			if p != "healthz" && p != "readyz" {
				c.Response().Header().Set("Retry-After", "1")
				return echo.NewHTTPError(http.StatusServiceUnavailable, "AstroResearch is starting; try again in a moment.")
			}
		}
		return next(c)
	}
}

// deadline bounds a route: its context is cancelled and its response write
// deadline set after d. Long-lived routes (event streams) do not use it;
// this is why the server itself has no WriteTimeout.
func deadline(d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			orig := c.Request()
			ctx, cancel := context.WithTimeout(orig.Context(), d)
			defer cancel()
			c.SetRequest(orig.WithContext(ctx))
			// Errors are rendered by outer middleware after this returns,
			// so they must not see the cancelled context.
			defer c.SetRequest(orig)
			// Not every writer supports deadlines (httptest's recorder does
			// not); the context deadline still applies then.
			_ = http.NewResponseController(c.Response().Writer).SetWriteDeadline(time.Now().Add(d))
			return next(c)
		}
	}
}

// metrics are process-wide request counters shown to admins (docs/features.md O4).
type metrics struct {
	requests, clientErrors, serverErrors atomic.Uint64
	inFlight                             atomic.Int64
}

func (m *metrics) count(status int) {
	m.requests.Add(1)
	switch {
	case status >= 500:
		m.serverErrors.Add(1)
	case status >= 400:
		m.clientErrors.Add(1)
	}
}
