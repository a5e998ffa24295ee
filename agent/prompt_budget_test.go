package agent

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/tools"
	fstools "github.com/astroresearch/astroresearch/agent/tools/fs"
	"github.com/astroresearch/astroresearch/agent/tools/shell"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// unusedService satisfies every research interface of ToolDeps; the prompt
// tests only render definitions, they never run a research tool.
type unusedService struct{}

var errUnused = errors.New("not used by this test")

func (unusedService) Resolve(context.Context, string) (sesame.Object, error) {
	return sesame.Object{}, errUnused
}
func (unusedService) Search(context.Context, literature.Query) (literature.Result, error) {
	return literature.Result{}, errUnused
}
func (unusedService) Lookup(context.Context, library.Ref) (store.Paper, bool, error) {
	return store.Paper{}, false, errUnused
}
func (unusedService) Import(context.Context, int64, library.Ref) (store.Paper, bool, error) {
	return store.Paper{}, false, errUnused
}
func (unusedService) Download(context.Context, int64, library.Progress) (store.PaperFile, error) {
	return store.PaperFile{}, errUnused
}
func (unusedService) Parse(context.Context, int64, parse.Progress) (store.PaperContent, error) {
	return store.PaperContent{}, errUnused
}
func (unusedService) Ask(context.Context, rag.Query) (rag.Answer, error) {
	return rag.Answer{}, errUnused
}

// productionRegistry builds the registry main.go builds: every tool family.
func productionRegistry(t testing.TB, st *store.Store, dir string, mem *memory.Service, lib *skills.Library) func() *tools.Registry {
	t.Helper()
	roots, err := fstools.OpenRoots(fstools.Options{DataDir: dir, LibraryDir: filepath.Join(dir, "library"), SkillsDir: lib.Dir()})
	if err != nil {
		t.Fatal(err)
	}
	files := fstools.Tools(roots, fstools.NewFileCache(0, 0))
	bash := shell.RunBash(shell.Options{Workspace: filepath.Join(dir, "workspace"), UserDir: fstools.UserWorkspace}, shell.SandboxStatus{Reason: "test"})
	var svc unusedService
	td := ToolDeps{Store: st, Skills: lib, Targets: svc, Bash: bash, Files: files, Memory: mem, Papers: svc,
		Library: svc, Importer: svc, Downloads: svc, Parser: svc, Rag: svc}
	return func() *tools.Registry { return StandardRegistry(td) }
}

// fixedPart is the fixed part of a recorded request — its system prompt
// plus its tool schemas as sent — in characters and tokens (characters ÷ 4).
func fixedPart(t testing.TB, r llmtest.RecordedRequest) (chars, tokens int) {
	t.Helper()
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	chars = len(body.Tools)
	for _, m := range r.Messages {
		if m.Role == "system" {
			chars += len(m.Content)
		}
	}
	return chars, chars / 4
}

// firstRequests runs a one-step "hello" turn of the lead, one of the
// coordinator, and a lead turn that hands a task to a sub-agent, and
// returns the first request of each.
func firstRequests(t testing.TB, h *harness) (lead, coordinator, sub llmtest.RecordedRequest) {
	t.Helper()
	run := func(req TurnRequest, turns ...llmtest.Turn) []llmtest.RecordedRequest {
		before := len(h.fake.Requests())
		h.fake.Enqueue(turns...)
		s := h.session()
		if _, err := h.rt.StartTurn(context.Background(), h.userID, s, req); err != nil {
			t.Fatal(err)
		}
		h.wait(s)
		return h.fake.Requests()[before:]
	}
	lead = run(TurnRequest{Question: "hello"}, llmtest.Text("Hello."))[0]
	coordinator = run(TurnRequest{Question: "hello", Coordinator: true}, llmtest.Text("Hello."))[0]
	reqs := run(TurnRequest{Question: "survey the cavities"},
		llmtest.ToolCalls(llmtest.Call{ID: "s1", Name: "subagent", Args: `{"task":"Survey the X-ray cavities of Perseus."}`}),
		llmtest.Text("Conclusion: three cavities."), llmtest.Text("Done."))
	if len(reqs) < 2 {
		t.Fatalf("%d requests, want the sub-agent's", len(reqs))
	}
	return lead, coordinator, reqs[1]
}

// leadPromptBudget is C12's limit on the lead's first request: system
// prompt plus resident tool schemas, in tokens (characters ÷ 4).
const leadPromptBudget = 3000

// TestLeadFirstRequestFitsBudget renders the lead's first request with the
// registry main.go builds: it fits leadPromptBudget, states the shared
// path rules once, and every tool stays reachable (offered, or listed in
// the catalog of the system prompt).
func TestLeadFirstRequestFitsBudget(t *testing.T) {
	h := newHarness(t, withProductionTools())
	lead, coord, sub := firstRequests(t, h)
	chars, tokens := fixedPart(t, lead)
	_, coordTokens := fixedPart(t, coord)
	_, subTokens := fixedPart(t, sub)
	t.Logf("first request, system prompt + tool schemas: lead %d tokens (%d chars), coordinator %d, sub-agent %d", tokens, chars, coordTokens, subTokens)
	if tokens > leadPromptBudget {
		t.Fatalf("the lead's fixed prompt is %d tokens, over the %d budget", tokens, leadPromptBudget)
	}
	if n := strings.Count(string(lead.Body), "tool-results/ ("); n != 1 {
		t.Errorf("the workspace path rules appear %d times in the request, want once", n)
	}
	system := lead.Messages[0].Content
	offered := map[string]bool{}
	for _, name := range lead.Tools {
		offered[name] = true
		if strings.Contains(system, "- "+name+":") {
			t.Errorf("%s is offered and listed again in the system prompt", name)
		}
	}
	for _, name := range h.rt.turnRegistry().Names() {
		if !offered[name] && !strings.Contains(system, "- "+name+": ") {
			t.Errorf("%s is neither offered nor in the catalog: unreachable", name)
		}
	}
}

// BenchmarkFixedPrompt reports the fixed part of each agent's first
// request — system prompt plus tool schemas, tokens as characters ÷ 4 — for
// the lead (C12 budget: 3,000), the coordinator and a sub-agent.
func BenchmarkFixedPrompt(b *testing.B) {
	h := newHarness(b, withProductionTools())
	var lead, coord, sub int
	for b.Loop() {
		l, c, s := firstRequests(b, h)
		_, lead = fixedPart(b, l)
		_, coord = fixedPart(b, c)
		_, sub = fixedPart(b, s)
	}
	b.ReportMetric(float64(lead), "lead-tokens")
	b.ReportMetric(float64(coord), "coordinator-tokens")
	b.ReportMetric(float64(sub), "subagent-tokens")
}
