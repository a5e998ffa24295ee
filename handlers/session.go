package handlers

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/store"
)

// Session keys. Times are Unix seconds from the server's clock.
const (
	keyUserID  = "uid"
	keyEpoch   = "epoch"   // users.session_epoch when the session was created
	keyCreated = "created" // sign-in time, for the absolute lifetime
	keySeen    = "seen"    // last activity, for the idle timeout
	keyFlash   = "flash"
)

// seenResolution bounds how often activity is written back: the idle
// timeout is precise to this, and a burst of page loads costs one write.
const seenResolution = time.Minute

// sessionManagers holds one scs manager per transport so that under HTTPS
// the cookie is Secure and named with the __Host- prefix, while plain HTTP
// on localhost still works. Both share one store.
type sessionManagers struct {
	plain, secure *scs.SessionManager
	proxies       trustedProxies
}

func newSessionManagers(cfg config.Config, st scs.Store, tp trustedProxies, onErr func(http.ResponseWriter, *http.Request, error)) sessionManagers {
	mk := func(secure bool) *scs.SessionManager {
		m := scs.New()
		m.Store = st
		m.Codec = sessionCodec{}
		// The store row and cookie live for the absolute lifetime; the
		// idle timeout is enforced in authenticate with the injectable clock.
		m.Lifetime = cfg.SessionLifetime
		m.Cookie.HttpOnly = true
		m.Cookie.SameSite = http.SameSiteStrictMode
		m.Cookie.Path = "/"
		m.Cookie.Persist = false
		m.Cookie.Secure = secure
		m.Cookie.Name = "astro_session"
		if secure {
			m.Cookie.Name = "__Host-astro_session"
		}
		m.ErrorFunc = onErr
		return m
	}
	return sessionManagers{plain: mk(false), secure: mk(true), proxies: tp}
}

// For returns the manager matching the request's transport.
func (sm sessionManagers) For(r *http.Request) *scs.SessionManager {
	if sm.proxies.isHTTPS(r) {
		return sm.secure
	}
	return sm.plain
}

// loadSession is the scs LoadAndSave middleware of the right manager.
func (s *Server) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		var err error
		s.sessions.For(c.Request()).LoadAndSave(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c.SetRequest(r)
			c.Response().Writer = w
			err = next(c)
			if err != nil {
				// Render the error inside LoadAndSave so the session (e.g. a
				// destroyed cookie) is still written with the response.
				c.Error(err)
				err = nil
			}
		})).ServeHTTP(c.Response().Writer, c.Request())
		return err
	}
}

func (s *Server) sessionError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("session store failed", "err", err, "path", logPath(r.URL.Path))
	http.Error(w, "The session store is unavailable. Please try again.", http.StatusServiceUnavailable)
}

const ctxUser = "astro.user"

// currentUser returns the signed-in user, or nil.
func currentUser(c echo.Context) *store.User {
	u, _ := c.Get(ctxUser).(*store.User)
	return u
}

// authenticate identifies the caller from a Bearer token or the session
// cookie and puts the user into the context. It never rejects by itself
// (see requireUser), except that an invalid Bearer token is answered 401:
// a script that sent a token meant to be authenticated.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if secret, ok := bearer(c.Request()); ok {
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
		u, err := s.sessionUser(c)
		if err != nil {
			return err
		}
		if u != nil {
			c.Set(ctxUser, u)
		}
		return next(c)
	}
}

// sessionUser returns the session's user, destroying the session when it
// is past its absolute lifetime or idle timeout, or when the account was
// disabled or its password changed since the session began.
func (s *Server) sessionUser(c echo.Context) (*store.User, error) {
	ctx, m := c.Request().Context(), s.sm(c)
	id := m.GetInt64(ctx, keyUserID)
	if id == 0 {
		return nil, nil
	}
	now := s.now()
	created := time.Unix(m.GetInt64(ctx, keyCreated), 0)
	seen := time.Unix(m.GetInt64(ctx, keySeen), 0)
	u, err := s.accounts.UserByID(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	case u.Disabled, u.SessionEpoch != m.GetInt64(ctx, keyEpoch):
	case now.Sub(created) >= s.cfg.SessionLifetime, now.Sub(seen) >= s.cfg.SessionIdleTimeout:
	default:
		if now.Sub(seen) >= seenResolution {
			m.Put(ctx, keySeen, now.Unix())
		}
		return &u, nil
	}
	return nil, m.Destroy(ctx)
}

// startSession signs u in on this request: a fresh token (no fixation),
// then the user, epoch and times.
func (s *Server) startSession(c echo.Context, u store.User) error {
	ctx, m := c.Request().Context(), s.sm(c)
	if err := m.RenewToken(ctx); err != nil {
		return err
	}
	// The store row expires by the same clock that judges the session.
	m.SetDeadline(ctx, s.now().Add(s.cfg.SessionLifetime))
	now := s.now().Unix()
	m.Put(ctx, keyUserID, u.ID)
	m.Put(ctx, keyEpoch, u.SessionEpoch)
	m.Put(ctx, keyCreated, now)
	m.Put(ctx, keySeen, now)
	return nil
}

// endSession signs the caller out: the token is renewed (so the old cookie
// value is dead even if the response is lost) and the session destroyed.
func (s *Server) endSession(c echo.Context) error {
	ctx, m := c.Request().Context(), s.sm(c)
	if err := m.RenewToken(ctx); err != nil {
		return err
	}
	return m.Destroy(ctx)
}

func (s *Server) flash(c echo.Context, msg string) {
	s.sm(c).Put(c.Request().Context(), keyFlash, msg)
}

func (s *Server) popFlash(c echo.Context) string {
	return s.sm(c).PopString(c.Request().Context(), keyFlash)
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// requireUser rejects anonymous callers: JSON 401 on /api, a redirect to
// the login (or setup) page otherwise.
func (s *Server) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if currentUser(c) != nil {
			return next(c)
		}
		if s.isAPI(c) {
			return apiError(http.StatusUnauthorized, "unauthenticated", "Sign in or send an API token.")
		}
		need, err := s.accounts.NeedsSetup(c.Request().Context())
		if err != nil {
			return err
		}
		if need {
			return s.redirect(c, "/setup")
		}
		target := "/login"
		if c.Request().Method == http.MethodGet {
			if next := strings.TrimPrefix(c.Request().URL.RequestURI(), s.cfg.BasePath); next != "/" && safeNext(next) != "" {
				target += "?next=" + urlQueryEscape(next)
			}
		}
		return s.redirect(c, target)
	}
}

// requireAdmin rejects callers who are not admins with 403.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if u := currentUser(c); u == nil || !u.IsAdmin() {
			return echo.NewHTTPError(http.StatusForbidden, "This page is for administrators.")
		}
		return next(c)
	}
}
