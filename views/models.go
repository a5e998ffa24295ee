// Package views holds the templ components of the web UI and the typed view
// models they render. Components receive view models only; they never call
// services or touch the database.
package views

import (
	"time"

	"github.com/astroresearch/astroresearch/research/sesame"
)

// Chrome is what the layout needs on every page.
type Chrome struct {
	BasePath string       // "" or "/prefix"; every link is built from it
	Title    string       // page title, without the site name
	User     *CurrentUser // nil when nobody is signed in
	Active   string       // key of the current navigation entry
	Flash    string       // a one-time status message, announced politely
	// Math loads static/js/math.js, which renders the formulas of
	// rendered Markdown (span.math) and fetches KaTeX only once a page
	// shows one; set by pages that show answers.
	Math bool
	// Triage shows the arXiv triage in the navigation (set when the
	// server has it).
	Triage bool
	// SkipTo are extra skip links after "Skip to main content", for pages
	// whose main control sits below long content (the question box under
	// a session's timeline).
	SkipTo []SkipLink
	// Assets maps static file names to their content-hashed names; nil
	// (tests, a file missing) links the plain name.
	Assets AssetPaths
}

// SkipLink is a skip link to the element with id Target.
type SkipLink struct {
	Target, Label string
}

// AssetPaths maps a static file's name ("css/app.css") to the
// content-hashed name it is served under ("css/app.1a2b3c4d5e6f.css"),
// which browsers may cache for a year.
type AssetPaths map[string]string

// Static is the URL of static file name (no leading slash), under its
// hashed name when it has one.
func (c Chrome) Static(name string) string {
	if h, ok := c.Assets[name]; ok {
		name = h
	}
	return c.BasePath + "/static/" + name
}

// CurrentUser is the signed-in user as the layout shows them.
type CurrentUser struct {
	Username string
	IsAdmin  bool
}

// URL prefixes path (which starts with "/") with the base path.
func (c Chrome) URL(path string) string { return c.BasePath + path }

// NavItem is one entry of the main navigation.
type NavItem struct {
	Key, Label, Path string
	// About says in one sentence what the area is for (the home page's
	// "Where to go" cards).
	About string
}

// Nav lists the areas that exist for this user. Areas that are not built
// yet are not listed at all.
func (c Chrome) Nav() []NavItem {
	if c.User == nil {
		return nil
	}
	items := []NavItem{
		{Key: "home", Label: "Home", Path: "/"},
		{Key: "research", Label: "Research", Path: "/research",
			About: "Ask questions; the agent searches the literature, reads papers and answers with citations."},
		{Key: "library", Label: "Library", Path: "/library",
			About: "Your saved papers: import, read, annotate, tag, ask questions over them and export BibTeX."},
		{Key: "measurements", Label: "Measurements", Path: "/measurements",
			About: "Values the papers in your library report (H0, masses, distances, ...), compared across papers with their sources."},
	}
	if c.Triage {
		items = append(items, NavItem{Key: "triage", Label: "arXiv triage", Path: "/triage",
			About: "Each day's new arXiv papers in the categories you follow, ranked against your library."})
	}
	items = append(items, []NavItem{
		{Key: "search", Label: "Search", Path: "/search",
			About: "Find words in your past sessions: your questions and the answers."},
		{Key: "jobs", Label: "Jobs", Path: "/jobs",
			About: "Downloads, parses and the agent's background tasks: progress, stop, and what went wrong."},
		{Key: "audit", Label: "Audit log", Path: "/audit",
			About: "Every tool call the agent made for you, with its status, duration and output."},
		{Key: "settings", Label: "Settings", Path: "/settings",
			About: "Change your password, manage API tokens and permission rules, and review what the agent remembers."},
	}...)
	if c.User.IsAdmin {
		items = append(items, NavItem{Key: "admin", Label: "Admin", Path: "/admin",
			About: "Add and disable accounts, reset passwords, back up the database, see server health."})
	}
	return items
}

// Areas are the areas of the main navigation other than Home: what the
// home page offers under "Where to go". It is Nav without its first entry,
// so that an area added to the navigation is offered there too.
func (c Chrome) Areas() []NavItem {
	var out []NavItem
	for _, it := range c.Nav() {
		if it.Key != "home" {
			out = append(out, it)
		}
	}
	return out
}

// FieldErrors maps a form field name to the message shown beside it.
type FieldErrors map[string]string

// SetupPage is the first-run page that creates the admin account.
type SetupPage struct {
	Chrome
	Username string
	Error    string
	Fields   FieldErrors
}

// LoginPage is the sign-in form.
type LoginPage struct {
	Chrome
	Username string
	Next     string // local path to return to after signing in
	Error    string
}

// HomePage is the landing page after signing in.
type HomePage struct {
	Chrome
	Username string
	Role     string
	// SandboxWarning is set when shell commands run without an OS sandbox.
	SandboxWarning string
}

// TokenRow is one personal API token in the settings list.
type TokenRow struct {
	ID        int64
	Name      string
	Hint      string
	CreatedAt time.Time
	LastUsed  *time.Time
}

// SettingsPage is the user's own settings: password and API tokens.
type SettingsPage struct {
	Chrome
	// Bookmarklet is the javascript: URL of the import bookmarklet.
	Bookmarklet    string
	PasswordError  string
	PasswordFields FieldErrors
	Tokens         []TokenRow
	NewToken       string // the secret of a token just created, shown once
	NewTokenName   string
	TokenError     string
	Rules          []RuleRow
	RuleForm       RuleForm
	// MCP is how to connect MCP clients (nil when the server offers none).
	MCP *MCPSetup
}

// RuleRow is one central permission rule in the settings list (docs/features.md R15).
type RuleRow struct {
	ID        int64
	Tool      string
	Pattern   string
	Decision  string // allow, ask, deny
	CreatedAt time.Time
}

// RuleForm is the add-a-rule form, with what was typed and why it was
// refused.
type RuleForm struct {
	Tool, Pattern, Decision string
	Fields                  FieldErrors
}

// RuleDecisions are the decisions a rule can have, in form order.
var RuleDecisions = []string{"allow", "ask", "deny"}

// UserRow is one account in the admin list.
type UserRow struct {
	ID        int64
	Username  string
	Role      string
	Disabled  bool
	CreatedAt time.Time
	IsSelf    bool
}

// SystemInfo is the admin's view of the running process.
type SystemInfo struct {
	Version       string
	Uptime        time.Duration
	DatabaseBytes int64
	HeapBytes     uint64
	Goroutines    int
	Sandbox       string // the shell tool's sandbox status
	Requests      uint64
	ServerErrors  uint64
	ClientErrors  uint64
	InFlight      int64
}

// ModelInfo is the LLM model state shown to admins.
type ModelInfo struct {
	Endpoint string // LLM_BASE_URL
	Primary  string // the configured (or admin-set) model; "" = first listed
	Active   string // the model new calls use
	Switched bool   // a fallback model is active after overloads
	Window   ContextWindow
}

// AdminPage lists users and the system state.
type AdminPage struct {
	Chrome
	Model      ModelInfo
	Users      []UserRow
	System     SystemInfo
	Error      string
	Fields     FieldErrors
	NewName    string
	NewRole    string
	BackupPath string
	// Agent is nil when the server runs without the agent's metrics hook.
	Agent *AgentCounters
}

// AgentCounters are the agent's totals since the server started (docs/features.md O4).
type AgentCounters struct {
	Turns            int
	Steps            int
	PromptTokens     int
	CompletionTokens int
	ToolErrors       int
	Duplicates       int
	Compactions      int
	MCPCalls         int // calls from MCP clients (tools, resources, prompts)
	MCPErrors        int
	Tools            []ToolCount // most called first
}

// ToolCount is one tool's calls and time.
type ToolCount struct {
	Name   string
	Calls  int
	Millis int64
}

// ErrorPage is shown for errors on HTML routes.
type ErrorPage struct {
	Chrome
	Status  int
	Message string
}

// TargetPage is the object-resolution page.
type TargetPage struct {
	Chrome
	Name   string         // what was asked
	Object *sesame.Object // nil until resolved
	Error  string
}

// MemoryKinds are the kinds a memory can have, in order.
var MemoryKinds = []string{"user", "feedback", "project", "reference"}

// MemoryRow is one memory on the memories page.
type MemoryRow struct {
	ID        int64
	Kind      string
	Content   string
	Source    string
	UpdatedAt time.Time
}

// MemoriesPage is the settings page of the user's memories.
type MemoriesPage struct {
	Chrome
	Items []MemoryRow
	Error string
	// New is the add-a-memory form: what was typed and why it was refused.
	New NewMemoryForm
}

// NewMemoryForm is the memories page's form that adds one.
type NewMemoryForm struct {
	Kind, Content, Error string
}

// ImportPage confirms a bookmarklet import.
type ImportPage struct {
	Chrome
	URL        string
	Recognised string // what the URL names ("arXiv 2401.01234v2"), "" when unknown
}

// PaperSearchPage is the ADS + arXiv search page.
type PaperSearchPage struct {
	Chrome
	Query, Sort string
	Hits        []PaperHit
	Notes       []string
	Error       string
}

// PaperHit is one merged search result.
type PaperHit struct {
	Title, Authors, Where, IDs string
	Ref                        string // what to import it by
	LibraryID                  int64  // non-zero when already in the library
}
