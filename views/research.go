package views

import (
	"fmt"
	"time"

	"github.com/a-h/templ"
)

// ResearchListPage is /research: the user's sessions and the form that
// starts a new one.
type ResearchListPage struct {
	Chrome
	Sessions []SessionRow
	NewTitle string // what was typed into the new-session form
	Error    string // why the new session was not created
	// RenameID is the session whose rename was refused with RenameError.
	RenameID, RenameError string
}

// renameError is the rename error shown in the row of session id.
func renameError(renameID, id, msg string) string {
	if renameID != id {
		return ""
	}
	return msg
}

// SessionRow is one session in the list.
type SessionRow struct {
	ID      string
	Title   string // "" for a session without a question yet
	Turns   int
	Updated time.Time
	Running bool
}

// ResearchSessionPage is /research/{id}: the timeline of a session and the
// question form.
type ResearchSessionPage struct {
	Chrome
	ID       string
	Title    string
	Rename   RenameForm
	Model    ModelStatus
	Timeline Timeline
	Controls TurnControls
	Form     QuestionForm
	Note     ModelNote
	Metrics  MetricsPanel
	// Window is the model's context window (C12).
	Window ContextWindow
	// Recent is the sidebar's list of the user's sessions, newest first.
	Recent []SessionRow
}

// Timeline is the server-rendered history of a session plus the address of
// its live stream.
type Timeline struct {
	Items []TimelineItem
	// StreamURL is the HTML event stream, resuming after the last event
	// already rendered in Items (so nothing is shown twice).
	StreamURL string
}

// TurnControls is the area that shows the Stop button while a turn runs.
type TurnControls struct {
	CancelURL string
	Running   bool
}

// ModelStatus is the model new calls use (docs/features.md R5): the configured
// primary, or a fallback after consecutive overloads.
type ModelStatus struct {
	Active   string // "" until the endpoint is asked for its first model
	Primary  string
	Switched bool // Active is a fallback, not Primary
}

// QuestionForm is the form that starts a turn.
type QuestionForm struct {
	Action   string
	Question string // kept when the form is shown again with an error
	// ThinkingToggle shows the reasoning checkbox: only when the active
	// model's reasoning can be switched per turn.
	ThinkingToggle bool
	Thinking       bool
	// Coordinator is the per-turn coordinator-mode toggle (T25); it is
	// kept only when the form comes back with an error.
	Coordinator bool
	Error       string
}

// ModelNote explains how to configure a model endpoint; shown when the last
// turn failed in the model call (docs/features.md §8).
type ModelNote struct {
	Show     bool
	Endpoint string // LLM_BASE_URL
	Model    string
}

// TimelineItem is one block of the timeline. Every item has a stable DOM id,
// so the live stream can update it in place. The concrete types are the
// pointers below.
type TimelineItem interface {
	DOMID() string
}

// TurnHeader opens a turn with the user's question.
type TurnHeader struct {
	Turn     int
	Question string // "" while it is not known yet (filled in later)
}

// DOMID implements TimelineItem.
func (t *TurnHeader) DOMID() string { return fmt.Sprintf("turn-%d", t.Turn) }

// QuestionID is the id of the paragraph holding the question.
func (t *TurnHeader) QuestionID() string { return QuestionDOMID(t.Turn) }

// QuestionDOMID is the id of turn's question paragraph.
func QuestionDOMID(turn int) string { return fmt.Sprintf("question-%d", turn) }

// TextBlock is text the model streams as plain text; the final answer's
// block is later replaced by an AnswerBlock with the same id.
type TextBlock struct {
	ID   string
	Text string
}

// DOMID implements TimelineItem.
func (t *TextBlock) DOMID() string { return t.ID }

// ThoughtBlock is streamed reasoning, collapsed by default.
type ThoughtBlock struct {
	ID   string
	Text string
}

// DOMID implements TimelineItem.
func (t *ThoughtBlock) DOMID() string { return t.ID }

// TextID is the id of the element that receives further thought text.
func (t *ThoughtBlock) TextID() string { return t.ID + "-text" }

// AnswerBlock is a final answer rendered from Markdown (sanitised).
type AnswerBlock struct {
	ID       string
	Markdown string
	// BasePath is put in front of root-relative links the answer makes.
	BasePath string
	// Links are the cited papers: identifier as written → its page in the
	// library, or at arXiv, ADS or doi.org.
	Links map[string]string
}

// DOMID implements TimelineItem.
func (a *AnswerBlock) DOMID() string { return a.ID }

// ToolCard is one tool call: arguments, progress, then its result.
type ToolCard struct {
	ID        string
	Name      string
	Arguments string // pretty-printed JSON when it parses
	Progress  []string
	Result    *ToolResult // nil while the call runs
}

// DOMID implements TimelineItem.
func (c *ToolCard) DOMID() string { return c.ID }

// ProgressID is the id of the card's progress list.
func (c *ToolCard) ProgressID() string { return ToolProgressDOMID(c.ID) }

// ResultID is the id of the card's result slot.
func (c *ToolCard) ResultID() string { return ToolResultDOMID(c.ID) }

// ToolProgressDOMID is the id of the progress list of card id.
func ToolProgressDOMID(card string) string { return card + "-progress" }

// ToolResultDOMID is the id of the result slot of card id.
func ToolResultDOMID(card string) string { return card + "-result" }

// ToolResult is the outcome of a tool call.
type ToolResult struct {
	Output  string
	IsError bool
	Elapsed time.Duration
	// Tasks is the task list a todo_write call saved, shown as a checklist.
	Tasks []TaskItem
	// Link points to what the call created elsewhere (a teammate's session).
	Link Link
}

// Link is a labelled address.
type Link struct {
	Href, Text string
}

// TaskItem is one entry of the agent's task list (T15).
type TaskItem struct {
	ID, Subject, Status string
	BlockedBy           []string
}

// StatusLabel is the task's status in words.
func (t TaskItem) StatusLabel() string {
	switch t.Status {
	case "completed":
		return "done"
	case "in_progress":
		return "in progress"
	}
	return "to do"
}

// CardState is where a question or permission card stands.
type CardState int

// Card states.
const (
	CardOpen    CardState = iota // waiting for the user
	CardSent                     // the user just answered in this page
	CardClosed                   // the turn has moved on
	CardExpired                  // nobody answered in time
)

// AskCard is a question from the agent (ask_user, T19).
type AskCard struct {
	ID         string
	Action     string // POST target of the answer forms
	QuestionID string
	Question   string
	Options    []string
	ExpiresAt  time.Time
	State      CardState
	Answer     string // set with CardSent
	Error      string // why an answer was refused
}

// DOMID implements TimelineItem.
func (a *AskCard) DOMID() string { return a.ID }

// PermissionCard asks the user to allow a tool call (R15).
type PermissionCard struct {
	ID        string
	Agent     string // the sub-agent that asks; "" for the lead
	Action    string
	RequestID string
	Tool      string
	Arguments string
	Reason    string
	State     CardState
	Decision  string // set with CardSent: allow_once, allow_always or deny
	Error     string // why a decision was refused
}

// DOMID implements TimelineItem.
func (p *PermissionCard) DOMID() string { return p.ID }

// UsageLine reports the tokens of one model call.
type UsageLine struct {
	ID                 string
	Step               int
	Model              string
	Prompt, Completion int
	Retries            int // failed attempts retried before the answer
}

// DOMID implements TimelineItem.
func (u *UsageLine) DOMID() string { return u.ID }

// CompactionLine reports that the context was compacted.
type CompactionLine struct {
	ID            string
	Before, After int
	Method        string
}

// DOMID implements TimelineItem.
func (c *CompactionLine) DOMID() string { return c.ID }

// ErrorLine is a failure reported by the runtime.
type ErrorLine struct {
	ID      string
	Message string
	Class   string
}

// DOMID implements TimelineItem.
func (e *ErrorLine) DOMID() string { return e.ID }

// WarningLine is a problem the runtime worked around (a prompt the server
// silently cut, an output cut at its length limit).
type WarningLine struct {
	ID      string
	Code    string
	Message string
}

// DOMID implements TimelineItem.
func (w *WarningLine) DOMID() string { return w.ID }

// DoneLine ends a turn.
type DoneLine struct {
	ID     string
	Reason string
	Steps  int
}

// DOMID implements TimelineItem.
func (d *DoneLine) DOMID() string { return d.ID }

// oob marks the root of a fragment as an out-of-band swap that replaces the
// element with the same id.
func oob(on bool) templ.Attributes {
	if on {
		return templ.Attributes{"hx-swap-oob": "true"}
	}
	return nil
}

func doneText(reason string, steps int) string {
	switch reason {
	case "answer":
		if steps == 1 {
			return "Answered in 1 step."
		}
		return fmt.Sprintf("Answered in %d steps.", steps)
	case "max_steps":
		return "Reached the step limit (" + plural(steps, "step", "steps") + "); the answer is what was found so far."
	case "cancelled":
		return "Stopped by you."
	case "interrupted":
		return "Interrupted: the server stopped while this turn was running."
	case "error":
		return "Ended with an error."
	}
	return "Finished (" + reason + ")."
}

func formatElapsed(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "under 1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

func decisionText(d string) string {
	switch d {
	case "allow_once":
		return "Allowed once."
	case "allow_always":
		return "Always allowed."
	case "deny":
		return "Denied."
	}
	return ""
}

// Plural is "1 paper", "0 papers", "2 papers": n with the noun in the
// right number.
func Plural(n int, one, many string) string { return plural(n, one, many) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func sessionTitle(t string) string {
	if t == "" {
		return "Untitled session"
	}
	return t
}

func modelName(m string) string {
	if m == "" {
		return "the first model the endpoint lists"
	}
	return m
}
