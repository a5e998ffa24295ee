package handlers

import (
	"context"
	"net/http"
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
