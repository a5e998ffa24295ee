// Command astroresearch is the AstroResearch server: one binary with an
// embedded SQLite database and a server-rendered web UI.
//
//	astroresearch               start the server (also: astroresearch serve)
//	astroresearch backup FILE   write a consistent copy of the database to FILE
//	astroresearch version       print the version
//
// Configuration comes from the environment and an optional .env file in the
// working directory (see .env.example).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/tools"
	fstools "github.com/astroresearch/astroresearch/agent/tools/fs"
	"github.com/astroresearch/astroresearch/agent/tools/shell"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/handlers"
	"github.com/astroresearch/astroresearch/mcpserver"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/static"
	"github.com/astroresearch/astroresearch/store"
)

// version is set at link time (-ldflags "-X main.version=...").
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	getenv, err := config.WithDotenv(os.LookupEnv, ".env")
	if err == nil {
		err = run(ctx, os.Args[1:], getenv, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "astroresearch:", err)
		os.Exit(1)
	}
}

// run is the whole program, testable in-process: it returns when ctx is
// cancelled (after a graceful shutdown) or on a fatal error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, buildVersion())
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, "usage: astroresearch [serve | backup FILE | mcp [--url URL] [--token-file FILE] | version]")
		return nil
	case "mcp": // a client of a running server: none of the server's settings apply
		return mcpBridge(ctx, args, getenv, os.Stdin, stdout, os.Stderr)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stdout)
	switch cmd {
	case "serve":
		return serve(ctx, cfg, log)
	case "backup":
		if len(args) != 1 {
			return errors.New("usage: astroresearch backup FILE")
		}
		return backup(ctx, cfg, args[0], stdout)
	}
	return fmt.Errorf("unknown command %q (try: serve, backup FILE, version)", cmd)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel)) // validated by config.Load
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

func dbPath(cfg config.Config) string { return filepath.Join(cfg.DataDir, "astroresearch.db") }

// serve runs the HTTP server. It listens before migrating, so /healthz
// answers at once and /readyz reports 503 until the schema is current.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	start := time.Now()
	st, err := store.Open(ctx, dbPath(cfg), store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	accounts := auth.NewAccounts(st, auth.Options{})
	web, services, err := newFetchers(cfg)
	if err != nil {
		return err
	}
	targets := sesame.New(fetchGetter{web}, nil, cfg.SesameURL, cfg.SesameMirror)
	adsClient, arxivClient := ads.New(cfg.ADSAPIURL, cfg.ADSAPIToken, web), arxiv.New(cfg.ArxivAPIURL, web)
	papers := literature.NewSearcher(adsClient, arxivClient)
	lib := library.New(st, adsClient, arxivClient)
	downloads := library.NewDownloader(st, web, adsClient, library.DownloadOptions{DataDir: cfg.DataDir, ArxivPDFURL: cfg.ArxivPDFURL})
	parser := parse.NewService(st, cfg.DataDir,
		&parse.ArxivHTMLEngine{Web: web, HTMLURL: cfg.ArxivHTMLURL, Ar5ivURL: cfg.Ar5ivURL},
		&parse.IOPHTMLEngine{Web: web, URL: cfg.IOPURL},     // papers with an IOP DOI whose page has the full text
		&parse.AandAHTMLEngine{Web: web, URL: cfg.AandAURL}, // papers with an A&A DOI whose page has the full text
		// Only when MINERU_API_URL is set; its models need minutes for a long paper.
		&parse.MinerUEngine{Web: services, URL: cfg.MinerUAPIURL, Limits: parse.Limits{Timeout: 10 * time.Minute}},
		&parse.GrobidEngine{Web: services, URL: cfg.GrobidURL}, // only when GROBID_URL is set
		&parse.PDFEngine{})
	mem := memory.New(st, cfg.DataDir)
	metrics := agent.NewMetrics()
	model := newModel(cfg, log)
	values := measure.NewService(st, markdownSource(parser), log)
	passages := newRag(cfg, st, model, parser, values.Wake, log)
	parser.OnParsed = func(ctx context.Context, paperID int64) {
		if err := passages.Enqueue(ctx, paperID); err != nil {
			log.Warn("rag: queue parsed paper for indexing", "paper", paperID, "err", err)
		}
	}
	objectReports := objects.New(st, targets, adsClient)
	rt, events, sandbox, err := newRuntime(ctx, cfg, st, model, agent.ToolDeps{Targets: targets, Papers: papers, Library: lib,
		Importer: lib, Downloads: downloads, Memory: mem, Parser: parser, Rag: passages, BasePath: cfg.BasePath,
		Objects: objectReports, Measurements: measure.NewTables(st, targets)}, metrics, log)
	if err != nil {
		return err
	}
	mcpSvc, err := mcpserver.New(mcpserver.Deps{Runtime: rt, Store: st, Skills: rt.Skills(), Version: buildVersion(), Log: log})
	if err != nil {
		return err
	}
	daily, err := newTriage(cfg, st, arxivClient, targets, lib, model, log)
	if err != nil {
		return err
	}
	var ready atomic.Bool
	srv, err := handlers.New(handlers.Deps{
		Config: cfg, Store: st, Accounts: accounts, Log: log, Static: static.FS,
		Ready: &ready, Version: buildVersion(), Agent: rt, Events: events, Model: model,
		Targets: targets, Sandbox: handlers.SandboxInfo{Available: sandbox.Available, Message: sandbox.Message()},
		Memory: mem, Library: lib, BibTeX: adsClient, Papers: papers, Downloads: downloads, Links: library.NewLinks(st, adsClient), Parser: parser, Rag: passages,
		AgentMetrics: metrics, MCP: mcpSvc, Objects: objectReports, Triage: daily,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s (ADDR): %w", cfg.Addr, err)
	}
	httpSrv := &http.Server{
		Handler:           srv.Echo(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// No WriteTimeout: event streams are long-lived. Routes set their own
		// deadlines (handlers.deadline).
	}
	serveErr := make(chan error, 1)
	go func() {
		if cfg.TLS() {
			serveErr <- httpSrv.ServeTLS(ln, cfg.TLSCertFile, cfg.TLSKeyFile)
		} else {
			serveErr <- httpSrv.Serve(ln)
		}
	}()
	log.Info("listening", "addr", ln.Addr().String(), "base_path", cfg.BasePath, "data_dir", cfg.DataDir, "tls", cfg.TLS())

	if err := prepare(ctx, cfg, st, accounts, rt, passages, log); err != nil {
		_ = httpSrv.Close()
		return err
	}
	ready.Store(true)
	log.Info("ready", "startup", time.Since(start).Round(time.Millisecond), "version", buildVersion())

	cleanupCtx, stopCleanup := context.WithCancel(ctx)
	defer stopCleanup()
	go st.Sessions().RunCleanup(cleanupCtx, 10*time.Minute, log)
	indexerDone, valuesDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(indexerDone)
		passages.Run(cleanupCtx) // resumes indexing left over from the last run
	}()
	go func() {
		defer close(valuesDone)
		values.Run(cleanupCtx) // extracts the values of papers indexed since the last run
	}()
	triageDone := make(chan struct{})
	go func() {
		defer close(triageDone)
		daily.Run(cleanupCtx) // the daily arXiv fetch; catches up missed days
	}()
	defer func() { stopCleanup(); <-indexerDone; <-valuesDone; <-triageDone }()

	select {
	case err := <-serveErr:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// Running turns record their state and emit done; then event streams
	// end cleanly and the HTTP server drains.
	if err := rt.Shutdown(shutdownCtx); err != nil {
		log.Warn("turns still running at shutdown", "err", err)
	}
	events.Broker().CloseAll()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		log.Warn("graceful shutdown timed out; closing connections", "err", err)
		_ = httpSrv.Close()
	}
	if err := srv.StopDownloads(shutdownCtx); err != nil {
		log.Warn("PDF downloads still running at shutdown", "err", err)
	}
	log.Info("stopped")
	return nil
}

// prepare applies migrations, closes turns a crash left open, readies the
// passage index and creates the configured admin.
func prepare(ctx context.Context, cfg config.Config, st *store.Store, accounts *auth.Accounts, rt *agent.Runtime, passages *rag.Service, log *slog.Logger) error {
	n, err := st.Migrate(ctx, migrations.FS)
	if err != nil {
		return err
	}
	if n > 0 {
		log.Info("database migrated", "applied", n, "path", st.Path())
	}
	go func() { // the model's context window, asked once at start (turns ask again after a model switch)
		if lim := rt.RefreshLimits(ctx); lim.Window > 0 {
			log.Info("agent context limits", "model", lim.Model, "window", lim.Window, "source", lim.Source)
		}
	}()
	if n, err := rt.Recover(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Warn("closed turns interrupted by the last shutdown", "count", n)
	}
	if err := passages.Prepare(ctx); err != nil {
		return err
	}
	if cfg.AdminUser != "" {
		created, err := accounts.EnsureAdmin(ctx, cfg.AdminUser, cfg.AdminPassword)
		if err != nil {
			return err
		}
		if created {
			log.Info("administrator created from ADMIN_USER", "user", cfg.AdminUser)
		}
	}
	return nil
}

// newModel is the chat model client (LLM_*).
func newModel(cfg config.Config, log *slog.Logger) *llm.Client {
	// Many turns talk to one provider: keep enough idle connections that
	// each step does not pay a new TLS handshake.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 64
	return llm.New(llm.Config{BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey, Model: cfg.LLMModel,
		FallbackModel: cfg.LLMFallbackModel, FallbackChain: cfg.LLMFallbackChain, Log: log,
		HTTPClient: &http.Client{Transport: transport}})
}

// markdownSource gives the parsed Markdown of a paper, the text both the
// passage index and the values index read.
func markdownSource(parser *parse.Service) func(ctx context.Context, paperID int64) (string, error) {
	return func(ctx context.Context, paperID int64) (string, error) {
		md, _, err := parser.Markdown(ctx, paperID)
		if errors.Is(err, parse.ErrNotParsed) {
			return "", fmt.Errorf("%w: %w", rag.ErrNoMarkdown, err)
		}
		return md, err
	}
}

// newRag is retrieval over the library: passages from the parsed Markdown,
// embeddings from EMBEDDING_* (the LLM endpoint and key when
// EMBEDDING_BASE_URL is empty; keyword search only without
// EMBEDDING_MODEL), answers from the chat model.
func newRag(cfg config.Config, st *store.Store, model *llm.Client, parser *parse.Service, onIndexed func(), log *slog.Logger) *rag.Service {
	opt := rag.Options{Generator: llm.TextGenerator{Client: model}, Source: markdownSource(parser), OnIndexed: func(int64) { onIndexed() }, Log: log}
	if e, ok := newEmbedder(cfg, log); ok {
		opt.Embedder, opt.EmbedModel = e, cfg.EmbeddingModel
	}
	return rag.New(st, opt)
}

// newRuntime wires the agent runtime: event log, hooks (built-in plus
// DATA_DIR/hooks.json), permissions and the tool registry around model.
func newRuntime(ctx context.Context, cfg config.Config, st *store.Store, model *llm.Client, td agent.ToolDeps, metrics *agent.Metrics, log *slog.Logger) (*agent.Runtime, *agent.EventLog, shell.SandboxStatus, error) {
	var none shell.SandboxStatus
	events := agent.NewEventLog(st, agent.NewBroker())
	hooks := agent.NewHooks(log)
	hooks.RegisterBuiltins(st, metrics, log)
	hooksFile := filepath.Join(cfg.DataDir, "hooks.json")
	if n, err := hooks.LoadCommandHooks(hooksFile); err != nil {
		return nil, nil, none, err
	} else if n > 0 {
		log.Info("command hooks loaded", "count", n, "file", hooksFile)
	}
	skillLib, err := skills.NewLibrary(filepath.Join(cfg.DataDir, "skills"), log)
	if err != nil {
		return nil, nil, none, err
	}
	if n, err := skillLib.Install(); err != nil {
		return nil, nil, none, err
	} else if n > 0 {
		log.Info("built-in skills installed", "count", n, "dir", skillLib.Dir())
	}
	bash, sandbox, err := newBash(ctx, cfg, log)
	if err != nil {
		return nil, nil, none, err
	}
	roots, err := fstools.OpenRoots(fstools.Options{DataDir: cfg.DataDir,
		WorkspaceDir: filepath.Join(cfg.DataDir, "workspace"), LibraryDir: filepath.Join(cfg.DataDir, "library"),
		SkillsDir: skillLib.Dir(), Protected: []string{dbPath(cfg), ".env"}})
	if err != nil {
		return nil, nil, none, err
	}
	fileCache := fstools.NewFileCache(0, 0)
	files := fstools.Tools(roots, fileCache)
	td.Store, td.Skills, td.Bash, td.Files = st, skillLib, bash, files
	set := cfg.AgentLimitsSet // limits left unset follow the model's context window
	rt := agent.New(agent.Config{
		MaxSteps: cfg.AgentMaxSteps, ToolTimeout: cfg.AgentToolTimeout, MaxToolOutput: config.ExplicitLimit(set.ToolOutput, cfg.AgentMaxToolOutput),
		DataDir: cfg.DataDir, WorkspaceDir: filepath.Join(cfg.DataDir, "workspace"), DefaultThinking: cfg.LLMEnableThinking,
		Budget: compact.Budget{SoftLimit: config.ExplicitLimit(set.SoftLimit, cfg.AgentTokenSoftLimit),
			HardLimit:   config.ExplicitLimit(set.HardLimit, cfg.AgentTokenHardLimit),
			MaxMessages: config.ExplicitLimit(set.MaxMessages, cfg.AgentMaxMessages), CharLimit: config.ExplicitLimit(set.CharLimit, cfg.AgentContextCharLimit)},
		ExtractMemories: cfg.AgentMemoryExtraction, CoordinatorWorkers: cfg.CoordinatorWorkers, ContextWindow: cfg.LLMContextWindow,
		ProposeTitles: cfg.AgentTitleProposal,
	}, agent.Deps{Window: model,
		Summarizer: compact.ModelSummarizer(model), Files: fileCache, Memory: td.Memory,
		Store: st, Model: model, Events: events, Hooks: hooks, Perms: agent.NewPermissions(st, true), Log: log,
		Skills: skillLib, Registry: func() *tools.Registry { return agent.StandardRegistry(td) },
	})
	return rt, events, sandbox, nil
}

// newBash builds run_bash over DATA_DIR/workspace with the sandbox
// AGENT_BASH_SANDBOX asks for, and reports whether the sandbox works here.
func newBash(ctx context.Context, cfg config.Config, log *slog.Logger) (tools.Tool, shell.SandboxStatus, error) {
	mode, err := shell.ParseSandboxMode(cfg.AgentBashSandbox)
	if err != nil {
		return nil, shell.SandboxStatus{}, fmt.Errorf("AGENT_BASH_SANDBOX: %w", err)
	}
	ws, err := filepath.Abs(filepath.Join(cfg.DataDir, "workspace"))
	if err != nil {
		return nil, shell.SandboxStatus{}, err
	}
	opts := shell.Options{Workspace: ws, UserDir: fstools.UserWorkspace, Sandbox: mode,
		MaxTimeout: min(shell.DefaultMaxTimeout, cfg.AgentToolTimeout)}
	if err := opts.Validate(); err != nil {
		return nil, shell.SandboxStatus{}, err
	}
	status := shell.SandboxStatus{Reason: "disabled by AGENT_BASH_SANDBOX=off"}
	if mode != shell.SandboxOff {
		status = shell.Detect(ctx)
	}
	if status.Available {
		log.Info("run_bash sandbox available", "workspace", ws)
	} else {
		log.Warn("run_bash runs without an OS sandbox", "reason", status.Reason, "mode", mode)
	}
	return shell.RunBash(opts, status), status, nil
}

// newFetchers returns the guarded outbound HTTP clients (docs/features.md S7). web
// fetches from the internet, URLs taken from papers and publishers
// included (a landing page's PDF link, a DOI redirect); the only
// addresses it may reach on a private network or loopback are the
// configured literature and resolver endpoints. services talks to the
// operator's own parse services (GROBID_URL, MINERU_API_URL), which
// usually live on a private network: they are allowed there and nowhere
// else, so a URL from a paper or a redirect cannot reach them through web.
func newFetchers(cfg config.Config) (web, services *fetch.Client, err error) {
	web, err = guardedClient(cfg.ADSAPIURL, cfg.ArxivAPIURL, cfg.ArxivPDFURL, cfg.ArxivHTMLURL, cfg.Ar5ivURL, cfg.IOPURL, cfg.AandAURL,
		cfg.SesameURL, cfg.SesameMirror)
	if err != nil {
		return nil, nil, err
	}
	services, err = guardedClient(cfg.MinerUAPIURL, cfg.GrobidURL)
	if err != nil {
		return nil, nil, err
	}
	return web, services, nil
}

// guardedClient is a fetch client whose allow list is the non-empty
// endpoints.
func guardedClient(endpoints ...string) (*fetch.Client, error) {
	var allow []string
	for _, u := range endpoints {
		if u != "" {
			allow = append(allow, u)
		}
	}
	opts := fetch.Options{Version: buildVersion(), Allow: allow}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return fetch.New(opts), nil
}

// fetchGetter adapts the guarded client to the Sesame client.
type fetchGetter struct{ c *fetch.Client }

func (g fetchGetter) Get(ctx context.Context, u string) (int, []byte, error) {
	res, err := g.c.Get(ctx, u, fetch.WithMaxBytes(1<<20), fetch.WithTimeout(15*time.Second))
	if err != nil {
		return 0, nil, err
	}
	return res.Status, res.Body, nil
}

// backup writes a consistent copy of the database to dest (docs/features.md O5).
func backup(ctx context.Context, cfg config.Config, dest string, stdout io.Writer) error {
	if _, err := os.Stat(dbPath(cfg)); err != nil {
		return fmt.Errorf("no database at %s (DATA_DIR): %w", dbPath(cfg), err)
	}
	st, err := store.Open(ctx, dbPath(cfg), store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, dest); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s\n", dest)
	return nil
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}
