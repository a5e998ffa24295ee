package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/tools"
	fstools "github.com/astroresearch/astroresearch/agent/tools/fs"
	"github.com/astroresearch/astroresearch/agent/tools/shell"
	"github.com/astroresearch/astroresearch/store"
)

// Regression tests for the runtime review.

func TestStopDoesNotStartLaterBlockTools(t *testing.T) {
	wg, bg := newGate(), newGate()
	h := newHarness(t, withTools(waitTool(wg), blockTool(bg)))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(
		llmtest.Call{ID: "w", Name: "wait", Args: `{}`},
		llmtest.Call{ID: "n", Name: "write_note", Args: `{}`},
	))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	<-wg.started
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	select {
	case <-bg.started:
		t.Fatal("a Block tool started after the user stopped the turn")
	default:
	}
	msgs := h.history(s)
	if last := msgs[len(msgs)-1]; last.ToolCallID != "n" || !strings.Contains(last.Content, "Not run") {
		t.Fatalf("last result %+v", last)
	}
	h.assertValidHistory(s)
}

func TestAskUserOutlivesToolTimeout(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) { c.ToolTimeout = time.Nanosecond; c.AskTimeout = 10 * time.Second }))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "q", Name: "ask_user", Args: `{"question":"?"}`}), llmtest.Text("ok"))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	q := decode[AskUserData](t, h.waitEvent(s, KindAskUser))
	// The tool timeout (1 ns) passed long before the question was even shown.
	if err := h.rt.Answer(context.Background(), h.userID, s, q.QuestionID, "yes"); err != nil {
		t.Fatalf("answer after the tool timeout: %v", err)
	}
	h.wait(s)
	if got := h.fake.Requests()[1].Messages[3].Content; got != "The user answered: yes" {
		t.Fatalf("tool result %q", got)
	}
}

func TestDenyPatternMatchesAcrossSlashes(t *testing.T) {
	rules := []store.PermissionRule{{Tool: "shell", Pattern: `*rm -rf*`, Decision: "deny"}}
	for _, args := range []string{`{"text":"rm -rf /"}`, `{"text":"rm -rf ~/data"}`, `{"text":"a<b && rm -rf x"}`} {
		if got := matchRules(rules, "shell", argumentSummary([]byte(args))); got != 3 { // DecisionDeny
			t.Errorf("%s: decision %v, want deny", args, got)
		}
	}
	if got := matchRules(rules, "shell", argumentSummary([]byte(`{"text":"ls /"}`))); got != 0 {
		t.Errorf("ls matched the rm rule: %v", got)
	}
	for _, tc := range []struct {
		p, s string
		ok   bool
	}{{"*", "", true}, {"a*c", "a/b/c", true}, {"a?c", "abc", true}, {"a?c", "ac", false}, {"*x", "abc", false}} {
		if globMatch(tc.p, tc.s) != tc.ok {
			t.Errorf("globMatch(%q, %q) != %v", tc.p, tc.s, tc.ok)
		}
	}
}

func TestNextTurnRightAfterDone(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("one"), llmtest.Text("two"))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "q1"}); err != nil {
		t.Fatal(err)
	}
	h.waitEvent(s, KindDone)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "q2"}); err != nil {
		t.Fatalf("a turn started on done was refused: %v", err)
	}
	h.wait(s)
}

func TestLateEventAfterDoneDoesNotReopenTurn(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("done"))
	turn := h.runTurn(s, "q")
	if _, err := h.events.Append(context.Background(), s, turn, LeadAgent, KindToolProgress, ToolProgressData{ID: "x", Progress: "late"}); err != nil {
		t.Fatal(err)
	}
	if n, err := h.rt.Recover(context.Background()); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; a finished turn was reopened", n, err)
	}
}

func TestForcedFinalAnswerIgnoresToolCalls(t *testing.T) {
	h := newHarness(t, withTools(echoTool()), withConfig(func(c *Config) { c.MaxSteps = 1 }))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "a", Name: "echo", Args: `{"text":"1"}`}),
		llmtest.Text("partial answer").Then(llmtest.ToolCalls(llmtest.Call{ID: "b", Name: "echo", Args: `{"text":"2"}`})),
	)
	h.runTurn(s, "go")
	h.assertValidHistory(s)
}

func TestPermissionRequestExpires(t *testing.T) {
	h := newHarness(t, withTools(askingTool()), withConfig(func(c *Config) { c.AskTimeout = 30 * time.Millisecond }))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "p", Name: "shell", Args: `{"text":"ls"}`}), llmtest.Text("ok"))
	h.runTurn(s, "go")
	r := decode[ToolResultData](t, eventsOf(h.allEvents(s), KindToolResult)[0])
	if !r.IsError || !strings.Contains(r.Output, "Nobody answered") {
		t.Fatalf("result %+v", r)
	}
}

// TestReadPersistedOutput: a large result is replaced by a stub naming a
// file, and read_file can read that file back in full (R14 + T1).
func TestReadPersistedOutput(t *testing.T) {
	lines := tools.New("lines", "Many lines.", func(ctx context.Context, tc *tools.Context, a bigArgs) (tools.Result, error) {
		var b strings.Builder
		for i := 0; i < a.N; i++ {
			fmt.Fprintf(&b, "row %04d of the catalogue\n", i)
		}
		return tools.Result{Output: b.String()}, nil
	})
	h := newHarness(t, withTools(lines))
	roots, err := fstools.OpenRoots(fstools.Options{DataDir: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	h.extra = append(h.extra, fstools.Tools(roots, fstools.NewFileCache(0, 0))...)
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "big1", Name: "lines", Args: `{"n":500}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "read1", Name: "read_file", Args: `{"path":"tool-results/big1.txt"}`}),
		llmtest.Text("read it"),
	)
	h.runTurn(s, "go")
	msgs := h.fake.Requests()[2].Messages
	stub, read := msgs[3].Content, msgs[5].Content
	if !strings.Contains(stub, "tool-results/") {
		t.Fatalf("stub %q", stub[:200])
	}
	if strings.HasPrefix(read, "<persisted-output") || !strings.Contains(read, "row 0499 of the catalogue") {
		t.Fatalf("read_file did not return the full persisted output (%d chars): %.200q", len(read), read)
	}
}

// TestSymlinkFromRunBashCannotEscape: links made by run_bash in the
// workspace do not let the file tools leave it (issue: "a symlink to / or
// to a parent made by run_bash").
func TestSymlinkFromRunBashCannotEscape(t *testing.T) {
	h := newHarness(t)
	ws := filepath.Join(h.dir, "workspace")
	roots, err := fstools.OpenRoots(fstools.Options{DataDir: h.dir, WorkspaceDir: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	h.extra = append(h.extra, fstools.Tools(roots, fstools.NewFileCache(0, 0))...)
	h.extra = append(h.extra, shell.RunBash(shell.Options{Workspace: ws, UserDir: fstools.UserWorkspace, Sandbox: shell.SandboxOff}, shell.SandboxStatus{}))
	if _, err := h.st.PutPermissionRule(context.Background(), h.userID, "run_bash", "*", "allow"); err != nil {
		t.Fatal(err)
	}
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "ln", Name: "run_bash", Args: `{"command":"ln -s / root && ln -s .. up && ln -s ../.. upup && echo linked"}`}),
		llmtest.ToolCalls(
			llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"root/etc/passwd"}`},
			llmtest.Call{ID: "r2", Name: "read_file", Args: `{"path":"upup/astro.db"}`},
			llmtest.Call{ID: "r3", Name: "grep_files", Args: `{"pattern":"root:","path":"workspace"}`},
			llmtest.Call{ID: "r4", Name: "file_write", Args: `{"path":"up/u2/planted.txt","content":"x"}`},
		),
		llmtest.Text("done"),
	)
	h.runTurn(s, "go")
	msgs := h.fake.Requests()[2].Messages
	if !strings.Contains(msgs[3].Content, "linked") {
		t.Fatalf("run_bash: %q", msgs[3].Content)
	}
	for _, m := range msgs[5:9] {
		if strings.Contains(m.Content, "root:x:0:0") || strings.Contains(m.Content, "SQLite format") {
			t.Fatalf("%s escaped the workspace: %.200q", m.ToolCallID, m.Content)
		}
	}
	for _, id := range []int{5, 6, 8} {
		if !strings.Contains(msgs[id].Content, "outside") && !strings.Contains(msgs[id].Content, "refused") {
			t.Errorf("%s not refused: %.200q", msgs[id].ToolCallID, msgs[id].Content)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "u2", "planted.txt")); err == nil {
		t.Fatal("file_write through a symlink reached another user's workspace")
	}
}
