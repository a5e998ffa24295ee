package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// adminModel loads the admin page's data.
func (s *Server) adminModel(c echo.Context) (views.AdminPage, error) {
	ctx := c.Request().Context()
	users, err := s.accounts.ListUsers(ctx)
	if err != nil {
		return views.AdminPage{}, err
	}
	size, err := s.st.Size(ctx)
	if err != nil {
		return views.AdminPage{}, err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	me := currentUser(c)
	primary, active, switched := s.model.FallbackState()
	page := views.AdminPage{
		Model: views.ModelInfo{Endpoint: s.cfg.LLMBaseURL, Primary: primary, Active: active, Switched: switched,
			Window: s.contextWindow()},
		Chrome: s.chrome(c, "Admin", "admin"),
		System: views.SystemInfo{
			Version: s.version, Uptime: s.now().Sub(s.started), DatabaseBytes: size, Sandbox: s.sandbox.Message,
			HeapBytes: ms.HeapInuse, Goroutines: runtime.NumGoroutine(),
			Requests: s.metrics.requests.Load(), ClientErrors: s.metrics.clientErrors.Load(),
			ServerErrors: s.metrics.serverErrors.Load(), InFlight: s.metrics.inFlight.Load(),
		},
	}
	if s.agentMetrics != nil {
		page.Agent = agentCounters(s.agentMetrics.Totals())
	}
	for _, u := range users {
		page.Users = append(page.Users, views.UserRow{ID: u.ID, Username: u.Username, Role: string(u.Role),
			Disabled: u.Disabled, CreatedAt: u.CreatedAt, IsSelf: u.ID == me.ID})
	}
	return page, nil
}

func (s *Server) adminPage(c echo.Context) error {
	page, err := s.adminModel(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Admin(page))
}

// adminFail re-renders the admin page with an error.
func (s *Server) adminFail(c echo.Context, status int, edit func(*views.AdminPage)) error {
	page, err := s.adminModel(c)
	if err != nil {
		return err
	}
	edit(&page)
	return s.render(c, status, views.Admin(page))
}

func (s *Server) adminCreateUser(c echo.Context) error {
	name, role := c.FormValue("username"), c.FormValue("role")
	u, err := s.accounts.CreateUser(c.Request().Context(), name, c.FormValue("password"), store.Role(role))
	var ve *auth.ValidationError
	switch {
	case errors.As(err, &ve):
		return s.adminFail(c, http.StatusUnprocessableEntity, func(p *views.AdminPage) {
			p.Fields, p.NewName, p.NewRole = views.FieldErrors{ve.Field: sentence(ve)}, clip(name, 64), role
		})
	case errors.Is(err, auth.ErrNameTaken):
		return s.adminFail(c, http.StatusConflict, func(p *views.AdminPage) {
			p.Fields, p.NewName, p.NewRole = views.FieldErrors{"username": sentence(err)}, clip(name, 64), role
		})
	case err != nil:
		return err
	}
	s.log.Info("user created", "user", u.Username, "role", u.Role, "by", currentUser(c).Username)
	s.flash(c, fmt.Sprintf("User %s created.", u.Username))
	return s.redirect(c, "/admin")
}

func pathID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return 0, echo.ErrNotFound
	}
	return id, nil
}

func (s *Server) adminSetDisabled(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	disabled, err := strconv.ParseBool(c.FormValue("disabled"))
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form field disabled must be true or false.")
	}
	u, err := s.accounts.SetDisabled(c.Request().Context(), *currentUser(c), id, disabled)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.Is(err, auth.ErrSelf), errors.Is(err, auth.ErrLastAdmin):
		return s.adminFail(c, http.StatusConflict, func(p *views.AdminPage) { p.Error = sentence(err) })
	case err != nil:
		return err
	}
	verb := "enabled"
	if u.Disabled {
		verb = "disabled; their sessions have ended"
	}
	s.log.Info("user "+verb, "user", u.Username, "by", currentUser(c).Username)
	s.flash(c, fmt.Sprintf("User %s %s.", u.Username, verb))
	return s.redirect(c, "/admin")
}

func (s *Server) adminResetPassword(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	u, err := s.accounts.ResetPassword(c.Request().Context(), id, c.FormValue("password"))
	var ve *auth.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &ve):
		return s.adminFail(c, http.StatusUnprocessableEntity, func(p *views.AdminPage) { p.Error = sentence(ve) })
	case err != nil:
		return err
	}
	if u.ID == currentUser(c).ID {
		if err := s.startSession(c, u); err != nil {
			return err
		}
	}
	s.log.Info("password reset", "user", u.Username, "by", currentUser(c).Username)
	s.flash(c, fmt.Sprintf("Password of %s reset; their sessions have ended.", u.Username))
	return s.redirect(c, "/admin")
}

// maxModelName bounds a model name typed by an admin.
const maxModelName = 200

// adminSetModel switches the active model at run time (docs/features.md R5); the
// fallback state starts over from it.
func (s *Server) adminSetModel(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("model"))
	if name == "" || len(name) > maxModelName || strings.ContainsAny(name, "\r\n\t") {
		return s.adminFail(c, http.StatusUnprocessableEntity, func(p *views.AdminPage) {
			p.Error = "Enter a model name (at most 200 characters), as the endpoint lists it."
		})
	}
	s.model.SetModel(name)
	s.log.Info("model switched", "model", name, "by", currentUser(c).Username)
	// The new model's context window, so the limits and the pages fit it
	// before the next turn (bounded: a slow server cannot hold the page).
	ctx, cancel := context.WithTimeout(c.Request().Context(), 5*time.Second)
	s.agent.RefreshLimits(ctx)
	cancel()
	s.flash(c, fmt.Sprintf("New turns now use the model %s.", name))
	return s.redirect(c, "/admin")
}

// adminBackup writes a consistent copy of the database (docs/features.md O5).
func (s *Server) adminBackup(c echo.Context) error {
	dir := filepath.Join(s.dataDir, "backups")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("backup directory: %w", err)
	}
	dest := filepath.Join(dir, "astroresearch-"+s.now().UTC().Format("20060102-150405")+".db")
	if err := s.st.Backup(c.Request().Context(), dest); err != nil {
		return err
	}
	s.log.Info("database backed up", "path", dest, "by", currentUser(c).Username)
	page, err := s.adminModel(c)
	if err != nil {
		return err
	}
	page.BackupPath = dest
	return s.render(c, http.StatusOK, views.Admin(page))
}

// agentCounters turns the agent's totals into the admin view, tools most
// called first.
func agentCounters(t agent.AgentTotals) *views.AgentCounters {
	out := &views.AgentCounters{Turns: t.Turns, Steps: t.Steps, PromptTokens: t.PromptTokens,
		CompletionTokens: t.CompletionTokens, ToolErrors: t.ToolErrors, Duplicates: t.Duplicates,
		Compactions: t.Compactions, MCPCalls: t.MCPCalls, MCPErrors: t.MCPErrors}
	for name, n := range t.ToolCalls {
		out.Tools = append(out.Tools, views.ToolCount{Name: name, Calls: n, Millis: t.ToolMillis[name]})
	}
	slices.SortFunc(out.Tools, func(a, b views.ToolCount) int {
		if a.Calls != b.Calls {
			return b.Calls - a.Calls
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
