package handlers

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/store"
)

// SessionJSON is an agent session in the JSON API.
type SessionJSON struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Model     string    `json:"model"`
	TurnCount int       `json:"turn_count"`
	Running   bool      `json:"running"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func (s *Server) sessionJSON(a store.AgentSession) SessionJSON {
	_, running := s.agent.Running(a.ID)
	return SessionJSON{ID: a.ID, Title: a.Title, Model: a.Model, TurnCount: a.TurnCount, Running: running,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// CreateSessionRequest is the body of POST /api/sessions.
type CreateSessionRequest struct {
	Title string `json:"title"`
}

// apiCreateSession is POST /api/sessions → 201 {id, ...}.
func (s *Server) apiCreateSession(c echo.Context) error {
	var req CreateSessionRequest
	if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	}
	title := strings.TrimSpace(req.Title)
	if utf8.RuneCountInString(title) > store.MaxSessionTitle {
		return apiError(http.StatusBadRequest, "invalid_request", "The title is longer than 200 characters.")
	}
	a, err := s.st.CreateAgentSession(c.Request().Context(), currentUser(c).ID, title)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, s.sessionJSON(a))
}

// apiListSessions is GET /api/sessions: the caller's sessions, newest first.
func (s *Server) apiListSessions(c echo.Context) error {
	list, err := s.st.ListAgentSessions(c.Request().Context(), currentUser(c).ID, 500)
	if err != nil {
		return err
	}
	out := make([]SessionJSON, len(list))
	for i, a := range list {
		out[i] = s.sessionJSON(a)
	}
	return c.JSON(http.StatusOK, map[string][]SessionJSON{"sessions": out})
}

// MessageJSON is a persisted conversation message in the JSON API.
type MessageJSON struct {
	ID         int64          `json:"id"`
	Turn       int            `json:"turn"`
	Step       int            `json:"step"`
	Agent      string         `json:"agent"`
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Thought    string         `json:"thought,omitempty"`
	ToolCalls  []llm.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	CreatedAt  time.Time      `json:"created_at"`
}

// apiMessages is GET /api/sessions/{id}/messages.
func (s *Server) apiMessages(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	rows, err := s.st.AllAgentMessages(ctx, a.ID)
	if err != nil {
		return err
	}
	out := make([]MessageJSON, 0, len(rows))
	for _, r := range rows {
		m, err := agent.MessageFromRow(r)
		if err != nil {
			return err
		}
		out = append(out, MessageJSON{ID: r.ID, Turn: r.Turn, Step: r.Step, Agent: r.AgentName, Role: r.Role,
			Content: m.Content, Thought: m.Thought, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID, CreatedAt: r.CreatedAt})
	}
	return c.JSON(http.StatusOK, map[string][]MessageJSON{"messages": out})
}

// TurnRequest is the body of POST /api/sessions/{id}/turns.
type TurnRequest struct {
	Question    string `json:"question"`
	Thinking    *bool  `json:"thinking"`
	Coordinator bool   `json:"coordinator"`
}

// apiStartTurn is POST /api/sessions/{id}/turns → 202 {turn}.
func (s *Server) apiStartTurn(c echo.Context) error {
	var req TurnRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	turn, err := s.agent.StartTurn(c.Request().Context(), currentUser(c).ID, c.Param("id"),
		agent.TurnRequest{Question: req.Question, Thinking: req.Thinking, Coordinator: req.Coordinator})
	if err != nil {
		return agentError(err)
	}
	return c.JSON(http.StatusAccepted, map[string]int{"turn": turn})
}

// apiCancel is POST /api/sessions/{id}/cancel.
func (s *Server) apiCancel(c echo.Context) error {
	err := s.agent.Cancel(c.Request().Context(), currentUser(c).ID, c.Param("id"))
	if err != nil {
		return agentError(err)
	}
	return c.JSON(http.StatusAccepted, map[string]bool{"cancelled": true})
}

// AnswerRequest is the body of POST /api/sessions/{id}/answers.
type AnswerRequest struct {
	QuestionID string `json:"question_id"`
	Answer     string `json:"answer"`
}

// apiAnswer is POST /api/sessions/{id}/answers.
func (s *Server) apiAnswer(c echo.Context) error {
	var req AnswerRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Answer) == "" || req.QuestionID == "" {
		return apiError(http.StatusBadRequest, "invalid_request", "question_id and a non-empty answer are required.")
	}
	if utf8.RuneCountInString(req.Answer) > 20_000 {
		return apiError(http.StatusBadRequest, "invalid_request", "The answer is longer than 20000 characters.")
	}
	if err := s.agent.Answer(c.Request().Context(), currentUser(c).ID, c.Param("id"), req.QuestionID, req.Answer); err != nil {
		return agentError(err)
	}
	return c.NoContent(http.StatusNoContent)
}

// PermissionDecisionRequest is the body of POST /api/sessions/{id}/permissions.
type PermissionDecisionRequest struct {
	RequestID string `json:"request_id"`
	Decision  string `json:"decision"`
}

// apiPermission is POST /api/sessions/{id}/permissions.
func (s *Server) apiPermission(c echo.Context) error {
	var req PermissionDecisionRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := s.agent.Decide(c.Request().Context(), currentUser(c).ID, c.Param("id"), req.RequestID, req.Decision); err != nil {
		return agentError(err)
	}
	return c.NoContent(http.StatusNoContent)
}

// ownSession loads the session in the path if it is the caller's (404
// otherwise, docs/features.md S8).
func (s *Server) ownSession(c echo.Context) (store.AgentSession, error) {
	a, err := s.st.AgentSession(c.Request().Context(), currentUser(c).ID, c.Param("id"))
	if err != nil {
		return store.AgentSession{}, agentError(err)
	}
	return a, nil
}

// agentError maps runtime errors to API errors.
func agentError(err error) error {
	var ie *agent.InputError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return apiError(http.StatusNotFound, "not_found", "There is no such session.")
	case errors.Is(err, agent.ErrTurnRunning):
		return apiError(http.StatusConflict, "turn_running", "A turn is already running in this session; wait for it or cancel it.")
	case errors.Is(err, agent.ErrNoTurn):
		return apiError(http.StatusConflict, "no_turn", "No turn is running in this session.")
	case errors.Is(err, agent.ErrNoSuchRequest):
		return apiError(http.StatusNotFound, "not_found", "That question or permission request is not waiting for an answer (answered, expired or unknown).")
	case errors.Is(err, agent.ErrShuttingDown):
		return apiError(http.StatusServiceUnavailable, "shutting_down", "The server is shutting down; try again shortly.")
	case errors.As(err, &ie):
		return apiError(http.StatusBadRequest, "invalid_request", "The "+ie.Error()+".")
	}
	return err
}
