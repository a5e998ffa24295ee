package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/store"
)

// LeadAgent is the agent_name of the main agent's messages (docs/features.md R8).
const LeadAgent = "lead"

// Errors of the runtime API.
var (
	// ErrTurnRunning: the session already runs a turn (one at a time).
	ErrTurnRunning = errors.New("a turn is already running in this session")
	// ErrNoTurn: nothing to cancel.
	ErrNoTurn = errors.New("no turn is running in this session")
	// ErrShuttingDown: the server is stopping and takes no new turns.
	ErrShuttingDown = errors.New("the server is shutting down")
)

// Model is what the runtime needs from the LLM client.
type Model interface {
	Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error)
	ActiveModel() string
}

// Config tunes the runtime; zero values take the docs/features.md defaults.
type Config struct {
	MaxSteps      int           // AGENT_MAX_STEPS (8)
	ToolTimeout   time.Duration // AGENT_TOOL_TIMEOUT_SECS (120 s)
	MaxToolOutput int           // AGENT_MAX_TOOL_OUTPUT_CHARS (4000)
	AskTimeout    time.Duration // ask_user wait (5 min)
	DataDir       string        // tool-results/ and trajectories/ live here
	// WorkspaceDir holds the agent's files; skills whose globs match a file
	// there are offered.
	WorkspaceDir string
	// DefaultThinking is the thinking flag of turns that do not say
	// (LLM_ENABLE_THINKING).
	DefaultThinking bool
	// Budget is the context budget (C3, C7); zero fields take the docs/features.md
	// defaults.
	Budget compact.Budget
	// ExtractMemories runs the memory-extraction sub-agent after each turn
	// (C11). It costs one or a few extra model calls per turn.
	ExtractMemories bool
	// BackgroundWorkers bounds how many bg_task_run tasks run at once
	// (default 2); the others wait in the queue.
	BackgroundWorkers int
	// CoordinatorWorkers bounds how many workers of a coordinator turn
	// run at once (COORDINATOR_MAX_WORKERS, 3).
	CoordinatorWorkers int
	// WorkerTimeout bounds one coordinator worker (default 5 min).
	WorkerTimeout time.Duration
	// ContextWindow is the model's context window in tokens
	// (LLM_CONTEXT_WINDOW); 0 asks the server (Deps.Window). Budget fields
	// and MaxToolOutput left zero are derived from the window.
	ContextWindow int
	// ProposeTitles asks the model, after the first answer of a session
	// named after its question, for a shorter title (one extra model call
	// per session; AGENT_TITLE_PROPOSAL).
	ProposeTitles bool
}

func (c *Config) defaults() {
	if c.MaxSteps <= 0 {
		c.MaxSteps = 8
	}
	if c.ToolTimeout <= 0 {
		c.ToolTimeout = 120 * time.Second
	}
	if c.AskTimeout <= 0 {
		c.AskTimeout = 5 * time.Minute
	}
	if c.CoordinatorWorkers <= 0 {
		c.CoordinatorWorkers = 3
	}
	if c.WorkerTimeout <= 0 {
		c.WorkerTimeout = 5 * time.Minute
	}
	if c.BackgroundWorkers <= 0 {
		c.BackgroundWorkers = 2
	}
	c.Budget, c.MaxToolOutput = deriveLimits(c.ContextWindow, c.Budget, c.MaxToolOutput)
}

// Deps are the runtime's collaborators.
type Deps struct {
	Store  *store.Store
	Model  Model
	Events *EventLog
	Hooks  *Hooks
	Perms  *Permissions
	// Registry builds the tool registry of a new turn (each turn gets its
	// own view, so load_tool state does not leak between sessions).
	Registry func() *tools.Registry
	// Services is handed to tools through tools.Context.Services.
	Services any
	// Skills lists skills in the system prompt (nil: no skills).
	Skills *skills.Library
	// Summarizer writes the L2 compaction summary (nil: that layer is
	// skipped and the next one runs).
	Summarizer compact.Summarizer
	// Files is read_file's cache, snapshotted around compactions (nil:
	// nothing to restore).
	Files FileCache
	// Memory puts the user's latest memories in the system prompt (nil:
	// none).
	Memory *memory.Service
	// Window discovers the active model's context window when
	// Config.ContextWindow is 0 (nil: the SPEC default limits).
	Window WindowSource
	Log    *slog.Logger
	Now    func() time.Time
}

// Runtime runs agent turns in the background, one per session at a time.
// Safe for concurrent use.
type Runtime struct {
	cfg     Config
	d       Deps
	pending *pending

	base     context.Context
	stopBase context.CancelFunc
	wg       sync.WaitGroup // running turns
	bg       sync.WaitGroup // background work after turns (memory extraction, bg_task_run tasks)
	bgSlots  chan struct{}  // the background task pool: one token per running task
	teams    *teams         // team inboxes (T24); nil without a data dir

	// explicitBudget and explicitOutput are the limits set in the
	// configuration (zero fields: derived from the window).
	explicitBudget compact.Budget
	explicitOutput int
	limitsMu       sync.Mutex
	limits         Limits

	mu       sync.Mutex
	running  map[string]*runningTurn
	breakers map[string]*compact.Breaker
	closed   bool
}

// runningTurn is the registry entry of a running turn; its fields are
// guarded by Runtime.mu.
type runningTurn struct {
	turn      int
	cancel    context.CancelCauseFunc
	done      chan struct{}
	finishing bool // done has been emitted; only bookkeeping remains
}

// errUserStop is the cancellation cause of a user's stop.
var errUserStop = errors.New("stopped by the user")

// New returns a runtime.
func New(cfg Config, d Deps) *Runtime {
	explicitBudget, explicitOutput := cfg.Budget, cfg.MaxToolOutput
	cfg.defaults()
	if d.Now == nil {
		d.Now = time.Now
	}
	base, stop := context.WithCancel(context.Background())
	r := &Runtime{cfg: cfg, d: d, pending: newPending(), base: base, stopBase: stop,
		bgSlots: make(chan struct{}, cfg.BackgroundWorkers), teams: newTeams(cfg.DataDir),
		running: map[string]*runningTurn{}, breakers: map[string]*compact.Breaker{},
		explicitBudget: explicitBudget, explicitOutput: explicitOutput}
	r.limits = Limits{Budget: cfg.Budget, MaxToolOutput: cfg.MaxToolOutput, Window: cfg.ContextWindow}
	if cfg.ContextWindow > 0 {
		r.limits.Source = "LLM_CONTEXT_WINDOW"
	}
	return r
}

// TurnRequest starts a turn.
type TurnRequest struct {
	Question string
	// Thinking asks for reasoning output; nil takes Config.DefaultThinking.
	Thinking *bool
	// Coordinator runs the turn in coordinator mode (T25): the lead only
	// delegates to workers and synthesises their reports.
	Coordinator bool
}

// MaxQuestionChars bounds a question.
const MaxQuestionChars = 100_000

// StartTurn begins a turn in the user's session and returns its number at
// once; the turn runs in the background and reports through events. It
// returns store.ErrNotFound for a session the user does not own and
// ErrTurnRunning while another turn runs.
func (r *Runtime) StartTurn(ctx context.Context, userID int64, sessionID string, req TurnRequest) (int, error) {
	q := strings.TrimSpace(req.Question)
	if q == "" {
		return 0, fmt.Errorf("agent: %w", &InputError{Field: "question", Message: "is required"})
	}
	if utf8.RuneCountInString(q) > MaxQuestionChars {
		return 0, fmt.Errorf("agent: %w", &InputError{Field: "question", Message: fmt.Sprintf("must be at most %d characters", MaxQuestionChars)})
	}
	sess, err := r.d.Store.AgentSession(ctx, userID, sessionID)
	if err != nil {
		return 0, err
	}
	turnCtx, cancel := context.WithCancelCause(r.base)
	rt, err := r.claim(ctx, sessionID, cancel)
	if err != nil {
		cancel(nil)
		return 0, err
	}
	turn, err := r.d.Store.BeginAgentTurn(ctx, sessionID, r.d.Model.ActiveModel(), titleFrom(q))
	if err != nil {
		cancel(nil)
		r.release(sessionID, rt)
		r.wg.Done()
		return 0, err
	}
	r.setTurn(rt, turn)
	thinking := r.cfg.DefaultThinking
	if req.Thinking != nil {
		thinking = *req.Thinking
	}
	t := &turnRun{r: r, userID: userID, session: sess, turn: turn, question: q, thinking: thinking,
		agent: LeadAgent, registry: r.turnRegistry(), dups: &dupDetector{}, handle: rt}
	if sess.Title == "" {
		// BeginAgentTurn named the session after this question.
		t.newTitle = titleFrom(q)
	}
	if req.Coordinator {
		t.registry = coordinatorRegistry()
		t.coord = newCoordinator(t, turnCtx, r.cfg.CoordinatorWorkers, r.cfg.WorkerTimeout)
	}
	go func() {
		defer r.wg.Done()
		defer r.release(sessionID, rt)
		defer cancel(nil)
		t.run(turnCtx)
	}()
	return turn, nil
}

// InputError is a rejected request field.
type InputError struct{ Field, Message string }

func (e *InputError) Error() string { return e.Field + " " + e.Message }

func titleFrom(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if utf8.RuneCountInString(q) > 80 {
		return textcut.Prefix(q, 79) + "…"
	}
	return q
}

// claim reserves the session for a new turn and counts it in the wait
// group (the caller must eventually call release and wg.Done). A turn that
// has already emitted done but is still writing its trajectory is waited
// for, so a client that starts the next turn on "done" never gets a 409.
func (r *Runtime) claim(ctx context.Context, session string, cancel context.CancelCauseFunc) (*runningTurn, error) {
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, ErrShuttingDown
		}
		cur, busy := r.running[session]
		if !busy {
			rt := &runningTurn{done: make(chan struct{}), cancel: cancel}
			r.running[session] = rt
			r.wg.Add(1)
			r.mu.Unlock()
			return rt, nil
		}
		finishing := cur.finishing
		r.mu.Unlock()
		if !finishing {
			return nil, ErrTurnRunning
		}
		select {
		case <-cur.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (r *Runtime) setTurn(rt *runningTurn, turn int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt.turn = turn
}

// markFinishing records that the turn has nothing left but bookkeeping.
func (r *Runtime) markFinishing(rt *runningTurn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt.finishing = true
}

func (r *Runtime) release(session string, rt *runningTurn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running[session] == rt {
		delete(r.running, session)
	}
	close(rt.done)
}

// Running reports whether the session has a running turn (one that has not
// emitted done yet), and its number.
func (r *Runtime) Running(sessionID string) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt, ok := r.running[sessionID]
	if !ok || rt.finishing {
		return 0, false
	}
	return rt.turn, true
}

// Cancel stops the running turn of the user's session (docs/features.md R10). It
// returns once the stop is requested; the turn then finishes its Block
// tools, records results and emits done.
func (r *Runtime) Cancel(ctx context.Context, userID int64, sessionID string) error {
	if _, err := r.d.Store.AgentSession(ctx, userID, sessionID); err != nil {
		return err
	}
	r.mu.Lock()
	rt, ok := r.running[sessionID]
	r.mu.Unlock()
	if !ok || rt.finishing {
		return ErrNoTurn
	}
	rt.cancel(errUserStop)
	return nil
}

// Wait blocks until the session's running turn (if any) has finished or
// ctx ends.
func (r *Runtime) Wait(ctx context.Context, sessionID string) error {
	r.mu.Lock()
	rt, ok := r.running[sessionID]
	r.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-rt.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Answer delivers the user's answer to an ask_user question.
func (r *Runtime) Answer(ctx context.Context, userID int64, sessionID, questionID, answer string) error {
	if _, err := r.d.Store.AgentSession(ctx, userID, sessionID); err != nil {
		return err
	}
	return r.pending.answer(sessionID, "question", questionID, answer)
}

// Decide delivers the user's decision (AllowOnce, AllowAlways, Deny) on a
// permission request.
func (r *Runtime) Decide(ctx context.Context, userID int64, sessionID, requestID, decision string) error {
	if decision != AllowOnce && decision != AllowAlways && decision != Deny {
		return &InputError{Field: "decision", Message: "must be allow_once, allow_always or deny"}
	}
	if _, err := r.d.Store.AgentSession(ctx, userID, sessionID); err != nil {
		return err
	}
	return r.pending.answer(sessionID, "permission", requestID, decision)
}

// WaitIdle blocks until background work started by finished turns (memory
// extraction) is done, or ctx ends. It does not stop anything.
func (r *Runtime) WaitIdle(ctx context.Context) error {
	done := make(chan struct{})
	go func() { r.bg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown stops taking turns, cancels the running ones (they record their
// state and emit done) and waits for them until ctx ends.
func (r *Runtime) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.stopBase()
	done := make(chan struct{})
	go func() { r.wg.Wait(); r.bg.Wait(); r.d.Hooks.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("agent: turns still running at shutdown: %w", ctx.Err())
	}
}

// ForgetSession removes the files the runtime keeps for a session outside
// the database (team inboxes, teammate bindings). Call it after the session
// is deleted; it is a no-op for a session that had none.
func (r *Runtime) ForgetSession(sessionID string) error {
	if r.teams == nil {
		return nil
	}
	return r.teams.forget(sessionID)
}
