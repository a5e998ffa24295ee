// Package handlers is the HTTP layer: echo routes, middleware and the
// handlers that turn requests into service calls and view models. It holds
// no business rules; those live in auth, research and agent.
package handlers

import (
	"context"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/internal/jobs"
	"github.com/astroresearch/astroresearch/mcpserver"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/research/triage"
	"github.com/astroresearch/astroresearch/store"
)

// Deps is everything the HTTP layer needs. All fields are required unless
// noted.
type Deps struct {
	Config   config.Config
	Store    *store.Store
	Accounts *auth.Accounts
	Log      *slog.Logger
	Static   fs.FS            // the static assets (static.FS)
	Now      func() time.Time // clock for session expiry; time.Now when nil
	Ready    *atomic.Bool     // true once migrations are applied
	Version  string           // shown to admins
	// DataDir is where backups are written (Config.DataDir when empty).
	DataDir string
	// Agent runs research turns; Events is its event log.
	Agent  *agent.Runtime
	Events *agent.EventLog
	// Model is the LLM client's model switch, shown and set on the admin page.
	Model ModelControl
	// Targets resolves object names (CDS Sesame).
	Targets TargetResolver
	// Sandbox says whether run_bash has an OS sandbox (shown to users).
	Sandbox SandboxInfo
	// Memory is the users' long-term memory (the memories page).
	Memory *memory.Service
	// Library imports and looks up papers.
	Library *library.Library
	// Papers searches ADS and arXiv together.
	Papers PaperSearcher
	// BibTeX is ADS's export, used for papers with a bibcode when a token
	// is set (nil: always generated locally).
	BibTeX library.Exporter
	// Downloads fetches papers' PDFs for the library pages' Download
	// button; optional (no button when nil).
	Downloads *library.Downloader
	// Links lists papers' citations and references from ADS; optional (no
	// block on paper pages and 404 from its routes when nil).
	Links *library.Links
	// Parser turns papers into Markdown for the reader; optional (no
	// Parse button when nil).
	Parser *parse.Service
	// Rag answers questions from the library's passages (the "Ask my
	// library" box); optional (no box when nil).
	Rag *rag.Service
	// AgentMetrics is the agent's built-in metrics hook, whose totals the
	// admin page shows; optional.
	AgentMetrics *agent.Metrics
	// MCP serves the Model Context Protocol at /mcp; optional (no route
	// and no settings snippet when nil).
	MCP *mcpserver.Service
	// Objects builds the object pages; optional (nil: built from Store and
	// Targets, without the ADS literature block).
	Objects *objects.Service
	// Triage is the daily arXiv triage; optional (no /triage when nil).
	Triage *triage.Service
}

// SandboxInfo is what users are told about the shell tool's sandbox.
type SandboxInfo struct {
	Available bool
	Message   string
}

// TargetResolver resolves astronomical object names.
type TargetResolver interface {
	Resolve(ctx context.Context, name string) (sesame.Object, error)
}

// ModelControl is the run-time model switch of the LLM client (docs/features.md R5).
type ModelControl interface {
	ActiveModel() string
	SetModel(name string)
	FallbackState() (primary, active string, switched bool)
	// ThinkingToggle reports whether the active model's reasoning can be
	// switched on and off per turn (the question form shows the toggle).
	ThinkingToggle() bool
}

// Server holds the handlers' shared state. Create it with New.
type Server struct {
	cfg          config.Config
	st           *store.Store
	accounts     *auth.Accounts
	log          *slog.Logger
	static       fs.FS
	now          func() time.Time
	ready        *atomic.Bool
	version      string
	dataDir      string
	started      time.Time
	proxies      trustedProxies
	sessions     sessionManagers
	metrics      metrics
	agent        *agent.Runtime
	events       *agent.EventLog
	model        ModelControl
	targets      TargetResolver
	sandbox      SandboxInfo
	agentMetrics *agent.Metrics
	memory       *memory.Service
	library      *library.Library
	bibtex       library.Exporter
	papers       PaperSearcher
	downloads    *library.Downloader
	parser       *parse.Service
	links        *library.Links
	rag          *rag.Service
	mcp          *mcpserver.Service
	// assets are the static files, hashed and compressed at start-up.
	assets  *assetTable
	objects *objects.Service
	triage  *triage.Service
	// bufs holds render buffers for reuse (*bytes.Buffer).
	bufs sync.Pool
	// gzips holds compressors for on-the-fly compression.
	gzips gzipPool
	// listCache holds rendered library list blocks for the current
	// library version.
	listCache *versionedCache[string]
	// paperJobs runs the downloads and parses started from paper pages
	// as stored jobs.
	paperJobs *jobs.Runner
	e         *echo.Echo

	bookmarklet, api *echo.Group
}

// New builds the echo instance with every route and middleware. It returns
// an error naming the missing fields when a required dependency is nil, and
// the error of any route layer that cannot be built.
func New(d Deps) (*Server, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.DataDir == "" {
		d.DataDir = d.Config.DataDir
	}
	s := &Server{
		cfg: d.Config, st: d.Store, accounts: d.Accounts, log: d.Log, static: d.Static,
		now: d.Now, ready: d.Ready, version: d.Version, dataDir: d.DataDir, started: d.Now(),
		proxies: trustedProxies(d.Config.TrustedProxies), agent: d.Agent, events: d.Events, model: d.Model, targets: d.Targets, sandbox: d.Sandbox, agentMetrics: d.AgentMetrics, memory: d.Memory, library: d.Library, bibtex: d.BibTeX, papers: d.Papers, downloads: d.Downloads, parser: d.Parser, links: d.Links, rag: d.Rag,
	}
	s.mcp = d.MCP
	assets, err := loadAssets(d.Static)
	if err != nil {
		return nil, err
	}
	s.assets = assets
	s.objects = d.Objects
	if s.objects == nil {
		s.objects = objects.New(d.Store, d.Targets, nil)
	}
	s.triage = d.Triage
	s.listCache = newVersionedCache[string](256)
	s.paperJobs = jobs.NewRunner(d.Store, d.Log)
	s.sessions = newSessionManagers(d.Config, d.Store.Sessions(), s.proxies, s.sessionError)
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = s.proxies.realIP
	e.HTTPErrorHandler = s.handleError
	s.e = e
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}

// Echo returns the configured echo instance (an http.Handler).
func (s *Server) Echo() *echo.Echo { return s.e }

// sm returns the session manager for c's request (the HTTPS or the plain
// HTTP cookie settings); a short name because most handlers call it.
func (s *Server) sm(c echo.Context) *scs.SessionManager { return s.sessions.For(c.Request()) }
