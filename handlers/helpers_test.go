package handlers

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/auth"
	"github.com/astroresearch/astroresearch/config"
	"github.com/astroresearch/astroresearch/mcpserver"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// fakeClock is a settable clock shared by the store, accounts and server.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testApp is a real HTTP server over a real SQLite file.
type testApp struct {
	t        testing.TB
	dir      string // DATA_DIR
	srv      *Server
	http     *httptest.Server
	clock    *fakeClock
	store    *store.Store
	accounts *auth.Accounts
	ready    *atomic.Bool
	base     string // BASE_PATH

	fake       *llmtest.Server
	model      *llm.Client
	memory     *memory.Service
	rt         *agent.Runtime
	events     *agent.EventLog
	extraTools *[]tools.Tool   // added to every turn's registry
	toolDeps   *agent.ToolDeps // what every turn's registry is built from
	rag        *rag.Service    // keyword-only retrieval, answers from fake
}

// newApp starts a migrated app. env overrides configuration variables.
func newApp(t *testing.T, env map[string]string) *testApp {
	t.Helper()
	return newAppLogged(t, env, slog.New(slog.NewTextHandler(testLogWriter{t}, nil)))
}

// newAppForBench is newApp for benchmarks: logs are discarded.
func newAppForBench(b *testing.B) *testApp {
	return newAppLogged(b, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func newAppLogged(t testing.TB, env map[string]string, log *slog.Logger) *testApp {
	ctx := context.Background()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "astro.db"), store.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	accounts := auth.NewAccounts(st, auth.Options{
		Argon2: auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, Now: clock.Now,
		LoginIPBurst: 8, LoginIPEvery: time.Second, LoginUserBurst: 4, LoginUserEvery: time.Minute,
	})
	ready := &atomic.Bool{}
	ready.Store(true)
	staticFS := fstest.MapFS{
		"css/app.css": {Data: []byte("body{}")},
		"embed.go":    {Data: []byte("package static")},
	}
	fake := llmtest.New(t)
	model := llm.New(llm.Config{BaseURL: fake.URL(), Model: "test-model",
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	events := agent.NewEventLog(st, agent.NewBroker())
	hooks := agent.NewHooks(log)
	metrics := agent.NewMetrics()
	hooks.RegisterBuiltins(st, metrics, log)
	extra := &[]tools.Tool{}
	deps := &agent.ToolDeps{Store: st} // useResearchTools widens it
	// Memory extraction costs model calls the scripts would have to answer:
	// only tests that ask for it (AGENT_MEMORY_EXTRACTION=true) get it.
	rt := agent.New(agent.Config{DataDir: dir, ToolTimeout: 5 * time.Second, ExtractMemories: env["AGENT_MEMORY_EXTRACTION"] == "true",
		ContextWindow: cfg.LLMContextWindow}, agent.Deps{
		Store: st, Model: model, Events: events, Hooks: hooks, Perms: agent.NewPermissions(st, true), Log: log,
		Now: clock.Now, Window: model,
		Registry: func() *tools.Registry {
			r := agent.StandardRegistry(*deps)
			for _, x := range *extra {
				if err := r.Add(x); err != nil {
					panic(err)
				}
			}
			return r
		},
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rt.Shutdown(ctx)
		events.Broker().CloseAll()
	})
	mem := memory.New(st, dir)
	passages := rag.New(st, rag.Options{Generator: llm.TextGenerator{Client: model}, Log: log})
	adsClient := fakeADSClient(fakeADS(t), cfg.ADSAPIToken)
	mcpSvc, err := mcpserver.New(mcpserver.Deps{Runtime: rt, Store: st, Version: "test", Log: log})
	if err != nil {
		t.Fatal(err)
	}
	targets := fakeSesame(t)
	srv, err := New(Deps{Config: cfg, Store: st, Accounts: accounts, Static: staticFS, Now: clock.Now, MCP: mcpSvc,
		Ready: ready, Version: "test", DataDir: dir, Log: log, Agent: rt, Events: events, Model: model,
		Targets: targets, Objects: objects.New(st, targets, adsClient), Sandbox: SandboxInfo{Message: "Commands run without an OS sandbox: test."},
		Library: fakeLibrary(t, st, adsClient), Links: library.NewLinks(st, adsClient), Papers: fakePapers(t), Downloads: fakeDownloader(t, st, dir), Memory: mem,
		Parser: parse.NewService(st, dir, &parse.PDFEngine{}),
		Rag:    passages, AgentMetrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.WaitDownloads) // before the store closes (cleanups run last-in first-out)
	a := &testApp{t: t, dir: dir, srv: srv, model: model, memory: mem, clock: clock, store: st, accounts: accounts, ready: ready, base: cfg.BasePath,
		fake: fake, rt: rt, events: events, extraTools: extra, toolDeps: deps, rag: passages}
	a.http = httptest.NewServer(srv.Echo())
	t.Cleanup(a.http.Close)
	return a
}

// url returns the absolute URL of a path under the base path.
func (a *testApp) url(path string) string { return a.http.URL + a.base + path }

// client is a browser-like HTTP client: a cookie jar, no redirect following.
type client struct {
	a   *testApp
	hc  *http.Client
	jar *cookiejar.Jar
}

func (a *testApp) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{a: a, jar: jar, hc: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// response is a read response.
type response struct {
	*http.Response
	body string
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, r.body)
	}
}

func (c *client) do(req *http.Request, headers ...string) response {
	c.a.t.Helper()
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.hc.Do(req)
	if err != nil {
		c.a.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Response: res, body: string(b)}
}

func (c *client) get(path string, headers ...string) response {
	req, _ := http.NewRequest(http.MethodGet, c.a.url(path), nil)
	return c.do(req, headers...)
}

func (c *client) postForm(path string, form url.Values, headers ...string) response {
	req, _ := http.NewRequest(http.MethodPost, c.a.url(path), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req, headers...)
}

func (c *client) postJSON(path, body string, headers ...string) response {
	req, _ := http.NewRequest(http.MethodPost, c.a.url(path), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, headers...)
}

func (c *client) method(method, path string, headers ...string) response {
	req, _ := http.NewRequest(method, c.a.url(path), nil)
	return c.do(req, headers...)
}

// sessionCookie returns the value of the session cookie the jar holds.
func (c *client) sessionCookie() string {
	u, _ := url.Parse(c.a.http.URL)
	for _, ck := range c.jar.Cookies(u) {
		if ck.Name == "astro_session" {
			return ck.Value
		}
	}
	return ""
}

// setSessionCookie replaces the jar's session cookie (to replay an old one).
func (c *client) setSessionCookie(v string) {
	u, _ := url.Parse(c.a.http.URL)
	c.jar.SetCookies(u, []*http.Cookie{{Name: "astro_session", Value: v, Path: "/"}})
}

const (
	adminName = "vera"
	adminPass = "galaxy-rotation"
)

// setupAdmin creates the first admin through the setup form and returns a
// signed-in client.
func (a *testApp) setupAdmin() *client {
	a.t.Helper()
	c := a.client()
	res := c.postForm("/setup", url.Values{"username": {adminName}, "password": {adminPass}})
	if res.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("setup = %d\n%s", res.StatusCode, res.body)
	}
	return c
}

// member creates a member account directly and returns a signed-in client.
func (a *testApp) member(name, pass string) *client {
	a.t.Helper()
	if _, err := a.accounts.CreateUser(context.Background(), name, pass, store.RoleMember); err != nil {
		a.t.Fatal(err)
	}
	c := a.client()
	if res := c.apiLogin(name, pass); res.StatusCode != http.StatusOK {
		a.t.Fatalf("login %s = %d %s", name, res.StatusCode, res.body)
	}
	return c
}

func (c *client) apiLogin(name, pass string) response {
	b, _ := json.Marshal(LoginRequest{Username: name, Password: pass})
	return c.postJSON("/api/auth/login", string(b))
}

func (c *client) verify() int {
	return c.get("/api/auth/verify").StatusCode
}

var secretRE = regexp.MustCompile(`astro_[A-Za-z0-9_-]{43}`)

func expectStatus(t *testing.T, what string, res response, want int) {
	t.Helper()
	if res.StatusCode != want {
		t.Fatalf("%s: status %d, want %d\n%s", what, res.StatusCode, want, res.body)
	}
}

func expectAPIError(t *testing.T, what string, res response, status int, code string) {
	t.Helper()
	expectStatus(t, what, res, status)
	var e APIError
	res.json(t, &e)
	if e.Error.Code != code || e.Error.Message == "" {
		t.Fatalf("%s: error %+v, want code %q with a message", what, e.Error, code)
	}
}

// testLogWriter sends the server's log to the test log (shown on failure).
type testLogWriter struct{ t testing.TB }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// fakeSesame serves a Sesame answer for NGC 1275, "not found" for other
// names and a 503 for "down".
func fakeSesame(t testing.TB) *sesame.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.ToLower(r.URL.RawQuery)
		switch {
		case name == "down":
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
		case strings.Contains(name, "1275"):
			w.Write([]byte(`<?xml version="1.0"?><Sesame><Target><name>NGC 1275</name><Resolver name="S=Simbad"><otype>SyG</otype>` +
				`<jradeg>49.9506671</jradeg><jdedeg>41.5116953</jdedeg><z>0.017559</z><oname>NGC  1275</oname>` +
				`<alias>Perseus A</alias><alias>3C  84</alias></Resolver></Target></Sesame>`))
		default:
			w.Write([]byte(`<?xml version="1.0"?><Sesame><Target><name>x</name><Resolver name="S=Simbad"><INFO>*** Nothing found ***</INFO></Resolver></Target></Sesame>`))
		}
	}))
	t.Cleanup(srv.Close)
	return sesame.New(plainGetter{srv.Client()}, nil, srv.URL)
}

// plainGetter is an unguarded Getter for the loopback fake.
type plainGetter struct{ c *http.Client }

func (g plainGetter) Get(ctx context.Context, u string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := g.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// fakeLibrary is the library service over a local fake of arXiv (serving
// the arxiv package's id_list fixture) and adsClient (the ADS fake, with
// the configured token or none).
func fakeLibrary(t testing.TB, st *store.Store, adsClient *ads.Client) *library.Library {
	feed, err := os.ReadFile("../research/arxiv/testdata/idlist.xml")
	if err != nil {
		t.Fatal(err)
	}
	ax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Query().Get("id_list"), "2401.01234") {
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>0</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex><opensearch:itemsPerPage>0</opensearch:itemsPerPage></feed>`))
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write(feed)
	}))
	t.Cleanup(ax.Close)
	web := fetch.New(fetch.Options{Allow: []string{ax.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return library.New(st, adsClient, arxiv.New(ax.URL+"/api/query", web))
}

// fakePDF is the content the fake PDF server serves.
const fakePDF = "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

// fakeDownloader is a PDF downloader over a local fake of arXiv's PDF
// server: the fixture paper 2401.01234 has a PDF, other ids are 404.
func fakeDownloader(t testing.TB, st *store.Store, dataDir string) *library.Downloader {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "2401.01234") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte(fakePDF))
	}))
	t.Cleanup(srv.Close)
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return library.NewDownloader(st, web, nil, library.DownloadOptions{DataDir: dataDir, ArxivPDFURL: srv.URL + "/pdf"})
}

// fakePapers searches a local arXiv fake serving the arxiv package's search
// fixture (ADS has no token, so it answers with a note).
func fakePapers(t testing.TB) *literature.Searcher {
	feed, err := os.ReadFile("../research/arxiv/testdata/search_astroph.xml")
	if err != nil {
		t.Fatal(err)
	}
	ax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write(feed)
	}))
	t.Cleanup(ax.Close)
	web := fetch.New(fetch.Options{Allow: []string{ax.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return literature.NewSearcher(ads.New("https://api.adsabs.harvard.edu/v1", "", web), arxiv.New(ax.URL+"/api/query", web))
}

// WaitDownloads blocks until the background PDF downloads and parses have
// finished (each is bounded by its deadline).
func (s *Server) WaitDownloads() { s.paperJobs.Wait() }
