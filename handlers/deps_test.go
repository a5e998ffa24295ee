package handlers

import (
	"errors"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/config"
)

func TestNewNamesMissingDependencies(t *testing.T) {
	_, err := New(Deps{})
	if !errors.Is(err, errMissingDeps) {
		t.Fatalf("New(Deps{}) error = %v, want errMissingDeps", err)
	}
	for _, name := range []string{"Store", "Accounts", "Log", "Static", "Ready", "Agent", "Events", "Model", "Targets", "Memory", "Library", "Papers"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	for _, optional := range []string{"Downloads", "Parser", "Rag", "Links", "BibTeX"} {
		if strings.Contains(err.Error(), optional) {
			t.Errorf("error %q names the optional %s", err, optional)
		}
	}
}

func TestRoutesReturnsCSRFError(t *testing.T) {
	s := &Server{cfg: config.Config{CORSDevOrigins: []string{"not an origin"}}, e: echo.New()}
	err := s.routes()
	if err == nil || !strings.Contains(err.Error(), `"not an origin"`) {
		t.Fatalf("routes() = %v, want an error naming the origin", err)
	}
}
