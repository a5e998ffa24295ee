package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/views"
)

// resolveTarget resolves name and maps failures to a status and a message
// for the user.
func (s *Server) resolveTarget(c echo.Context, name string) (sesame.Object, int, string, error) {
	o, err := s.targets.Resolve(c.Request().Context(), name)
	switch {
	case err == nil:
		return o, http.StatusOK, "", nil
	case errors.Is(err, sesame.ErrNotFound):
		return o, http.StatusNotFound, "\u201c" + name + "\u201d was not found by Sesame (SIMBAD, NED and VizieR).", nil
	case errors.Is(err, sesame.ErrUnavailable):
		s.log.Warn("Sesame unavailable", "err", err)
		return o, http.StatusServiceUnavailable, "Sesame could not be reached right now. Try again in a minute.", nil
	case c.Request().Context().Err() != nil:
		return o, 0, "", err
	default:
		return o, http.StatusBadRequest, "That name cannot be resolved: use letters, digits and spaces, at most 200 characters.", nil
	}
}

// apiTarget is GET /api/targets/{name}.
func (s *Server) apiTarget(c echo.Context) error {
	o, status, msg, err := s.resolveTarget(c, c.Param("name"))
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return apiError(status, codeForTarget(status), msg)
	}
	return c.JSON(http.StatusOK, o)
}

func codeForTarget(status int) string {
	switch status {
	case http.StatusNotFound:
		return "not_found"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	return "invalid_request"
}

// targetsPage is GET /targets?name=: the resolve box and its answer.
func (s *Server) targetsPage(c echo.Context) error {
	page := views.TargetPage{Chrome: s.chrome(c, "Resolve an object", ""), Name: strings.TrimSpace(c.QueryParam("name"))}
	if page.Name == "" {
		return s.render(c, http.StatusOK, views.Targets(page))
	}
	page.Title = page.Name + " — resolve"
	o, status, msg, err := s.resolveTarget(c, page.Name)
	if err != nil {
		return err
	}
	if status == http.StatusOK {
		page.Object = &o
	}
	page.Error = msg
	return s.render(c, status, views.Targets(page))
}
