package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// fixture is an MCP service over a real SQLite file, the agent's standard
// registry and fakes for ADS/arXiv, Sesame and the passage index.
type fixture struct {
	t          testing.TB
	st         *store.Store
	rt         *agent.Runtime
	svc        *Service
	metrics    *agent.Metrics
	vera, otto store.User
	parsed     store.Paper // parsed, with a note by vera and one by otto
	bare       store.Paper // not parsed
	skills     *skills.Library
	ask        *fakeAsk
}

type fakeSearch struct{}

func (fakeSearch) Search(ctx context.Context, q literature.Query) (literature.Result, error) {
	n := 812
	return literature.Result{ADS: 1, Arxiv: 1, Papers: []literature.Paper{{Title: "First M87 Event Horizon Telescope Results. I.",
		Authors: []string{"EHT Collaboration"}, Year: 2019, Bibcode: "2019ApJ...875L...1E", ArxivID: "1906.11238",
		CitationCount: &n, Refereed: true, Sources: []string{"ads", "arxiv"}}}}, nil
}

type fakeLookup struct{ st *store.Store }

func (f fakeLookup) Lookup(ctx context.Context, ref library.Ref) (store.Paper, bool, error) {
	if ref.Kind == library.RefArxiv {
		if p, err := f.st.PaperByIdentifier(ctx, store.PaperIDs{ArxivID: ref.Arxiv.Base}); err == nil {
			return p, true, nil
		}
	}
	return store.Paper{}, false, library.ErrNotFound
}

// fakeImport adds arXiv papers with a made-up title, as the library would.
type fakeImport struct{ st *store.Store }

func (f fakeImport) Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error) {
	if ref.Kind != library.RefArxiv {
		return store.Paper{}, false, library.ErrNotFound
	}
	id := ref.Arxiv.Base
	return f.st.UpsertPaper(ctx, store.Paper{Title: "Preprint " + id, ArxivID: &id, AddedBy: &userID})
}

type fakeResolver struct{}

func (fakeResolver) Resolve(ctx context.Context, name string) (sesame.Object, error) {
	if name != "M87" {
		return sesame.Object{}, sesame.ErrNotFound
	}
	z := 0.00428
	return sesame.Object{Query: name, Name: "M 87", Type: "AGN", RADeg: 187.7059, DecDeg: 12.3911, RASex: "12:30:49.42",
		DecSex: "+12:23:28.0", Redshift: &z, Aliases: []string{"NGC 4486", "Virgo A"}, Resolver: "Simbad"}, nil
}

// fakeObjects reports on M87 from fakeResolver, without ADS.
type fakeObjects struct{}

func (fakeObjects) Report(ctx context.Context, userID int64, name string) (objects.Report, error) {
	o, err := fakeResolver{}.Resolve(ctx, name)
	if err != nil {
		return objects.Report{Tried: []string{name}}, &objects.NotResolvedError{Tried: []string{name}}
	}
	return objects.Report{Object: o, Tried: []string{name}, LiteratureNote: "NASA ADS is not configured (no ADS_API_TOKEN)."}, nil
}

// fakeComparer holds one H0 value from the seeded paper.
type fakeComparer struct{}

func (fakeComparer) Compare(ctx context.Context, quantity, object string) (measure.Table, error) {
	t := measure.Table{Quantity: quantity, Object: object}
	if quantity != "H0" {
		return t, nil
	}
	year := 2019
	t.Unit = "km s^-1 Mpc^-1"
	t.Rows = []store.Measurement{{ID: 1, PaperID: 1, Quantity: "H0", Value: 73.04, ErrPlus: 1.04, ErrMinus: 1.04,
		Unit: t.Unit, Sentence: "We find H0 = 73.04 ± 1.04 km s^-1 Mpc^-1.", Year: &year, Title: "A distance ladder"}}
	return t, nil
}

// fakeAsk answers from one passage. The question "slow" stands for a model
// call that only ends when it is stopped: it reports on started, waits for
// its context, and reports on stopped.
type fakeAsk struct{ started, stopped chan struct{} }

func (a *fakeAsk) Ask(ctx context.Context, q rag.Query) (rag.Answer, error) {
	if q.Text == "slow" {
		a.started <- struct{}{}
		<-ctx.Done()
		a.stopped <- struct{}{}
		return rag.Answer{}, ctx.Err()
	}
	y := 2019
	return rag.Answer{Question: q.Text, Mode: rag.ModeHybrid, Passages: []rag.Hit{{Passage: rag.Passage{ID: 4, PaperID: 1,
		SectionPath: "3 Results", Text: "We infer a black hole mass of 6.5e9 Msun."}, Title: "Shadows", Year: &y}},
		Paragraphs: [][]rag.Sentence{{{Text: "The mass is 6.5e9 Msun.", Cites: []int{1}}}}}, nil
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "astro.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st}
	if f.vera, err = st.CreateFirstUser(ctx, "vera", "h"); err != nil {
		t.Fatal(err)
	}
	if f.otto, err = st.CreateUser(ctx, "otto", "h", store.RoleMember); err != nil {
		t.Fatal(err)
	}
	f.seed(ctx)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.skills, err = skills.NewLibrary(filepath.Join(dir, "skills"), log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.skills.Install(); err != nil {
		t.Fatal(err)
	}
	hooks := agent.NewHooks(log)
	f.metrics = agent.NewMetrics()
	hooks.RegisterBuiltins(st, f.metrics, log)
	f.ask = &fakeAsk{started: make(chan struct{}, 1), stopped: make(chan struct{}, 1)}
	td := agent.ToolDeps{Store: st, Skills: f.skills, Targets: fakeResolver{}, Papers: fakeSearch{}, Library: fakeLookup{st},
		Importer: fakeImport{st}, Rag: f.ask, BasePath: "/astro", Objects: fakeObjects{}, Measurements: fakeComparer{}}
	f.rt = agent.New(agent.Config{DataDir: dir, ToolTimeout: 5 * time.Second}, agent.Deps{Store: st, Hooks: hooks,
		Perms: agent.NewPermissions(st, true), Log: log, Skills: f.skills,
		Registry: func() *tools.Registry { return agent.StandardRegistry(td) }})
	t.Cleanup(func() { _ = f.rt.Shutdown(context.Background()) })
	if f.svc, err = New(Deps{Runtime: f.rt, Store: st, Skills: f.skills, Version: "test", Log: log}); err != nil {
		t.Fatal(err)
	}
	return f
}

// seed adds a parsed paper with notes by both users and an unparsed one.
func (f *fixture) seed(ctx context.Context) {
	t := f.t
	arx, year := "1906.11238", 2019
	p, _, err := f.st.UpsertPaper(ctx, store.Paper{Title: "First M87 Event Horizon Telescope Results. I. The Shadow",
		Abstract: "We present the first image of a black hole.", ArxivID: &arx, Year: &year, Authors: []string{"EHT Collaboration"}})
	if err != nil {
		t.Fatal(err)
	}
	md := "# The Shadow of M87\n\n## 1 Introduction\n\nThe ring has a diameter of 42 microarcseconds.\n\n## 2 Results\n\nWe infer a mass of 6.5e9 solar masses.\n"
	if err := f.st.SavePaperContent(ctx, store.PaperContent{PaperID: p.ID, Markdown: md, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	if f.parsed, err = f.st.PaperByID(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	for _, n := range []store.PaperNote{
		{UserID: f.vera.ID, PaperID: p.ID, Kind: "highlight", Quote: "42 microarcseconds", Position: -1},
		{UserID: f.otto.ID, PaperID: p.ID, Kind: "note", Body: "Otto's private thought", Position: -1},
	} {
		if _, err := f.st.CreateNote(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	bare := "2401.00002"
	if f.bare, _, err = f.st.UpsertPaper(ctx, store.Paper{Title: "Dust in the Perseus cluster", ArxivID: &bare,
		Abstract: "Dust lanes are seen.", Authors: []string{"Fabian, A.", "Sanders, J.", "Allen, S.", "Crawford, C."}}); err != nil {
		t.Fatal(err)
	}
}

// connect returns an in-process client session talking to the server for u.
func (f *fixture) connect(u store.User) *mcp.ClientSession {
	f.t.Helper()
	ctx := context.Background()
	srv := f.svc.ServerFor(ctx, u)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func (f *fixture) call(cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	f.t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}
