package handlers

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The audit log viewer (docs/features.md W2): the tool calls of the signed-in user's
// sessions, filtered by session, tool and status through the query string,
// auditPageSize rows a page. Admins may list every user's rows (all=1).

// auditPageSize is how many rows one page shows.
const auditPageSize = 50

// maxAuditPage bounds ?page= (a deeper offset only burns database time).
const maxAuditPage = 100_000

// auditPage is GET /audit.
func (s *Server) auditPage(c echo.Context) error {
	ctx := c.Request().Context()
	u := currentUser(c)
	q := c.QueryParams()
	page := views.AuditPage{
		Chrome:   s.chrome(c, "Audit log", "audit"),
		Filter:   views.AuditFilter{Session: q.Get("session"), Tool: q.Get("tool"), Status: q.Get("status")},
		Statuses: store.AuditStatuses, CanAll: u.IsAdmin(), Page: 1,
	}
	page.Filter.All = page.CanAll && q.Get("all") != ""
	scope := u.ID
	if page.Filter.All {
		scope = 0
	}
	msg := ""
	switch {
	case page.Filter.Tool != "" && !toolNameRE.MatchString(page.Filter.Tool):
		msg = "A tool name is letters, digits and _ . : - (up to 64 characters)."
	case page.Filter.Status != "" && !slices.Contains(store.AuditStatuses, page.Filter.Status):
		msg = "Choose one of the listed statuses."
	case len(page.Filter.Session) > 64:
		msg = "A session id is at most 64 characters."
	}
	if v := q.Get("page"); v != "" && msg == "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAuditPage {
			msg = "The page must be a number from 1 to 100000."
		}
		page.Page = n
	}
	// Someone else's session is indistinguishable from none (S8).
	if page.Filter.Session != "" && !page.Filter.All && msg == "" {
		if _, err := s.st.AuditSession(ctx, u.ID, page.Filter.Session); err != nil {
			return agentError(err)
		}
	}
	if err := s.auditOptions(c, &page, scope); err != nil {
		return err
	}
	if msg != "" {
		page.Error, page.Page = msg, 1
		return s.render(c, http.StatusBadRequest, views.Audit(page))
	}
	rows, more, err := s.st.QueryAudit(ctx, store.AuditFilter{UserID: scope, SessionID: page.Filter.Session,
		Tool: page.Filter.Tool, Status: page.Filter.Status, Limit: auditPageSize, Offset: (page.Page - 1) * auditPageSize})
	if err != nil {
		return err
	}
	for _, r := range rows {
		f := page.Filter
		f.Session = r.SessionID
		page.Rows = append(page.Rows, views.AuditRow{SessionID: r.SessionID, SessionTitle: r.SessionTitle,
			SessionURL: s.auditURL(f, 1), Username: r.Username, Turn: r.Turn, Step: r.Step, Agent: r.AgentName, Tool: r.Tool,
			Status: r.Status, ElapsedMS: r.ElapsedMS, Preview: r.OutputPreview, When: r.CreatedAt})
	}
	if page.Page > 1 {
		page.PrevURL = s.auditURL(page.Filter, page.Page-1)
	}
	if more {
		page.NextURL = s.auditURL(page.Filter, page.Page+1)
	}
	return s.render(c, http.StatusOK, views.Audit(page))
}

// auditOptions fills the filter form's choices.
func (s *Server) auditOptions(c echo.Context, page *views.AuditPage, scope int64) error {
	ctx := c.Request().Context()
	tools, err := s.st.AuditTools(ctx, scope)
	if err != nil {
		return err
	}
	page.Tools = tools
	if page.Filter.All {
		return nil
	}
	list, err := s.st.ListAgentSessions(ctx, currentUser(c).ID, 500)
	if err != nil {
		return err
	}
	for _, a := range list {
		page.Sessions = append(page.Sessions, views.SessionOption{ID: a.ID, Title: a.Title})
	}
	return nil
}

// auditURL is the address of one page of the table under filter f.
func (s *Server) auditURL(f views.AuditFilter, n int) string {
	v := url.Values{}
	for k, x := range map[string]string{"session": f.Session, "tool": f.Tool, "status": f.Status} {
		if x != "" {
			v.Set(k, x)
		}
	}
	if f.All {
		v.Set("all", "1")
	}
	if n > 1 {
		v.Set("page", strconv.Itoa(n))
	}
	u := s.cfg.BasePath + "/audit"
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	return u
}
