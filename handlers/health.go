package handlers

import (
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// healthz is the liveness probe: the process answers.
func (s *Server) healthz(c echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// readyz is the readiness probe: migrations applied and the database
// reachable (docs/features.md W5).
func (s *Server) readyz(c echo.Context) error {
	if !s.ready.Load() {
		return c.String(http.StatusServiceUnavailable, "starting: migrations not applied yet\n")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.st.Ping(ctx); err != nil {
		s.log.Error("readiness: database unreachable", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unreachable\n")
	}
	return c.String(http.StatusOK, "ready\n")
}

var assetTypes = map[string]bool{".css": true, ".js": true, ".svg": true, ".png": true, ".ico": true,
	".woff2": true, ".woff": true, ".ttf": true, ".map": true, ".txt": true}

// serveStatic serves embedded assets. Only asset file types are served
// (never the Go sources beside them), with a validator-based cache.
func (s *Server) serveStatic(c echo.Context) error {
	name := path.Clean(strings.TrimPrefix(c.Param("*"), "/"))
	ext := path.Ext(name)
	if !assetTypes[ext] || !fs.ValidPath(name) {
		return echo.ErrNotFound
	}
	data, err := fs.ReadFile(s.static, name)
	if err != nil {
		return echo.ErrNotFound
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	// ServeContent sets the type from the extension and answers
	// If-Modified-Since with 304.
	http.ServeContent(c.Response(), c.Request(), name, s.started, bytes.NewReader(data))
	return nil
}
