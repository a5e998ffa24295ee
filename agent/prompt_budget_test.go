package agent

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"path/filepath"
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

// firstRequestTokens runs a one-step "hello" turn and returns the size of
// the first request's fixed part — system prompt plus tool schemas as sent
// — in characters and in tokens (characters ÷ 4).
func firstRequestTokens(t testing.TB, h *harness, req TurnRequest) (chars, tokens int) {
	t.Helper()
	h.fake.Enqueue(llmtest.Text("Hello."))
	s := h.session()
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, req); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	reqs := h.fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	r := reqs[len(reqs)-1]
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

func TestLeadFirstRequestFitsBudget(t *testing.T) {
	h := newHarness(t, withProductionTools())
	chars, tokens := firstRequestTokens(t, h, TurnRequest{Question: "hello"})
	t.Logf("lead first request: %d chars, %d tokens", chars, tokens)
}
