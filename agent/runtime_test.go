package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/store"
)

func TestTwoStepTurnEventSequence(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "echo", Args: `{"text":"M87"}`}),
		llmtest.Text("The answer ", "is M87."),
	)
	turn := h.runTurn(s, "Which galaxy?")
	if turn != 1 {
		t.Fatalf("turn = %d", turn)
	}
	evs := h.allEvents(s)
	want := "session usage tool_call tool_progress tool_result text_delta usage done"
	if got := kinds(evs); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) || e.Turn != 1 || e.Agent != LeadAgent {
			t.Fatalf("event %d: seq %d turn %d agent %q", i, e.Seq, e.Turn, e.Agent)
		}
	}
	call := decode[ToolCallData](t, evs[2])
	if call.ID != "call_1" || call.Name != "echo" || call.Step != 1 || call.Arguments != `{"text":"M87"}` {
		t.Fatalf("tool_call %+v", call)
	}
	res := decode[ToolResultData](t, evs[4])
	if res.ToolCallID != "call_1" || res.Output != "echo: M87" || res.IsError {
		t.Fatalf("tool_result %+v", res)
	}
	if text := streamedText(t, evs, KindTextDelta); text != "The answer is M87." {
		t.Fatalf("text %q", text)
	}
	done := decode[DoneData](t, evs[len(evs)-1])
	if done.Reason != "answer" || done.Answer != "The answer is M87." || done.Steps != 2 {
		t.Fatalf("done %+v", done)
	}
	// What the model was sent: system first, then the question; step 2
	// carries the call and its result.
	reqs := h.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	second := reqs[1].Messages
	if second[0].Role != "system" || second[1].Role != "user" || second[1].Content != "Which galaxy?" ||
		second[2].Role != "assistant" || second[3].Role != "tool" || second[3].ToolCallID != "call_1" {
		t.Fatalf("second request messages: %+v", second)
	}
	h.assertValidHistory(s)
	audit, _ := h.st.AuditForSession(context.Background(), s)
	if len(audit) != 1 || audit[0].Tool != "echo" || audit[0].Status != "ok" {
		t.Fatalf("audit %+v", audit)
	}
	m := h.metrics.Totals()
	if m.Steps != 2 || m.ToolCalls["echo"] != 1 {
		t.Fatalf("metrics %+v", m)
	}
	// The trajectory of the turn was exported.
	b, err := os.ReadFile(filepath.Join(h.dir, "trajectories", s, "turn-0001-lead.jsonl"))
	if err != nil || !strings.Contains(string(b), `"type":"event"`) || !strings.Contains(string(b), `"type":"message"`) {
		t.Fatalf("trajectory: %v\n%s", err, b)
	}
}

func TestSecondTurnSeesHistory(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("first"), llmtest.Text("second"))
	h.runTurn(s, "q1")
	if turn := h.runTurn(s, "q2"); turn != 2 {
		t.Fatalf("turn = %d", turn)
	}
	msgs := h.fake.Requests()[1].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role+":"+m.Content)
	}
	if got := strings.Join(roles[1:], " | "); got != "user:q1 | assistant:first | user:q2" {
		t.Fatalf("second turn context: %s", got)
	}
}

func TestParallelBatchResultsInCallOrder(t *testing.T) {
	h := newHarness(t, withTools(rendezvousTool(3), echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ParallelToolCalls(
			llmtest.Call{ID: "a", Name: "meet", Args: `{"name":"a"}`},
			llmtest.Call{ID: "b", Name: "meet", Args: `{"name":"b"}`},
			llmtest.Call{ID: "c", Name: "meet", Args: `{"name":"c"}`},
			llmtest.Call{ID: "d", Name: "write_note", Args: `{}`},
			llmtest.Call{ID: "e", Name: "echo", Args: `{"text":"after"}`},
		),
		llmtest.Text("done"),
	)
	g := newGate()
	close(g.release)
	h.extra = append(h.extra, blockTool(g))
	h.runTurn(s, "go")
	got := h.fake.Requests()[1].Messages[3:8]
	want := []string{"met a", "met b", "met c", "note written", "echo: after"}
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		if got[i].Role != "tool" || got[i].ToolCallID != id || got[i].Content != want[i] {
			t.Fatalf("result %d is %+v, want call %s with %q", i, got[i], id, want[i])
		}
	}
	h.assertValidHistory(s)
}

func TestInvalidCalls(t *testing.T) {
	h := newHarness(t, withTools(echoTool(), panicTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(
			llmtest.Call{ID: "1", Name: "echo", Args: `{"text":`},
			llmtest.Call{ID: "2", Name: "echo", Args: `{"txt":"x"}`},
			llmtest.Call{ID: "3", Name: "nope", Args: `{}`},
			llmtest.Call{ID: "4", Name: "boom", Args: `{}`},
			llmtest.Call{ID: "", Name: "echo", Args: `{"text":"no id"}`},
		),
		llmtest.Text("ok"),
	)
	h.runTurn(s, "go")
	results := eventsOf(h.allEvents(s), KindToolResult)
	if len(results) != 5 {
		t.Fatalf("%d results", len(results))
	}
	byID := map[string]ToolResultData{}
	for _, e := range results {
		r := decode[ToolResultData](t, e)
		byID[r.ToolCallID] = r
	}
	checks := map[string]string{"1": "not valid JSON", "2": "text", "3": `no tool named "nope"`, "4": "crashed"}
	for id, want := range checks {
		if r := byID[id]; !r.IsError || !strings.Contains(r.Output, want) {
			t.Errorf("call %s: %+v, want an error mentioning %q", id, r, want)
		}
	}
	var repaired bool
	for id, r := range byID {
		if !r.IsError && r.Output == "echo: no id" && id != "" {
			repaired = true
		}
	}
	if !repaired {
		t.Errorf("call without id not run with a generated id: %+v", byID)
	}
	h.assertValidHistory(s)
}

func TestDuplicateDetector(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	same := llmtest.Call{Name: "echo", Args: `{"text":"again"}`}
	c1, c2, c3 := same, same, same
	c1.ID, c2.ID, c3.ID = "d1", "d2", "d3"
	h.fake.Enqueue(llmtest.ToolCalls(c1), llmtest.ToolCalls(c2), llmtest.ToolCalls(c3), llmtest.Text("fine"))
	h.runTurn(s, "go")
	results := eventsOf(h.allEvents(s), KindToolResult)
	third := decode[ToolResultData](t, results[2])
	if !third.IsError || !strings.Contains(third.Output, "3 times in a row") {
		t.Fatalf("third identical call: %+v", third)
	}
	if first := decode[ToolResultData](t, results[0]); first.IsError {
		t.Fatalf("first call refused: %+v", first)
	}
}

func TestToolTimeout(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	h := newHarness(t, withTools(hangTool(stop)), withConfig(func(c *Config) { c.ToolTimeout = 100 * time.Millisecond }))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "h", Name: "hang", Args: `{}`}), llmtest.Text("ok"))
	h.runTurn(s, "go")
	r := decode[ToolResultData](t, eventsOf(h.allEvents(s), KindToolResult)[0])
	if !r.IsError || !strings.Contains(r.Output, "timed out") {
		t.Fatalf("hanging tool: %+v", r)
	}
	audit, _ := h.st.AuditForSession(context.Background(), s)
	if audit[0].Status != "timeout" {
		t.Fatalf("audit status %q", audit[0].Status)
	}
	h.assertValidHistory(s)
}

func TestSiblingAbort(t *testing.T) {
	h := newHarness(t, withTools(fetchTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ParallelToolCalls(
			llmtest.Call{ID: "f1", Name: "fetch", Args: `{"fail":true,"delay_ms":20}`},
			llmtest.Call{ID: "f2", Name: "fetch", Args: `{"delay_ms":5000}`},
		),
		llmtest.Text("ok"),
	)
	start := time.Now()
	h.runTurn(s, "go")
	if time.Since(start) > 4*time.Second {
		t.Fatal("sibling was not aborted")
	}
	msgs := h.fake.Requests()[1].Messages
	if !strings.Contains(msgs[4].Content, "Cancelled because fetch") {
		t.Fatalf("sibling result: %q", msgs[4].Content)
	}
}

func TestLargeOutputPersisted(t *testing.T) {
	h := newHarness(t, withTools(bigTool()))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "big1", Name: "big", Args: `{"n":10000}`}), llmtest.Text("ok"))
	h.runTurn(s, "go")
	sent := h.fake.Requests()[1].Messages[3].Content
	if !strings.HasPrefix(sent, "<persisted-output") || len(sent) > 3000 {
		t.Fatalf("model got %d chars: %.100q", len(sent), sent)
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "tool-results", s, "big1.txt"))
	if err != nil || len(b) != 10000 {
		t.Fatalf("persisted file: %d bytes, %v", len(b), err)
	}
}

func TestMaxStepsForcesFinalAnswer(t *testing.T) {
	h := newHarness(t, withTools(echoTool()), withConfig(func(c *Config) { c.MaxSteps = 2 }))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "x1", Name: "echo", Args: `{"text":"1"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "x2", Name: "echo", Args: `{"text":"2"}`}),
		llmtest.Text("final"),
	)
	h.runTurn(s, "go")
	reqs := h.fake.Requests()
	if len(reqs) != 3 || len(reqs[2].Tools) != 0 {
		t.Fatalf("%d requests; last offered %d tools, want 0", len(reqs), len(reqs[2].Tools))
	}
	done := decode[DoneData](t, eventsOf(h.allEvents(s), KindDone)[0])
	if done.Reason != "max_steps" || done.Answer != "final" {
		t.Fatalf("done %+v", done)
	}
	h.assertValidHistory(s)
}

func TestModelErrors(t *testing.T) {
	cases := []struct {
		name  string
		turns []llmtest.Turn
		class string
	}{
		{"500", []llmtest.Turn{llmtest.HTTPError(500, nil, "internal error")}, "model_error"},
		{"cut mid tool call", []llmtest.Turn{llmtest.ToolCalls(llmtest.Call{ID: "c", Name: "echo", Args: `{"text":"abcdef"}`, ArgChunks: 3}).Then(llmtest.Cut())}, ""},
		{"invalid JSON delta", []llmtest.Turn{llmtest.InvalidJSON()}, "model_error"},
		// The recovery ladder retries (escalate tokens, then continue in
		// steps) before the error surfaces.
		{"prompt too long", []llmtest.Turn{
			llmtest.HTTPError(400, nil, "This model's context_window_exceeded"),
			llmtest.HTTPError(400, nil, "This model's context_window_exceeded"),
			llmtest.HTTPError(400, nil, "This model's context_window_exceeded"),
		}, "prompt_too_long"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, withTools(echoTool()))
			s := h.session()
			h.fake.Enqueue(tc.turns...)
			h.runTurn(s, "go")
			evs := h.allEvents(s)
			errs := eventsOf(evs, KindError)
			if len(errs) != 1 || evs[len(evs)-1].Kind != KindDone {
				t.Fatalf("events %s", kinds(evs))
			}
			e := decode[ErrorData](t, errs[0])
			if tc.class != "" && e.Class != tc.class {
				t.Fatalf("class %q, want %q (%s)", e.Class, tc.class, e.Message)
			}
			if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "error" {
				t.Fatalf("done %+v", d)
			}
			h.assertValidHistory(s)
			// The session takes another turn afterwards.
			h.fake.Enqueue(llmtest.Text("recovered"))
			h.runTurn(s, "again")
			h.assertValidHistory(s)
		})
	}
}

func TestRateLimitedThenAnswer(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.HTTPError(429, map[string]string{"Retry-After": "2"}, "rate limit reached"), llmtest.Text("ok"))
	h.runTurn(s, "go")
	if d := decode[DoneData](t, eventsOf(h.allEvents(s), KindDone)[0]); d.Reason != "answer" || d.Answer != "ok" {
		t.Fatalf("done %+v", d)
	}
}

func TestOverloadFallback(t *testing.T) {
	h := newHarness(t)
	h.client = llm.New(llm.Config{BaseURL: h.fake.URL(), Model: "primary", FallbackModel: "backup",
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	h.rt.d.Model = h.client
	s := h.session()
	overloaded := llmtest.HTTPError(529, nil, "overloaded")
	h.fake.Enqueue(overloaded, overloaded, overloaded, llmtest.Text("from backup"))
	h.runTurn(s, "go")
	reqs := h.fake.Requests()
	if last := reqs[len(reqs)-1]; last.Model != "backup" {
		t.Fatalf("last request used %q, want the fallback model", last.Model)
	}
	if u := decode[UsageData](t, eventsOf(h.allEvents(s), KindUsage)[0]); u.Model != "backup" && u.Model != "" {
		t.Fatalf("usage model %q", u.Model)
	}
}

func TestCancelCancelToolVsBlockTool(t *testing.T) {
	for _, tc := range []struct {
		name     string
		block    bool
		wantText string
	}{
		{"cancel tool stops", false, "Cancelled: the user stopped"},
		{"block tool finishes", true, "note written"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGate()
			tool, name := waitTool(g), "wait"
			if tc.block {
				tool, name = blockTool(g), "write_note"
			}
			h := newHarness(t, withTools(tool))
			s := h.session()
			h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "w", Name: name, Args: `{}`}))
			if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
				t.Fatal(err)
			}
			<-g.started
			if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
				t.Fatal(err)
			}
			if tc.block {
				// The Block tool is still running; let it finish.
				close(g.release)
			}
			h.wait(s)
			evs := h.allEvents(s)
			r := decode[ToolResultData](t, eventsOf(evs, KindToolResult)[0])
			if !strings.Contains(r.Output, tc.wantText) {
				t.Fatalf("result %+v, want %q", r, tc.wantText)
			}
			if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "cancelled" {
				t.Fatalf("done %+v (events %s)", d, kinds(evs))
			}
			if len(h.fake.Requests()) != 1 {
				t.Fatal("the model was called again after the stop")
			}
			h.assertValidHistory(s)
		})
	}
}

func TestCancelWhileStreaming(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("a", "b", "c").WithDelay(0, 10*time.Second))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	h.waitEvent(s, KindTextDelta)
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "cancelled" {
		t.Fatalf("done %+v", d)
	}
	h.assertValidHistory(s)
}

func TestOneTurnPerSession(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("slow").WithDelay(5*time.Second, 0))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "again"}); !errors.Is(err, ErrTurnRunning) {
		t.Fatalf("second turn: %v, want ErrTurnRunning", err)
	}
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	if err := h.rt.Cancel(context.Background(), h.userID, s); !errors.Is(err, ErrNoTurn) {
		t.Fatalf("cancel with nothing running: %v", err)
	}
	other, _ := h.st.CreateUser(context.Background(), "mallory", "x", store.RoleMember)
	if _, err := h.rt.StartTurn(context.Background(), other.ID, s, TurnRequest{Question: "mine"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("someone else's session: %v", err)
	}
	var ie *InputError
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "  "}); !errors.As(err, &ie) {
		t.Fatalf("empty question: %v", err)
	}
}

func TestPermissionAskAllowAlways(t *testing.T) {
	h := newHarness(t, withTools(askingTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "p1", Name: "shell", Args: `{"text":"ls"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "p2", Name: "shell", Args: `{"text":"pwd"}`}),
		llmtest.Text("done"),
	)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	req := decode[PermissionRequestData](t, h.waitEvent(s, KindPermissionRequest))
	if req.Tool != "shell" || req.ToolCallID != "p1" || req.Reason == "" {
		t.Fatalf("permission request %+v", req)
	}
	if err := h.rt.Decide(context.Background(), h.userID, s, req.RequestID, "sometimes"); err == nil {
		t.Fatal("bad decision accepted")
	}
	if err := h.rt.Decide(context.Background(), h.userID, s, req.RequestID, AllowAlways); err != nil {
		t.Fatal(err)
	}
	if err := h.rt.Decide(context.Background(), h.userID, s, req.RequestID, Deny); !errors.Is(err, ErrNoSuchRequest) {
		t.Fatalf("second answer: %v, want ErrNoSuchRequest (first answer wins)", err)
	}
	h.wait(s)
	evs := h.allEvents(s)
	if n := len(eventsOf(evs, KindPermissionRequest)); n != 1 {
		t.Fatalf("%d permission requests, want 1 (always allow remembered)", n)
	}
	for _, e := range eventsOf(evs, KindToolResult) {
		if r := decode[ToolResultData](t, e); r.IsError {
			t.Fatalf("result %+v", r)
		}
	}
	rules, _ := h.st.PermissionRules(context.Background(), h.userID)
	if len(rules) != 1 || rules[0].Tool != "shell" || rules[0].Decision != "allow" {
		t.Fatalf("rules %+v", rules)
	}
}

func TestPermissionDenyAndRules(t *testing.T) {
	h := newHarness(t, withTools(askingTool(), echoTool()))
	ctx := context.Background()
	s := h.session()
	if _, err := h.st.PutPermissionRule(ctx, h.userID, "echo", "*", "deny"); err != nil {
		t.Fatal(err)
	}
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "e", Name: "echo", Args: `{"text":"x"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "p", Name: "shell", Args: `{"text":"rm"}`}),
		llmtest.Text("done"),
	)
	if _, err := h.rt.StartTurn(ctx, h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	req := decode[PermissionRequestData](t, h.waitEvent(s, KindPermissionRequest))
	if err := h.rt.Decide(ctx, h.userID, s, req.RequestID, Deny); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	results := eventsOf(h.allEvents(s), KindToolResult)
	denied := decode[ToolResultData](t, results[0])
	userDenied := decode[ToolResultData](t, results[1])
	if !denied.IsError || !strings.Contains(denied.Output, "Permission denied") ||
		!userDenied.IsError || !strings.Contains(userDenied.Output, "user denied") {
		t.Fatalf("results %+v / %+v", denied, userDenied)
	}
	audit, _ := h.st.AuditForSession(ctx, s)
	if audit[0].Status != "denied" || audit[1].Status != "denied" {
		t.Fatalf("audit %+v", audit)
	}
}

func TestCancelWhileWaitingForPermission(t *testing.T) {
	h := newHarness(t, withTools(askingTool()))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "p", Name: "shell", Args: `{"text":"ls"}`}))
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	h.waitEvent(s, KindPermissionRequest)
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "cancelled" {
		t.Fatalf("done %+v", d)
	}
	h.assertValidHistory(s)
}

func TestAskUser(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "q", Name: "ask_user", Args: `{"question":"Which epoch?","options":["J2000","B1950"]}`}),
		llmtest.Text("Using J2000."),
	)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "convert"}); err != nil {
		t.Fatal(err)
	}
	q := decode[AskUserData](t, h.waitEvent(s, KindAskUser))
	if q.Question != "Which epoch?" || len(q.Options) != 2 || q.ExpiresAt == "" {
		t.Fatalf("ask_user %+v", q)
	}
	if err := h.rt.Answer(context.Background(), h.userID, s, "wrong-id", "x"); !errors.Is(err, ErrNoSuchRequest) {
		t.Fatalf("unknown question: %v", err)
	}
	if err := h.rt.Answer(context.Background(), h.userID, s, q.QuestionID, "J2000"); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	if got := h.fake.Requests()[1].Messages[3].Content; got != "The user answered: J2000" {
		t.Fatalf("tool result %q", got)
	}
}

func TestAskUserExpires(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) { c.AskTimeout = 50 * time.Millisecond }))
	s := h.session()
	h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "q", Name: "ask_user", Args: `{"question":"?"}`}), llmtest.Text("ok"))
	h.runTurn(s, "go")
	r := decode[ToolResultData](t, eventsOf(h.allEvents(s), KindToolResult)[0])
	if !r.IsError || !strings.Contains(r.Output, "did not answer in time") {
		t.Fatalf("expired question: %+v", r)
	}
}

func TestTodoWriteRestoredNextTurn(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "t", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"search ADS","status":"completed"},{"id":"t2","subject":"read papers","status":"pending","blocked_by":["t1"]}]}`}),
		llmtest.Text("planned"),
		llmtest.Text("continuing"),
	)
	h.runTurn(s, "plan")
	h.runTurn(s, "continue")
	msgs := h.fake.Requests()[2].Messages
	last := msgs[len(msgs)-1]
	if !strings.HasPrefix(last.Content, "[current tasks]") || !strings.Contains(last.Content, "- [ ] t2: read papers (blocked by t1)") {
		t.Fatalf("tasks not restored: %q", last.Content)
	}
}

func TestCommandHookBlocksAndMutates(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
input=$(cat)
case "$input" in
  *'"text":"secret"'*) echo '{"block":true,"reason":"secrets stay home"}' ;;
  *'"text":"rewrite"'*) echo '{"mutated_input":{"text":"rewritten"},"append_context":"note from hook"}' ;;
  *'"text":"broken"'*) echo 'not json' ;;
esac
`), 0o755)
	hooksFile := filepath.Join(dir, "hooks.json")
	os.WriteFile(hooksFile, []byte(fmt.Sprintf(`{"hooks":[{"event":"PreToolUse","tools":["echo"],"command":[%q],"timeout_secs":5}]}`, script)), 0o644)
	if n, err := h.hooks.LoadCommandHooks(hooksFile); err != nil || n != 1 {
		t.Fatalf("LoadCommandHooks = %d, %v", n, err)
	}
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(
			llmtest.Call{ID: "1", Name: "echo", Args: `{"text":"secret"}`},
			llmtest.Call{ID: "2", Name: "echo", Args: `{"text":"rewrite"}`},
			llmtest.Call{ID: "3", Name: "echo", Args: `{"text":"broken"}`},
		),
		llmtest.Text("ok"),
	)
	h.runTurn(s, "go")
	msgs := h.fake.Requests()[1].Messages[3:6]
	if !strings.Contains(msgs[0].Content, "blocked: secrets stay home") {
		t.Errorf("blocked: %q", msgs[0].Content)
	}
	if msgs[1].Content != "echo: rewritten\n\nnote from hook" {
		t.Errorf("mutated: %q", msgs[1].Content)
	}
	if !strings.Contains(msgs[2].Content, "blocked: the check command:") || !strings.Contains(msgs[2].Content, "failed") {
		t.Errorf("a PreToolUse hook that fails must refuse the call (fail closed): %q", msgs[2].Content)
	}
}

func TestLoadCommandHooksRejectsBadFiles(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"json":    `{`,
		"event":   `{"hooks":[{"event":"Whenever","command":["x"]}]}`,
		"command": `{"hooks":[{"event":"PreToolUse","command":[]}]}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := h.hooks.LoadCommandHooks(p); err == nil {
			t.Errorf("%s: bad hooks file accepted", name)
		}
	}
	if n, err := h.hooks.LoadCommandHooks(filepath.Join(dir, "missing")); n != 0 || err != nil {
		t.Errorf("missing file: %d %v", n, err)
	}
}

func TestRecoverAfterCrashMidTool(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	ctx := context.Background()
	s := h.session()
	// What a kill -9 mid-tool leaves: the assistant's calls persisted, one
	// result of two, events up to the tool calls, no done.
	turn, _ := h.st.BeginAgentTurn(ctx, s, "m", "t")
	tr := &turnRun{r: h.rt, session: store.AgentSession{ID: s}, turn: turn, agent: LeadAgent}
	tr.emit(ctx, KindSession, SessionData{SessionID: s})
	tr.persist(ctx, 0, llm.Message{Role: llm.RoleUser, Content: "q"})
	tr.persist(ctx, 1, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "echo", Arguments: "{}"}, {ID: "b", Name: "echo", Arguments: "{}"}}})
	tr.persist(ctx, 1, llm.Message{Role: llm.RoleTool, ToolCallID: "a", Name: "echo", Content: "ok"})
	tr.emit(ctx, KindToolCall, ToolCallData{ID: "a", Name: "echo"})

	n, err := h.rt.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	h.assertValidHistory(s)
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "interrupted" {
		t.Fatalf("last event %s", kinds(evs))
	}
	if n, _ := h.rt.Recover(ctx); n != 0 {
		t.Fatalf("second Recover closed %d turns", n)
	}
	// The session goes on.
	h.fake.Enqueue(llmtest.Text("resumed"))
	h.runTurn(s, "continue")
	sent := h.fake.Requests()[0].Messages
	if sent[4].ToolCallID != "b" || !strings.Contains(sent[4].Content, "interrupted") {
		t.Fatalf("model got %+v", sent[4])
	}
}

func TestConcurrentSessions(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	h.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		last := r.Messages[len(r.Messages)-1]
		if last.Role == "tool" {
			return llmtest.Text("done " + last.Content)
		}
		return llmtest.ToolCalls(llmtest.Call{ID: "c", Name: "echo", Args: `{"text":"` + last.Content + `"}`})
	})
	const n = 100
	sessions := make([]string, n)
	for i := range sessions {
		sessions[i] = h.session()
	}
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: fmt.Sprint("q", i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i, s := range sessions {
		h.wait(s)
		evs := h.allEvents(s)
		d := decode[DoneData](t, evs[len(evs)-1])
		if d.Reason != "answer" || d.Answer != fmt.Sprintf("done echo: q%d", i) {
			t.Fatalf("session %d: %+v (%s)", i, d, kinds(evs))
		}
		for j, e := range evs {
			if e.Seq != int64(j+1) {
				t.Fatalf("session %d: gap in seq at %d", i, j)
			}
		}
	}
}

func TestDeferredSearchHistoryThroughLoadToolOrDirectly(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("Perseus cools fast."))
	h.runTurn(s, "Tell me about the Perseus cluster")
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "early", Name: "search_history", Args: `{"query":"perseus"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":["search_history"]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "find", Name: "search_history", Args: `{"query":"perseus"}`}),
		llmtest.Text("found it"),
	)
	h.runTurn(s, "What did we say before?")
	reqs := h.fake.Requests()
	first := reqs[1]
	for _, name := range first.Tools {
		if name == "search_history" {
			t.Fatal("a deferred tool was offered before load_tool")
		}
	}
	if !strings.Contains(first.Messages[0].Content, "search_history") {
		t.Fatal("the catalog in the system prompt does not list search_history")
	}
	msgs := reqs[4].Messages
	var early, found string
	for _, m := range msgs {
		switch m.ToolCallID {
		case "early":
			early = m.Content
		case "find":
			found = m.Content
		}
	}
	// A catalog tool called directly is loaded on the spot and runs
	// (small models skip load_tool); from then on it is offered.
	if !strings.Contains(early, "**Perseus**") {
		t.Fatalf("calling a deferred tool before loading it: %q", early)
	}
	offeredEarly := false
	for _, name := range reqs[2].Tools {
		offeredEarly = offeredEarly || name == "search_history"
	}
	if !offeredEarly {
		t.Fatal("search_history not offered after it was called directly")
	}
	if !strings.Contains(found, "**Perseus**") {
		t.Fatalf("search_history result: %q", found)
	}
	offered := false
	for _, name := range reqs[3].Tools {
		offered = offered || name == "search_history"
	}
	if !offered {
		t.Fatal("search_history not offered after load_tool")
	}
}

func TestSkillsInPromptAndLoadSkill(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "k", Name: "load_skill", Args: `{"name":"literature-review"}`}),
		llmtest.Text("Following the skill."),
	)
	h.runTurn(s, "What is known about the Perseus cluster?")
	reqs := h.fake.Requests()
	system := reqs[0].Messages[0].Content
	if !strings.Contains(system, "- literature-review: Survey what is known") {
		t.Fatalf("active skill not listed:\n%s", system)
	}
	if strings.Contains(system, "compare-measurements") {
		t.Fatal("a skill whose keywords do not match was listed")
	}
	if got := reqs[1].Messages[3].Content; !strings.Contains(got, "Resolve the object first") {
		t.Fatalf("load_skill result: %.200q", got)
	}
}
