package handlers

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/views"
)

// render writes a templ component with status. It renders into a buffer
// first, so a failing component becomes a proper error page instead of a
// half-written response.
// Buffers are reused through s.bufs: pages are tens of kilobytes, and
// growing a fresh buffer for each was most of a cached page's garbage.
func (s *Server) render(c echo.Context, status int, comp templ.Component) error {
	buf, _ := s.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			s.bufs.Put(buf)
		}
	}()
	if err := comp.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// maxPooledBuffer is the largest render buffer kept for reuse; the rare
// huge page's buffer is left to the garbage collector.
const maxPooledBuffer = 1 << 20

// chrome builds the layout model for the current request.
func (s *Server) chrome(c echo.Context, title, active string) views.Chrome {
	ch := views.Chrome{BasePath: s.cfg.BasePath, Title: title, Active: active, Assets: s.assets.paths, Triage: s.triage != nil}
	if u := currentUser(c); u != nil {
		ch.User = &views.CurrentUser{Username: u.Username, IsAdmin: u.IsAdmin()}
		ch.Flash = s.popFlash(c)
	}
	return ch
}

// mathChrome is chrome for a page that shows rendered Markdown with
// formulas: KaTeX is loaded.
func (s *Server) mathChrome(c echo.Context, title, active string) views.Chrome {
	ch := s.chrome(c, title, active)
	ch.Math = true
	return ch
}

// redirect answers 303 See Other to a path inside the base path.
func (s *Server) redirect(c echo.Context, path string) error {
	return c.Redirect(http.StatusSeeOther, s.cfg.BasePath+path)
}

// isAPI reports whether the request is for the JSON API.
func (s *Server) isAPI(c echo.Context) bool {
	return strings.HasPrefix(strings.TrimPrefix(c.Request().URL.Path, s.cfg.BasePath), "/api/")
}

// APIError is the JSON error body of docs/features.md §9.
type APIError struct {
	Error APIErrorBody `json:"error"`
}

// APIErrorBody carries a stable machine code and a human message.
type APIErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// codedError is an HTTP error with a stable code for the JSON API.
type codedError struct {
	status  int
	code    string
	message string
	header  http.Header
}

func (e *codedError) Error() string { return e.code + ": " + e.message }

func apiError(status int, code, message string) *codedError {
	return &codedError{status: status, code: code, message: message}
}

// handleError is echo's error handler: JSON on the API, an HTML page
// elsewhere. Internal errors are logged with the request id and shown to the
// user only as a generic message.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, code, msg := http.StatusInternalServerError, "internal", "Something went wrong on our side. The error has been logged."
	var ce *codedError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ce):
		status, code, msg = ce.status, ce.code, ce.message
		for k, vs := range ce.header {
			for _, v := range vs {
				c.Response().Header().Add(k, v)
			}
		}
	case errors.As(err, &he):
		status = he.Code
		code = strings.ToLower(strings.ReplaceAll(http.StatusText(status), " ", "_"))
		if m, ok := he.Message.(string); ok && he.Internal == nil {
			msg = m
		} else {
			msg = http.StatusText(status)
		}
		if status == http.StatusNotFound {
			msg = "There is nothing at this address."
		}
	}
	if status >= 500 {
		s.log.Error("request failed", "err", err, "status", status, "path", logPath(c.Request().URL.Path),
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	var werr error
	switch {
	case c.Request().Method == http.MethodHead:
		werr = c.NoContent(status)
	case s.isAPI(c) || wantsJSON(c.Request()):
		werr = c.JSON(status, APIError{Error: APIErrorBody{Code: code, Message: msg}})
	default:
		page := views.ErrorPage{Chrome: s.chrome(c, http.StatusText(status), ""), Status: status, Message: msg}
		werr = s.render(c, status, views.Error(page))
	}
	if werr != nil {
		s.log.Error("writing error response failed", "err", werr)
	}
}

func wantsJSON(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Accept"), "application/json") ||
		strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")
}

// safeNext returns p when it is a local path safe to redirect to after
// sign-in, and "" otherwise (absolute URLs, protocol-relative and
// backslash tricks are refused).
func safeNext(p string) string {
	if p == "" || p[0] != '/' || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n\t") {
		return ""
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	return p
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
