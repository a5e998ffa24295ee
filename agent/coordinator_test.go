package agent

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// Scripting a coordinator turn: requests are told apart by their system
// prompt (lead, worker, synthesis), since workers run concurrently.

type role int

const (
	roleLead role = iota
	roleWorker
	roleSynth
)

func roleOf(req llmtest.RecordedRequest) role {
	sys := req.Messages[0].Content
	switch {
	case strings.Contains(sys, "Coordinator mode"):
		return roleLead
	case strings.HasPrefix(sys, "You merge the reports"):
		return roleSynth
	}
	return roleWorker
}

var workerTitleRE = regexp.MustCompile(`assigned the task "([^"]*)"`)

// workerTitle is the title of the worker a request comes from.
func workerTitle(req llmtest.RecordedRequest) string {
	m := workerTitleRE.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return ""
	}
	return m[1]
}

// script answers a coordinator turn: the lead's steps in order, each
// worker through workerTurn, the synthesis with a merge of its input.
type script struct {
	mu     sync.Mutex
	lead   []llmtest.Turn
	worker func(req llmtest.RecordedRequest) llmtest.Turn
	synth  []string // what synthesis requests received
}

func (s *script) handle(req llmtest.RecordedRequest) llmtest.Turn {
	switch roleOf(req) {
	case roleLead:
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.lead) == 0 {
			return llmtest.Text("(the lead has nothing more to say)")
		}
		next := s.lead[0]
		s.lead = s.lead[1:]
		return next
	case roleSynth:
		s.mu.Lock()
		s.synth = append(s.synth, req.LastMessage().Content)
		s.mu.Unlock()
		return llmtest.Text("Merged answer: jets are fast [w] (2019ApJ...875L...1E), disks are thin [w].")
	}
	return s.worker(req)
}

// busyTool simulates a worker's research: it sleeps d and records how many
// run at once.
func busyTool(d time.Duration, now, peak *atomic.Int32) tools.Tool {
	return tools.New("busy", "Do research work.", func(ctx context.Context, tc *tools.Context, a echoArgs) (tools.Result, error) {
		n := now.Add(1)
		defer now.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Output: "found 3 papers on " + a.Text}, nil
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}

// researchingWorker calls busy once, then concludes with its title.
func researchingWorker(req llmtest.RecordedRequest) llmtest.Turn {
	title := workerTitle(req)
	if len(req.Messages) == 2 {
		return llmtest.ToolCalls(llmtest.Call{ID: "b_" + title, Name: "busy", Args: fmt.Sprintf(`{"text":%q}`, title)})
	}
	return llmtest.Text("Conclusion on " + title + ": see 2019ApJ...875L...1E.")
}

func delegations(titles ...string) llmtest.Turn {
	calls := make([]llmtest.Call, len(titles))
	for i, title := range titles {
		calls[i] = llmtest.Call{ID: "d" + fmt.Sprint(i), Name: "delegate_task",
			Args: fmt.Sprintf(`{"title":%q,"task":"Survey the literature on %s."}`, title, title)}
	}
	return llmtest.ToolCalls(calls...)
}

// readOnlyWait is a worker tool that counts its starts and waits for the
// gate or its context.
func readOnlyWait(g *gate, started *atomic.Int32) tools.Tool {
	return tools.New("wait", "Wait for a signal.", func(ctx context.Context, tc *tools.Context, _ emptyArgs) (tools.Result, error) {
		started.Add(1)
		g.enter()
		select {
		case <-g.release:
			return tools.Result{Output: "released"}, nil
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}

func TestCoordinatorDelegatesChecksSynthesises(t *testing.T) {
	noLeaks(t)
	var now, peak atomic.Int32
	h := newHarness(t, withTools(busyTool(20*time.Millisecond, &now, &peak)))
	s := h.session()
	sc := &script{worker: researchingWorker, lead: []llmtest.Turn{
		delegations("jets", "disks", "winds"),
		llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":30}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "syn", Name: "synthesize", Args: `{}`}),
		llmtest.Text("Merged answer: jets are fast."),
	}}
	h.fake.Handle(sc.handle)
	turn, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "Review AGN outflows", Coordinator: true})
	if err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	var leadReqs []llmtest.RecordedRequest
	for _, r := range h.fake.Requests() {
		if roleOf(r) == roleLead {
			leadReqs = append(leadReqs, r)
		}
	}
	if len(leadReqs) != 4 {
		t.Fatalf("%d lead requests", len(leadReqs))
	}
	if got := strings.Join(leadReqs[0].Tools, ","); got != "check_task,delegate_task,synthesize,task_stop" {
		t.Fatalf("the lead's tools in coordinator mode: %s", got)
	}
	// check_task waited for all three and shows their conclusions.
	var checked string
	for _, m := range leadReqs[2].Messages {
		if m.ToolCallID == "chk" {
			checked = m.Content
		}
	}
	for _, title := range []string{"jets", "disks", "winds"} {
		if !strings.Contains(checked, "Conclusion on "+title) {
			t.Fatalf("check_task lacks %s:\n%s", title, checked)
		}
	}
	// synthesize got every report.
	if len(sc.synth) != 1 || strings.Count(sc.synth[0], "Conclusion on") != 3 || !strings.Contains(sc.synth[0], "Review AGN outflows") {
		t.Fatalf("synthesis input %q", sc.synth)
	}
	// The workers' messages are theirs, not the lead's.
	for _, m := range h.history(s) {
		if strings.HasPrefix(m.ToolCallID, "b_") {
			t.Fatal("a worker's message is in the lead's history")
		}
	}
	rows, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundWorker)
	if err != nil || len(rows) != 3 {
		t.Fatalf("worker rows %d %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Status != store.TaskDone || r.Turn != turn || !strings.Contains(r.Output, "Conclusion on "+r.Name) {
			t.Fatalf("worker row %+v", r)
		}
		msgs, err := h.st.AgentMessages(context.Background(), s, r.AgentName)
		if err != nil || len(msgs) != 4 {
			t.Fatalf("worker %s persisted %d messages (%v)", r.AgentName, len(msgs), err)
		}
	}
	// The timeline saw each worker queued, running, done.
	states := map[string][]string{}
	for _, e := range eventsOf(h.allEvents(s), KindWorker) {
		d := decode[WorkerData](t, e)
		states[d.WorkerID] = append(states[d.WorkerID], d.Status)
	}
	for id, st := range states {
		if strings.Join(st, " ") != "queued running done" {
			t.Fatalf("worker %s states %v", id, st)
		}
	}
	done := decode[DoneData](t, eventsOf(h.allEvents(s), KindDone)[0])
	if done.Reason != "answer" || !strings.Contains(done.Answer, "Merged answer") {
		t.Fatalf("done %+v", done)
	}
	h.assertValidHistory(s)
}

func TestCoordinatorFaults(t *testing.T) {
	noLeaks(t)
	var now, peak atomic.Int32
	h := newHarness(t, withTools(busyTool(10*time.Millisecond, &now, &peak)),
		withConfig(func(c *Config) { c.WorkerTimeout = 2 * time.Second }))
	// (The hung worker's model never answers; the timeout must free its slot.)
	s := h.session()
	titles := []string{"hang", "bad"}
	for i := range 18 {
		titles = append(titles, fmt.Sprintf("topic%02d", i))
	}
	sc := &script{lead: []llmtest.Turn{
		delegations(titles...),
		llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":60}`}),
		llmtest.Text("Partial answer."),
	}, worker: func(req llmtest.RecordedRequest) llmtest.Turn {
		switch workerTitle(req) {
		case "hang":
			return llmtest.Text("never").WithDelay(time.Minute, 0)
		case "bad":
			return llmtest.HTTPError(400, nil, "the model refused this request")
		}
		return researchingWorker(req)
	}}
	h.fake.Handle(sc.handle)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "twenty things", Coordinator: true}); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	if p := peak.Load(); p > 3 || p < 2 {
		t.Fatalf("%d workers ran at once with 3 slots", p)
	}
	rows, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundWorker)
	if err != nil || len(rows) != 20 {
		t.Fatalf("worker rows %d %v", len(rows), err)
	}
	for _, r := range rows {
		want := store.TaskDone
		switch r.Name {
		case "hang":
			want = store.TaskTimeout
		case "bad":
			want = store.TaskFailed
		}
		if r.Status != want {
			t.Errorf("worker %s: %s, want %s (%s)", r.Name, r.Status, want, r.Output)
		}
	}
	if t.Failed() {
		return
	}
	var checked string
	for _, r := range h.fake.Requests() {
		for _, m := range r.Messages {
			if m.ToolCallID == "chk" {
				checked = m.Content
			}
		}
	}
	if !strings.Contains(checked, `"hang": timeout`) || !strings.Contains(checked, `"bad": failed`) || !strings.Contains(checked, "refused") {
		t.Fatalf("check_task does not report the faults:\n%s", checked)
	}
}

func TestCoordinatorUserStopKeepsPartialResults(t *testing.T) {
	noLeaks(t)
	g := newGate()
	var started atomic.Int32
	h := newHarness(t, withTools(readOnlyWait(g, &started)))
	s := h.session()
	sc := &script{lead: []llmtest.Turn{
		delegations("a", "b", "c", "d"),
		llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":60}`}),
	}, worker: func(req llmtest.RecordedRequest) llmtest.Turn {
		return llmtest.Text("Looking into " + workerTitle(req)).Then(llmtest.ToolCalls(llmtest.Call{ID: "w", Name: "wait", Args: `{}`}))
	}}
	h.fake.Handle(sc.handle)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "stop me", Coordinator: true}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for started.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := h.rt.Cancel(context.Background(), h.userID, s); err != nil {
		t.Fatal(err)
	}
	h.wait(s)
	rows, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundWorker)
	if err != nil || len(rows) != 4 {
		t.Fatalf("rows %d %v", len(rows), err)
	}
	partial := 0
	for _, r := range rows {
		if r.Status != store.TaskCancelled {
			t.Errorf("worker %s is %s after the user's stop", r.Name, r.Status)
		}
		if strings.Contains(r.Output, "called wait") {
			partial++
		}
	}
	if partial != 3 {
		t.Fatalf("%d workers kept their partial activity, want 3 (the 4th never started)", partial)
	}
	done := decode[DoneData](t, eventsOf(h.allEvents(s), KindDone)[0])
	if done.Reason != "cancelled" {
		t.Fatalf("turn ended %s", done.Reason)
	}
	h.assertValidHistory(s)
}

func TestCoordinatorShutdownInterruptsWorkers(t *testing.T) {
	noLeaks(t)
	g := newGate()
	var started atomic.Int32
	h := newHarness(t, withTools(readOnlyWait(g, &started)))
	s := h.session()
	sc := &script{lead: []llmtest.Turn{
		delegations("a", "b"),
		llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":60}`}),
	}, worker: func(req llmtest.RecordedRequest) llmtest.Turn {
		return llmtest.ToolCalls(llmtest.Call{ID: "w", Name: "wait", Args: `{}`})
	}}
	h.fake.Handle(sc.handle)
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "restart", Coordinator: true}); err != nil {
		t.Fatal(err)
	}
	// Both workers are inside their tool (no model request in flight).
	deadline := time.Now().Add(10 * time.Second)
	for started.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.rt.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundWorker)
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %d %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Status != store.TaskInterrupted {
			t.Errorf("worker %s is %s after shutdown", r.Name, r.Status)
		}
	}
}
