package handlers

import (
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// Renaming and deleting research sessions. Both are plain forms that post
// and are redirected (303); a refused rename shows the page again with the
// message beside the field.

// researchRename is POST /research/{id}/rename. return=list sends the
// browser back to the list, anything else to the session page.
func (s *Server) researchRename(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	title := strings.TrimSpace(c.FormValue("title"))
	toList := c.FormValue("return") == "list"
	msg := ""
	switch {
	case title == "":
		msg = "Write a title."
	case utf8.RuneCountInString(title) > store.MaxSessionTitle:
		msg = "The title is longer than 200 characters."
	case strings.ContainsFunc(title, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		msg = "The title cannot contain control characters."
	}
	if msg != "" {
		return s.renameRefused(c, a, title, msg, toList)
	}
	err = s.st.RenameAgentSession(c.Request().Context(), currentUser(c).ID, a.ID, title)
	if err != nil {
		return agentError(err)
	}
	s.flash(c, "Session renamed.")
	if toList {
		return s.redirect(c, "/research")
	}
	return s.redirect(c, "/research/"+a.ID)
}

// renameRefused shows the page the rename form was on again, with msg
// beside the title field (400).
func (s *Server) renameRefused(c echo.Context, a store.AgentSession, title, msg string, toList bool) error {
	if toList {
		page, err := s.researchListPage(c)
		if err != nil {
			return err
		}
		page.RenameID, page.RenameError = a.ID, msg
		return s.render(c, http.StatusBadRequest, views.ResearchList(page))
	}
	page, err := s.sessionPage(c, a, s.questionForm(a.ID))
	if err != nil {
		return err
	}
	page.Rename.Title, page.Rename.Error = title, msg
	return s.render(c, http.StatusBadRequest, views.ResearchSession(page))
}

// researchDeleteConfirm is GET /research/{id}/delete: the question before
// the deletion.
func (s *Server) researchDeleteConfirm(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.DeleteSession(s.deletePage(c, a)))
}

// turnRunningMsg explains why a session is not deleted.
const turnRunningMsg = "A turn is running in this session: stop it or wait for it to finish, then delete the session."

// deletePage is the confirmation page; it warns at once when a turn runs.
func (s *Server) deletePage(c echo.Context, a store.AgentSession) views.DeleteSessionPage {
	p := views.DeleteSessionPage{Chrome: s.chrome(c, "Delete "+sessionTitle(a.Title), "research"), SessionID: a.ID, Title: a.Title}
	if _, running := s.agent.Running(a.ID); running {
		p.Error = turnRunningMsg
	}
	return p
}

// researchDelete is POST /research/{id}/delete. A session with a running
// turn is not deleted (409): the turn would go on writing into it.
func (s *Server) researchDelete(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	if _, running := s.agent.Running(a.ID); running {
		page := s.deletePage(c, a)
		page.Error = turnRunningMsg
		return s.render(c, http.StatusConflict, views.DeleteSession(page))
	}
	err = s.st.DeleteAgentSession(c.Request().Context(), currentUser(c).ID, a.ID)
	if errors.Is(err, store.ErrNotFound) {
		return agentError(err)
	}
	if err != nil {
		return err
	}
	// The cached sequence and any open streams belong to a session that no
	// longer exists.
	s.events.Forget(a.ID)
	s.events.Broker().CloseSession(a.ID)
	if err := s.agent.ForgetSession(a.ID); err != nil {
		// The session is gone; only stale team files remain.
		s.log.Warn("research: removing a deleted session's team files", "session", a.ID, "err", err)
	}
	s.flash(c, "Deleted "+sessionTitle(a.Title)+".")
	return s.redirect(c, "/research")
}
