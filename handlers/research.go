package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The research workspace (docs/features.md W2): the session list, the session page with
// its timeline, and the forms that start, stop and answer turns. Every form
// works without JavaScript (post, then 303 back); with htmx (HX-Request) it
// gets a fragment instead.

// maxAnswerChars bounds an answer to an ask_user question.
const maxAnswerChars = 20_000

// isHTMX reports whether htmx made the request.
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// researchBase is the path of a session page, base path included.
func (s *Server) researchBase(id string) string { return s.cfg.BasePath + "/research/" + id }

// researchList is GET /research.
func (s *Server) researchList(c echo.Context) error {
	page, err := s.researchListPage(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.ResearchList(page))
}

func (s *Server) researchListPage(c echo.Context) (views.ResearchListPage, error) {
	rows, err := s.sessionRows(c.Request().Context(), currentUser(c).ID, 500)
	if err != nil {
		return views.ResearchListPage{}, err
	}
	return views.ResearchListPage{Chrome: s.chrome(c, "Research", "research"), Sessions: rows}, nil
}

// sidebarSessions is how many sessions the session page's sidebar lists.
const sidebarSessions = 30

// sessionRows lists up to limit of the user's sessions, newest first.
func (s *Server) sessionRows(ctx context.Context, userID int64, limit int) ([]views.SessionRow, error) {
	list, err := s.st.ListAgentSessions(ctx, userID, limit)
	if err != nil {
		return nil, err
	}
	rows := make([]views.SessionRow, 0, len(list))
	for _, a := range list {
		_, running := s.agent.Running(a.ID)
		rows = append(rows, views.SessionRow{ID: a.ID, Title: a.Title, Turns: a.TurnCount, Updated: a.UpdatedAt, Running: running})
	}
	return rows, nil
}

// researchCreate is POST /research: a new session, then its page.
func (s *Server) researchCreate(c echo.Context) error {
	title := strings.TrimSpace(c.FormValue("title"))
	if utf8.RuneCountInString(title) > store.MaxSessionTitle {
		page, err := s.researchListPage(c)
		if err != nil {
			return err
		}
		page.NewTitle, page.Error = title, "The title is longer than 200 characters."
		return s.render(c, http.StatusBadRequest, views.ResearchList(page))
	}
	a, err := s.st.CreateAgentSession(c.Request().Context(), currentUser(c).ID, title)
	if err != nil {
		return err
	}
	return s.redirect(c, "/research/"+a.ID)
}

// researchSession is GET /research/{id}.
func (s *Server) researchSession(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	page, err := s.sessionPage(c, a, s.questionForm(a.ID))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.ResearchSession(page))
}

// questionForm is the empty question form of session id. The thinking
// toggle is there only when it does something for the active model
// (llm.Client.ThinkingToggle); the default is LLM_ENABLE_THINKING.
func (s *Server) questionForm(id string) views.QuestionForm {
	return views.QuestionForm{Action: s.researchBase(id) + "/turns", ThinkingToggle: s.model.ThinkingToggle(),
		Thinking: s.cfg.LLMEnableThinking}
}

// modelStatus is the model new calls use, and whether that is a fallback.
func (s *Server) modelStatus() views.ModelStatus {
	primary, active, switched := s.model.FallbackState()
	return views.ModelStatus{Active: active, Primary: primary, Switched: switched}
}

// sessionPage builds the session page: the timeline from the event log and
// the live stream's address after the last event rendered.
func (s *Server) sessionPage(c echo.Context, a store.AgentSession, form views.QuestionForm) (views.ResearchSessionPage, error) {
	ctx := c.Request().Context()
	questions, err := s.turnQuestions(ctx, a.ID)
	if err != nil {
		return views.ResearchSessionPage{}, err
	}
	base := s.researchBase(a.ID)
	tl := s.newTimeline(a.ID, &questionSource{known: questions})
	var hist timelineHistory
	last, err := s.replayTimeline(ctx, tl, a.ID, -1, hist.apply)
	if err != nil {
		return views.ResearchSessionPage{}, err
	}
	recent, err := s.sessionRows(ctx, currentUser(c).ID, sidebarSessions)
	if err != nil {
		return views.ResearchSessionPage{}, err
	}
	// Asked after reading the log: a turn that ended meanwhile has its done
	// event in the log or on the stream, which then hides the Stop button.
	_, running := s.agent.Running(a.ID)
	chrome := s.mathChrome(c, sessionTitle(a.Title), "research")
	chrome.SkipTo = []views.SkipLink{{Target: "question", Label: "Skip to the question"}}
	return views.ResearchSessionPage{
		Chrome: chrome,
		ID:     a.ID, Title: a.Title, Model: s.modelStatus(),
		Rename:   views.RenameForm{BasePath: s.cfg.BasePath, SessionID: a.ID, Title: a.Title, Return: "session"},
		Timeline: views.Timeline{Items: hist.items, StreamURL: base + "/stream?after=" + strconv.FormatInt(last, 10)},
		Controls: views.TurnControls{CancelURL: base + "/cancel", Running: running},
		Form:     form,
		Note:     s.modelNote(hist.note),
		Metrics:  tl.sessionMetrics(),
		Window:   s.contextWindow(),
		Recent:   recent,
	}, nil
}

func sessionTitle(t string) string {
	if t == "" {
		return "Untitled session"
	}
	return t
}

// contextWindow is the active model's context window and the limits in
// force, as the runtime knows them.
func (s *Server) contextWindow() views.ContextWindow {
	l := s.agent.Limits()
	return views.ContextWindow{Model: l.Model, Tokens: l.Window, Source: l.Source, SoftLimit: l.Budget.SoftLimit,
		HardLimit: l.Budget.HardLimit, ToolOutput: l.MaxToolOutput, TooSmall: l.TooSmall(), Minimum: agent.MinContextWindow}
}

func (s *Server) modelNote(show bool) views.ModelNote {
	return views.ModelNote{Show: show, Endpoint: s.cfg.LLMBaseURL, Model: s.model.ActiveModel()}
}

// replayTimeline feeds the session's persisted events to tl in order, up to
// and including seq upTo (all of them when upTo < 0), passing each event's
// ops to sink. It returns the last seq fed (0 for none).
func (s *Server) replayTimeline(ctx context.Context, tl *timeline, session string, upTo int64, sink func([]timelineOp)) (int64, error) {
	var last int64
	for {
		evs, err := s.events.After(ctx, session, last, replayBatch)
		if err != nil {
			return 0, err
		}
		for _, e := range evs {
			if upTo >= 0 && e.Seq > upTo {
				return last, nil
			}
			sink(tl.apply(ctx, e))
			last = e.Seq
		}
		if len(evs) < replayBatch {
			return last, nil
		}
	}
}

// turnQuestions maps each turn of the session to its question (the turn's
// first user message of the lead agent).
func (s *Server) turnQuestions(ctx context.Context, session string) (map[int]string, error) {
	rows, err := s.st.AgentMessages(ctx, session, agent.LeadAgent)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, r := range rows {
		if _, seen := out[r.Turn]; !seen && r.Role == "user" {
			out[r.Turn] = r.Content
		}
	}
	return out, nil
}

// researchStream is GET /research/{id}/stream: the session's events as HTML
// fragments of the timeline components (`event: timeline`, `id: <seq>`),
// for the htmx SSE extension. It resumes after Last-Event-ID or ?after=
// like the JSON stream; the events up to there are replayed into the
// timeline state first (nothing sent), so the fragments fit the page.
func (s *Server) researchStream(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	after, err := resumePoint(c.Request())
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "Last-Event-ID and after must be non-negative integers.")
	}
	ctx := c.Request().Context()
	questions, err := s.turnQuestions(ctx, a.ID)
	if err != nil {
		return err
	}
	tl := s.newTimeline(a.ID, &questionSource{known: questions,
		load: func(ctx context.Context) (map[int]string, error) { return s.turnQuestions(ctx, a.ID) }})
	if after > 0 {
		if _, err := s.replayTimeline(ctx, tl, a.ID, after, func([]timelineOp) {}); err != nil {
			return err
		}
	}
	return s.streamEvents(c, a.ID, after, func(w io.Writer, e agent.Event) error {
		var buf bytes.Buffer
		for _, o := range tl.apply(ctx, e) {
			if err := s.opComponent(a.ID, o).Render(ctx, &buf); err != nil {
				return err
			}
		}
		return writeHTMLFrame(w, e.Seq, buf.String())
	})
}

// newTimeline is the timeline state machine of session id, with links to
// cited papers in answers.
func (s *Server) newTimeline(id string, q *questionSource) *timeline {
	tl := newTimeline(s.researchBase(id), s.now, q)
	tl.basePath, tl.links = s.cfg.BasePath, s.citationLinker()
	return tl
}

// opComponent is the live fragment of one timeline op: new items are
// appended to #timeline, everything else is an out-of-band swap.
func (s *Server) opComponent(session string, o timelineOp) templ.Component {
	switch o.kind {
	case opAdd:
		if o.parent != "" {
			return views.NestedEntry(o.parent, o.item)
		}
		return views.TimelineEntry(o.item, false)
	case opReplace:
		return views.TimelineEntry(o.item, true)
	case opText:
		return views.StreamText(o.target, o.text)
	case opProgress:
		return views.StreamProgress(views.ToolProgressDOMID(o.owner), o.text)
	case opResult:
		return views.ToolResultSlot(o.owner, o.result, true)
	case opQuestion:
		return views.TurnQuestion(o.turn, o.text, true)
	case opGroupStatus:
		return views.SubagentStatusSlots(o.owner, o.status)
	case opRunning:
		// The model may have changed since the page was rendered (an
		// administrator's switch, a fallback): show the current one too.
		return templ.Join(
			views.TurnControlsView(views.TurnControls{CancelURL: s.researchBase(session) + "/cancel", Running: o.on}, true),
			views.ModelStatusView(s.modelStatus(), true))
	case opModelState:
		return views.ModelStatusView(s.modelStatus(), true)
	case opTitle:
		return views.SessionTitleSlots(s.cfg.BasePath, session, o.text)
	case opModelNote:
		return views.ModelNoteView(s.modelNote(o.on), true)
	case opMetrics:
		return views.MetricsPanelBody(o.metrics, true)
	}
	return templ.NopComponent
}

// sseLines normalises line breaks: a lone CR also ends an SSE line.
var sseLines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// writeHTMLFrame writes one `timeline` event whose data is html, one
// `data:` line per line of it (the SSE way to send a multi-line value).
func writeHTMLFrame(w io.Writer, seq int64, html string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %d\nevent: timeline\n", seq)
	for line := range strings.SplitSeq(sseLines.Replace(html), "\n") {
		b.WriteString("data: ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// researchAsk is POST /research/{id}/turns: starts a turn with the
// question. htmx gets the form back (emptied, or with the error); a plain
// post is redirected to the session page (or shown it with the error).
func (s *Server) researchAsk(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	form := s.questionForm(a.ID)
	if form.ThinkingToggle && c.FormValue("thinking_field") != "" {
		form.Thinking = c.FormValue("thinking") == "on"
	}
	question := c.FormValue("question")
	thinking := form.Thinking
	coordinator := c.FormValue("coordinator") == "on"
	// Subscribed before the turn starts, so that its end cannot be missed.
	sub, unsubscribe := s.plainSubscribe(c, a.ID)
	defer unsubscribe()
	_, err = s.agent.StartTurn(c.Request().Context(), currentUser(c).ID, a.ID,
		agent.TurnRequest{Question: question, Thinking: &thinking, Coordinator: coordinator})
	if err != nil {
		status, msg := turnFormError(err)
		if status == 0 {
			return agentError(err)
		}
		form.Question, form.Error, form.Coordinator = question, msg, coordinator
		if isHTMX(c) {
			return s.render(c, http.StatusOK, views.QuestionFormView(form))
		}
		page, perr := s.sessionPage(c, a, form)
		if perr != nil {
			return perr
		}
		return s.render(c, status, views.ResearchSession(page))
	}
	if isHTMX(c) {
		return s.render(c, http.StatusOK, views.QuestionFormView(form))
	}
	if awaitTurnEnd(c.Request().Context(), sub) {
		s.flash(c, stillRunningNote)
	}
	return s.redirect(c, "/research/"+a.ID)
}

// turnFormError maps a refused turn to a status and a message beside the
// question field; status 0 means "not a form error".
func turnFormError(err error) (int, string) {
	var ie *agent.InputError
	switch {
	case errors.As(err, &ie) && ie.Field == "question":
		if strings.Contains(ie.Message, "required") {
			return http.StatusBadRequest, "Write a question first."
		}
		return http.StatusBadRequest, "The question " + ie.Message + "."
	case errors.Is(err, agent.ErrTurnRunning):
		return http.StatusConflict, "A turn is already running in this session: wait for it to finish or stop it."
	case errors.Is(err, agent.ErrShuttingDown):
		return http.StatusServiceUnavailable, "The server is shutting down; try again shortly."
	}
	return 0, ""
}

// researchCancel is POST /research/{id}/cancel. The stream shows the turn
// ending; htmx gets 204, a plain post a status message and the page.
func (s *Server) researchCancel(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	err = s.agent.Cancel(c.Request().Context(), currentUser(c).ID, a.ID)
	msg := "Stopping the turn."
	switch {
	case errors.Is(err, agent.ErrNoTurn):
		msg = "No turn is running in this session."
	case err != nil:
		return agentError(err)
	}
	if isHTMX(c) {
		return c.NoContent(http.StatusNoContent)
	}
	s.flash(c, msg)
	return s.redirect(c, "/research/"+a.ID)
}

// researchAnswer is POST /research/{id}/answers: the answer to an
// ask_user card. htmx gets the card's new body.
func (s *Server) researchAnswer(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	qid, answer := c.FormValue("question_id"), strings.TrimSpace(c.FormValue("answer"))
	switch {
	case qid == "" || answer == "":
		return s.formRefused(c, a.ID, "Write an answer first.")
	case utf8.RuneCountInString(answer) > maxAnswerChars:
		return s.formRefused(c, a.ID, "The answer is longer than 20000 characters.")
	}
	card := &views.AskCard{ID: askDOMID(qid), State: views.CardSent, Answer: answer}
	sub, unsubscribe := s.plainSubscribe(c, a.ID)
	defer unsubscribe()
	err = s.agent.Answer(c.Request().Context(), currentUser(c).ID, a.ID, qid, answer)
	switch {
	case errors.Is(err, agent.ErrNoSuchRequest):
		card.State, card.Error = views.CardClosed, "This question is no longer waiting for an answer (answered, expired or the turn ended)."
	case err != nil:
		return agentError(err)
	}
	return s.cardReply(c, a.ID, sub, views.AskCardBody(card), card.Error, "Answer sent.")
}

// researchPermission is POST /research/{id}/permissions: the decision on a
// permission card.
func (s *Server) researchPermission(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	rid, decision := c.FormValue("request_id"), c.FormValue("decision")
	card := &views.PermissionCard{ID: permissionDOMID(rid), State: views.CardSent, Decision: decision}
	sub, unsubscribe := s.plainSubscribe(c, a.ID)
	defer unsubscribe()
	err = s.agent.Decide(c.Request().Context(), currentUser(c).ID, a.ID, rid, decision)
	var ie *agent.InputError
	switch {
	case errors.As(err, &ie):
		return s.formRefused(c, a.ID, "Choose Allow once, Always allow or Deny.")
	case errors.Is(err, agent.ErrNoSuchRequest):
		card.State, card.Error = views.CardClosed, "This request is no longer waiting for a decision (decided, expired or the turn ended)."
	case err != nil:
		return agentError(err)
	}
	return s.cardReply(c, a.ID, sub, views.PermissionCardBody(card), card.Error, "Decision sent.")
}

// formRefused answers a card form whose input is invalid: 400 for htmx
// (which then swaps nothing; the browser's own validation normally
// prevents this), else the message and the session page.
func (s *Server) formRefused(c echo.Context, session, msg string) error {
	if isHTMX(c) {
		return echo.NewHTTPError(http.StatusBadRequest, msg)
	}
	s.flash(c, msg)
	return s.redirect(c, "/research/"+session)
}

// plainSubscribe subscribes a plain (non-htmx) form to the session's
// events, so that it can wait for the turn it starts or resumes; htmx
// requests need none (nil). unsubscribe ends it.
func (s *Server) plainSubscribe(c echo.Context, session string) (sub *agent.Subscription, unsubscribe func()) {
	if isHTMX(c) {
		return nil, func() {}
	}
	sub = s.events.Broker().Subscribe(session)
	return sub, func() { s.events.Broker().Unsubscribe(sub) }
}

// cardReply answers a card form: the card's body for htmx (swapped into
// the card), else — once the resumed turn has ended, or needs the user
// again — a status message and a redirect to the session page.
func (s *Server) cardReply(c echo.Context, session string, sub *agent.Subscription, body templ.Component, errMsg, okMsg string) error {
	if isHTMX(c) {
		return s.render(c, http.StatusOK, body)
	}
	switch {
	case errMsg != "":
		s.flash(c, errMsg)
	case awaitTurnEnd(c.Request().Context(), sub):
		s.flash(c, okMsg+" "+stillRunningNote)
	default:
		s.flash(c, okMsg)
	}
	return s.redirect(c, "/research/"+session)
}
