package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/store"
)

func TestSubagentIsolatedAndPersistedApart(t *testing.T) {
	noLeaks(t)
	h := newHarness(t, withTools(echoTool()))
	var mu sync.Mutex
	var hookEvents []string
	for _, ev := range []HookEvent{HookSubagentStart, HookSubagentStop} {
		h.hooks.Register(ev, "test", HookFunc(func(ctx context.Context, in HookInput) (HookDecision, error) {
			mu.Lock()
			defer mu.Unlock()
			hookEvents = append(hookEvents, string(in.Event)+":"+in.Agent)
			return HookDecision{}, nil
		}))
	}
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "sa", Name: "subagent", Args: `{"task":"Survey the literature on M87 jet speeds."}`}),
		// the sub-agent
		llmtest.Text("Let me search.").Then(llmtest.ToolCalls(llmtest.Call{ID: "inner", Name: "echo", Args: `{"text":"inner secret"}`})),
		llmtest.Text("Conclusion: apparent speeds up to 6c (2019ApJ...)"),
		// the lead again
		llmtest.Text("M87's jet shows superluminal motion."),
	)
	h.runTurn(s, "What do we know about M87's jet?")
	reqs := h.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	child := reqs[1].Messages
	if len(child) != 2 || child[0].Role != "system" || child[1].Content != "Survey the literature on M87 jet speeds." {
		t.Fatalf("the sub-agent's first request is not [system, task]: %+v", child)
	}
	for _, name := range reqs[1].Tools {
		if orchestrationTool(name) || name == "ask_user" || name == "todo_write" {
			t.Fatalf("sub-agent offered %s", name)
		}
	}
	// The lead's context has the sub-agent's result, not its messages.
	lead := reqs[3].Messages
	var result string
	for _, m := range lead {
		if m.ToolCallID == "inner" || m.Content == "Let me search." {
			t.Fatalf("a sub-agent message is in the lead's context: %+v", m)
		}
		if m.ToolCallID == "sa" {
			result = m.Content
		}
	}
	for _, want := range []string{"Activity:", "thought: Let me search.", "called echo", "echo → echo: inner secret", "Conclusion: apparent speeds up to 6c"} {
		if !strings.Contains(result, want) {
			t.Fatalf("subagent result lacks %q:\n%s", want, result)
		}
	}
	// Persisted apart: agent_name sub_<id>, never loaded as the lead's history.
	for _, m := range h.history(s) {
		if m.ToolCallID == "inner" {
			t.Fatal("the sub-agent's messages are in the lead's history")
		}
	}
	evs := h.allEvents(s)
	subEvents := eventsOf(evs, KindSubagent)
	if len(subEvents) != 2 {
		t.Fatalf("subagent events: %d", len(subEvents))
	}
	start, stop := decode[SubagentData](t, subEvents[0]), decode[SubagentData](t, subEvents[1])
	if !strings.HasPrefix(start.Agent, "sub_") || start.Status != "running" || stop.Status != "done" || stop.Steps != 2 {
		t.Fatalf("subagent events %+v %+v", start, stop)
	}
	rows, err := h.st.AgentMessages(context.Background(), s, start.Agent)
	if err != nil || len(rows) != 4 { // task, assistant call, tool result, conclusion
		t.Fatalf("sub-agent rows: %d %v", len(rows), err)
	}
	if rows[0].Role != "user" || rows[0].AgentName != start.Agent {
		t.Fatalf("first sub-agent row %+v", rows[0])
	}
	// Its events carry its name, between its start and stop.
	var inner []string
	for _, e := range evs {
		if e.Agent == start.Agent {
			inner = append(inner, string(e.Kind))
		}
	}
	if got := strings.Join(inner, " "); !strings.Contains(got, "tool_call") || strings.Contains(got, "done") || strings.Contains(got, "session") {
		t.Fatalf("sub-agent events: %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(hookEvents, " "); got != "SubagentStart:"+start.Agent+" SubagentStop:"+start.Agent {
		t.Fatalf("hooks: %s", got)
	}
	h.assertValidHistory(s)
}

func TestSubagentStepLimitForcesAnswer(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "sa", Name: "subagent", Args: `{"task":"loop","max_steps":2}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "i1", Name: "echo", Args: `{"text":"a"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "i2", Name: "echo", Args: `{"text":"b"}`}),
		llmtest.Text("forced conclusion"),
		llmtest.Text("done"),
	)
	h.runTurn(s, "go")
	reqs := h.fake.Requests()
	if len(reqs[3].Tools) != 0 || !strings.Contains(reqs[3].LastMessage().Content, "Do not call tools") {
		t.Fatalf("the sub-agent's last call was not a forced final answer: tools %v", reqs[3].Tools)
	}
	var result string
	for _, m := range reqs[4].Messages {
		if m.ToolCallID == "sa" {
			result = m.Content
		}
	}
	if !strings.Contains(result, "Conclusion: forced conclusion") || !strings.Contains(result, "2 steps") {
		t.Fatalf("result %q", result)
	}
}

func TestSubagentPermissionCardAndParentCancel(t *testing.T) {
	noLeaks(t)
	g := newGate()
	h := newHarness(t, withTools(askingTool(), waitTool(g)))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "sa", Name: "subagent", Args: `{"task":"run it","tools":"all"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "sh", Name: "shell", Args: `{"text":"ls"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "w", Name: "wait", Args: `{}`}),
	)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "go"}); err != nil {
		t.Fatal(err)
	}
	ev := h.waitEvent(s, KindPermissionRequest)
	if !strings.HasPrefix(ev.Agent, "sub_") {
		t.Fatalf("the permission request is not labelled with the sub-agent: %q", ev.Agent)
	}
	req := decode[PermissionRequestData](t, ev)
	if err := h.rt.Decide(context.Background(), h.userID, s, req.RequestID, AllowOnce); err != nil {
		t.Fatal(err)
	}
	<-g.started
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	evs := h.allEvents(s)
	subs := eventsOf(evs, KindSubagent)
	if st := decode[SubagentData](t, subs[len(subs)-1]).Status; st != store.TaskCancelled {
		t.Fatalf("sub-agent ended %s, want cancelled", st)
	}
	done := decode[DoneData](t, eventsOf(evs, KindDone)[0])
	if done.Reason != "cancelled" {
		t.Fatalf("turn ended %s", done.Reason)
	}
	h.assertValidHistory(s)
	rows, _ := h.st.AgentMessages(context.Background(), s, decode[SubagentData](t, subs[0]).Agent)
	if _, n := RepairHistory(messagesOf(t, rows)); n != 0 {
		t.Fatalf("the sub-agent's log needs %d repairs", n)
	}
}

func messagesOf(t *testing.T, rows []store.AgentMessage) []llm.Message {
	t.Helper()
	var out []llm.Message
	for _, r := range rows {
		m, err := MessageFromRow(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
