package views

import (
	"time"
	"unicode/utf8"
)

// AuditPage is /audit: the tool calls of the user's sessions (all users'
// for an admin who asks), newest first, a page at a time.
type AuditPage struct {
	Chrome
	Rows     []AuditRow
	Filter   AuditFilter
	Sessions []SessionOption // the user's sessions, for the session filter
	Tools    []string        // tools seen in the rows in scope
	Statuses []string
	CanAll   bool // the user is an admin and may see every user's rows
	Page     int
	PrevURL  string // "" on the first page
	NextURL  string // "" on the last page
	Error    string
}

// AuditFilter is the filter form's state.
type AuditFilter struct {
	Session, Tool, Status string
	All                   bool // every user's sessions (admins)
}

// SessionOption is a session in a select.
type SessionOption struct {
	ID, Title string
}

// AuditRow is one tool call in the table.
type AuditRow struct {
	SessionID    string
	SessionTitle string
	SessionURL   string // the table filtered to this session
	Username     string // shown when every user's rows are listed
	Turn, Step   int
	// Agent is the agent_name of the row: "lead", a sub-agent's name
	// (sub_…), or "memory" (the memory extractor).
	Agent     string
	Tool      string
	Status    string
	ElapsedMS int64
	Preview   string
	When      time.Time
}

// AgentLabel says which agent made the call, in words.
func (r AuditRow) AgentLabel() string {
	switch {
	case r.Agent == "" || r.Agent == "lead":
		return "lead"
	case r.Agent == "memory" || r.Agent == "sub_memory":
		return "memory"
	}
	return r.Agent
}

// previewChars bounds the output shown in a table cell before "more".
const previewChars = 160

// ShortPreview is the start of the output preview.
func (r AuditRow) ShortPreview() string {
	if utf8.RuneCountInString(r.Preview) <= previewChars {
		return r.Preview
	}
	return string([]rune(r.Preview)[:previewChars]) + "…"
}

// LongPreview reports whether the preview is cut in the table.
func (r AuditRow) LongPreview() bool { return utf8.RuneCountInString(r.Preview) > previewChars }
