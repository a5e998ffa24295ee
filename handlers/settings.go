package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// settingsModel loads the settings page's data for the current user.
func (s *Server) settingsModel(c echo.Context) (views.SettingsPage, error) {
	u := currentUser(c)
	toks, err := s.accounts.ListTokens(c.Request().Context(), u.ID)
	if err != nil {
		return views.SettingsPage{}, err
	}
	page := views.SettingsPage{Chrome: s.chrome(c, "Settings", "settings"), Bookmarklet: s.bookmarkletURL(c), MCP: s.mcpSetup(c)}
	for _, t := range toks {
		page.Tokens = append(page.Tokens, views.TokenRow{ID: t.ID, Name: t.Name, Hint: t.Hint, CreatedAt: t.CreatedAt, LastUsed: t.LastUsedAt})
	}
	rules, err := s.st.PermissionRules(c.Request().Context(), u.ID)
	if err != nil {
		return views.SettingsPage{}, err
	}
	for _, r := range rules {
		page.Rules = append(page.Rules, views.RuleRow{ID: r.ID, Tool: r.Tool, Pattern: r.Pattern, Decision: r.Decision, CreatedAt: r.CreatedAt})
	}
	return page, nil
}

func (s *Server) settingsPage(c echo.Context) error {
	page, err := s.settingsModel(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Settings(page))
}

// changePassword changes the caller's password. Every session of the user
// ends (the epoch moves); this one continues under a fresh token.
func (s *Server) changePassword(c echo.Context) error {
	current, next, confirm := c.FormValue("current_password"), c.FormValue("new_password"), c.FormValue("confirm_password")
	fail := func(status int, field, msg string) error {
		page, err := s.settingsModel(c)
		if err != nil {
			return err
		}
		page.PasswordFields = views.FieldErrors{field: msg}
		return s.render(c, status, views.Settings(page))
	}
	if next != confirm {
		return fail(http.StatusUnprocessableEntity, "confirm_password", "The two new passwords differ.")
	}
	u, err := s.accounts.ChangePassword(c.Request().Context(), currentUser(c).ID, current, next)
	var ve *auth.ValidationError
	if errors.As(err, &ve) {
		return fail(http.StatusUnprocessableEntity, ve.Field, sentence(ve))
	}
	if err != nil {
		return err
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	s.flash(c, "Password changed. Your other sessions have been signed out.")
	return s.redirect(c, "/settings")
}

// createToken makes an API token and shows its secret once.
func (s *Server) createToken(c echo.Context) error {
	secret, tok, err := s.accounts.CreateToken(c.Request().Context(), currentUser(c).ID, c.FormValue("name"))
	var ve *auth.ValidationError
	if err != nil && !errors.As(err, &ve) {
		return err
	}
	page, lerr := s.settingsModel(c)
	if lerr != nil {
		return lerr
	}
	if ve != nil {
		page.TokenError = sentence(ve)
		return s.render(c, http.StatusUnprocessableEntity, views.Settings(page))
	}
	page.NewToken, page.NewTokenName = secret, tok.Name
	// Not cached anywhere: the secret appears in this response only.
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.render(c, http.StatusCreated, views.Settings(page))
}

// revokeToken revokes one of the caller's tokens.
func (s *Server) revokeToken(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.ErrNotFound
	}
	err = s.accounts.RevokeToken(c.Request().Context(), currentUser(c).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	s.flash(c, "Token revoked.")
	return s.redirect(c, "/settings")
}
