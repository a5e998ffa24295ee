package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// UserJSON is a user as the JSON API shows it.
type UserJSON struct {
	ID        int64     `json:"id"`
	Username  string    `json:"username"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

func userJSON(u store.User) UserJSON {
	return UserJSON{ID: u.ID, Username: u.Username, Role: string(u.Role), CreatedAt: u.CreatedAt}
}

// UserResponse is the body of the auth endpoints: {"user": {...}}.
type UserResponse struct {
	User UserJSON `json:"user"`
}

// setupPage shows the first-run form while no account exists.
func (s *Server) setupPage(c echo.Context) error {
	need, err := s.accounts.NeedsSetup(c.Request().Context())
	if err != nil {
		return err
	}
	if !need {
		return s.redirect(c, "/login")
	}
	return s.render(c, http.StatusOK, views.Setup(views.SetupPage{Chrome: s.chrome(c, "Set up", "")}))
}

// setupSubmit creates the admin and signs them in.
func (s *Server) setupSubmit(c echo.Context) error {
	username, password := c.FormValue("username"), c.FormValue("password")
	u, err := s.accounts.Setup(c.Request().Context(), username, password)
	if errors.Is(err, auth.ErrSetupDone) {
		return echo.NewHTTPError(http.StatusConflict, "Setup is already complete: an administrator exists. Sign in instead.")
	}
	var ve *auth.ValidationError
	if errors.As(err, &ve) {
		page := views.SetupPage{Chrome: s.chrome(c, "Set up", ""), Username: username,
			Fields: views.FieldErrors{ve.Field: sentence(ve)}}
		return s.render(c, http.StatusUnprocessableEntity, views.Setup(page))
	}
	if err != nil {
		return err
	}
	s.log.Info("administrator created by setup", "user", u.Username)
	if err := s.startSession(c, u); err != nil {
		return err
	}
	s.flash(c, "Your administrator account is ready.")
	return s.redirect(c, "/")
}

// loginPage shows the sign-in form (or the setup page on a fresh install).
func (s *Server) loginPage(c echo.Context) error {
	need, err := s.accounts.NeedsSetup(c.Request().Context())
	if err != nil {
		return err
	}
	if need {
		return s.redirect(c, "/setup")
	}
	if currentUser(c) != nil {
		return s.redirect(c, "/")
	}
	page := views.LoginPage{Chrome: s.chrome(c, "Sign in", ""), Next: safeNext(c.QueryParam("next"))}
	return s.render(c, http.StatusOK, views.Login(page))
}

// loginSubmit checks the form and signs in.
func (s *Server) loginSubmit(c echo.Context) error {
	username, password := c.FormValue("username"), c.FormValue("password")
	next := safeNext(c.FormValue("next"))
	_, err := s.login(c, username, password)
	if err != nil {
		status, msg := loginRefusal(err)
		if status == 0 {
			return err
		}
		if rl := (*auth.RateLimitedError)(nil); errors.As(err, &rl) {
			c.Response().Header().Set("Retry-After", retryAfter(rl.Wait))
		}
		page := views.LoginPage{Chrome: s.chrome(c, "Sign in", ""), Username: clip(username, 64), Next: next, Error: msg}
		return s.render(c, status, views.Login(page))
	}
	if next == "" {
		next = "/"
	}
	return s.redirect(c, next)
}

// login authenticates and starts the session; shared by form and API.
func (s *Server) login(c echo.Context, username, password string) (store.User, error) {
	if len(username) > auth.MaxUsernameLen || len(password) > auth.MaxPasswordLen {
		return store.User{}, &auth.ValidationError{Field: "username", Message: "or password is too long"}
	}
	if username == "" || password == "" {
		return store.User{}, &auth.ValidationError{Field: "username", Message: "and password are required"}
	}
	u, err := s.accounts.Login(c.Request().Context(), c.RealIP(), username, password)
	if err != nil {
		return store.User{}, err
	}
	if err := s.startSession(c, u); err != nil {
		return store.User{}, err
	}
	s.log.Info("signed in", "user", u.Username, "ip", c.RealIP())
	return u, nil
}

// loginRefusal maps a login error to a status and message; status 0 means
// an internal error.
func loginRefusal(err error) (int, string) {
	var rl *auth.RateLimitedError
	var ve *auth.ValidationError
	switch {
	case errors.As(err, &rl):
		return http.StatusTooManyRequests, sentence(rl)
	case errors.As(err, &ve):
		return http.StatusBadRequest, sentence(ve)
	case errors.Is(err, auth.ErrBadCredentials):
		return http.StatusUnauthorized, sentence(err)
	case errors.Is(err, auth.ErrDisabled):
		return http.StatusForbidden, "This account is disabled. Ask an administrator to enable it."
	}
	return 0, ""
}

// logoutSubmit signs out and returns to the login page.
func (s *Server) logoutSubmit(c echo.Context) error {
	if err := s.endSession(c); err != nil {
		return err
	}
	return s.redirect(c, "/login")
}

// homePage is the signed-in landing page.
func (s *Server) homePage(c echo.Context) error {
	u := currentUser(c)
	page := views.HomePage{Chrome: s.chrome(c, "Home", "home"), Username: u.Username, Role: string(u.Role)}
	if !s.sandbox.Available {
		page.SandboxWarning = s.sandbox.Message + " The agent asks before every command; read each one before allowing it."
	}
	return s.render(c, http.StatusOK, views.Home(page))
}

// LoginRequest is the body of POST /api/auth/login.
type LoginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// apiLogin is POST /api/auth/login.
func (s *Server) apiLogin(c echo.Context) error {
	var req LoginRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := s.login(c, req.Username, req.Password)
	if err != nil {
		status, msg := loginRefusal(err)
		if status == 0 {
			return err
		}
		ce := apiError(status, codeFor(status), msg)
		if rl := (*auth.RateLimitedError)(nil); errors.As(err, &rl) {
			ce.header = http.Header{"Retry-After": {retryAfter(rl.Wait)}}
		}
		return ce
	}
	return c.JSON(http.StatusOK, UserResponse{User: userJSON(u)})
}

// apiLogout is POST /api/auth/logout.
func (s *Server) apiLogout(c echo.Context) error {
	if err := s.endSession(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiVerify is GET /api/auth/verify.
func (s *Server) apiVerify(c echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return apiError(http.StatusUnauthorized, "unauthenticated", "Not signed in.")
	}
	return c.JSON(http.StatusOK, UserResponse{User: userJSON(*u)})
}

func codeFor(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "rate_limited"
	case http.StatusBadRequest:
		return "invalid_request"
	case http.StatusUnauthorized:
		return "bad_credentials"
	case http.StatusForbidden:
		return "account_disabled"
	}
	return "error"
}

func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(d.Seconds()+0.999)))
}

// sentence renders an error as a user-facing sentence.
func sentence(err error) string {
	var ve *auth.ValidationError
	if errors.As(err, &ve) {
		return fmt.Sprintf("The %s %s.", fieldLabel(ve.Field), ve.Message)
	}
	msg := err.Error()
	if msg == "" {
		return msg
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func fieldLabel(f string) string {
	switch f {
	case "current_password":
		return "current password"
	case "confirm_password":
		return "repeated password"
	}
	return f
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
