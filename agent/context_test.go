package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/store"
)

// sentValid checks a request the model received: system first, each call
// followed by exactly its results.
func sentValid(t *testing.T, msgs []llmtest.Message) {
	t.Helper()
	if len(msgs) == 0 || msgs[0].Role != "system" {
		t.Fatalf("system message not first: %+v", msgs)
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == "tool" {
			t.Fatalf("message %d: result without its call", i)
		}
		for j, c := range m.ToolCalls {
			if i+1+j >= len(msgs) || msgs[i+1+j].ToolCallID != c.ID {
				t.Fatalf("message %d: call %s not followed by its result", i, c.ID)
			}
		}
		i += len(m.ToolCalls)
	}
}

func TestAutoCompactionInTheLoop(t *testing.T) {
	h := newHarness(t, withTools(echoTool()), withConfig(func(c *Config) {
		c.MaxSteps = 8
		c.Budget = compact.Budget{SoftLimit: 1500, HardLimit: 4000, MaxMessages: 12, CharLimit: 1000}
	}))
	s := h.session()
	long := strings.Repeat("spectral line data ", 60) // ~1,100 characters per result
	var turns []llmtest.Turn
	for i := 0; i < 6; i++ {
		turns = append(turns, llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("e", i), Name: "echo",
			Args: fmt.Sprintf(`{"text":"%d %s"}`, i, long)}))
	}
	h.fake.Enqueue(append(turns, llmtest.Text("summary of findings"))...)
	h.runTurn(s, "Collect the line data")
	evs := h.allEvents(s)
	comps := eventsOf(evs, KindCompaction)
	if len(comps) == 0 {
		t.Fatalf("no compaction over budget; events %s", kinds(evs))
	}
	if c := decode[CompactionData](t, comps[0]); c.Method == "" || c.After > c.Before {
		t.Fatalf("compaction %+v", c)
	}
	for _, r := range h.fake.Requests() {
		sentValid(t, r.Messages)
	}
	last := h.fake.Requests()[len(h.fake.Requests())-1].Messages
	if !strings.Contains(fmt.Sprint(last), "[Previous: used echo]") {
		t.Fatal("old tool results were not shortened")
	}
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "answer" && d.Reason != "diminishing_returns" {
		t.Fatalf("done %+v", d)
	}
	// The stored conversation is untouched by compaction.
	h.assertValidHistory(s)
	if n := len(h.history(s)); n < 14 {
		t.Fatalf("history lost messages: %d", n)
	}
}

func TestCompressContextTool(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	var calls []llmtest.Call
	for i := 0; i < 10; i++ {
		calls = append(calls, llmtest.Call{ID: fmt.Sprint("e", i), Name: "echo", Args: fmt.Sprintf(`{"text":"result %d: %s"}`, i, strings.Repeat("flux ", 30))})
	}
	h.fake.Enqueue(
		llmtest.ParallelToolCalls(calls...),
		llmtest.ToolCalls(llmtest.Call{ID: "b", Name: "compress_context", Args: `{}`}),
		llmtest.Text("done"),
	)
	h.runTurn(s, "go")
	comps := eventsOf(h.allEvents(s), KindCompaction)
	if len(comps) != 1 {
		t.Fatalf("compress_context did not compress: %s", kinds(h.allEvents(s)))
	}
	for _, r := range h.fake.Requests() {
		sentValid(t, r.Messages)
	}
}

func TestBudgetNudgeSentOnce(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) {
		c.Budget = compact.Budget{SoftLimit: 1000, HardLimit: 1200, MaxMessages: 50, CharLimit: 100000}
	}))
	s := h.session()
	h.fake.Realistic(llmtest.Window{})
	h.fake.Enqueue(llmtest.Text("ok"))
	h.runTurn(s, strings.Repeat("a long question about galaxies ", 150))
	sent := h.fake.Requests()[0].Messages
	if last := sent[len(sent)-1]; last.Role != "user" || !strings.Contains(strings.ToLower(last.Content), "answer now") {
		t.Fatalf("no over-budget nudge with the request: %+v", last.Content)
	}
	if rows := h.history(s); strings.Contains(fmt.Sprint(rows), "answer now") {
		t.Fatal("a nudge was persisted")
	}
}

func TestRecoveryLadder(t *testing.T) {
	tooLong := llmtest.HTTPError(400, nil, "prompt_too_long: this request exceeds the context length")
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	var calls []llmtest.Call
	for i := 0; i < 4; i++ {
		calls = append(calls, llmtest.Call{ID: fmt.Sprint("c", i), Name: "echo", Args: fmt.Sprintf(`{"text":"%d %s"}`, i, strings.Repeat("data ", 40))})
	}
	h.fake.Enqueue(llmtest.ParallelToolCalls(calls...), tooLong, tooLong, llmtest.Text("recovered answer"))
	h.runTurn(s, "go")
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "answer" || d.Answer != "recovered answer" {
		t.Fatalf("done %+v (%s)", d, kinds(evs))
	}
	var methods []string
	for _, e := range eventsOf(evs, KindCompaction) {
		methods = append(methods, decode[CompactionData](t, e).Method)
	}
	if strings.Join(methods, ",") != "aggressive_compact" {
		t.Fatalf("rungs used %v", methods)
	}
	reqs := h.fake.Requests()
	if reqs[3].Extra["max_tokens"] == nil && reqs[3].Extra["max_completion_tokens"] == nil {
		t.Fatalf("the third retry did not escalate the token limit: %v", reqs[3].Extra)
	}
	for _, r := range reqs {
		sentValid(t, r.Messages)
	}
	h.assertValidHistory(s)
}

func TestRecoveryLadderModelErrorSurfaces(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.HTTPError(500, nil, "internal error"))
	h.runTurn(s, "go")
	if len(h.fake.Requests()) != 1 {
		t.Fatalf("a ModelError was retried by the ladder: %d requests", len(h.fake.Requests()))
	}
	if len(eventsOf(h.allEvents(s), KindError)) != 1 {
		t.Fatal("ModelError not surfaced")
	}
}

func TestTodoNag(t *testing.T) {
	h := newHarness(t, withTools(echoTool()), withConfig(func(c *Config) {
		c.Budget = compact.Budget{SoftLimit: 100000, HardLimit: 200000, MaxMessages: 50, CharLimit: 1000000}
	}))
	s := h.session()
	var turns []llmtest.Turn
	for i := 0; i < 5; i++ {
		// Each step adds > 500 tokens, so the diminishing-returns stop (C4)
		// does not end the turn first.
		turns = append(turns, llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("n", i), Name: "echo",
			Args: fmt.Sprintf(`{"text":"%d %s"}`, i, strings.Repeat("photometry ", 200))}))
	}
	h.fake.Enqueue(append(turns, llmtest.Text("done"))...)
	h.runTurn(s, "go")
	nagged := 0
	for i, r := range h.fake.Requests() {
		last := r.Messages[len(r.Messages)-1]
		if strings.Contains(last.Content, "todo_write") && last.Role == "user" {
			nagged++
			if i != 3 {
				t.Errorf("reminder sent with request %d, want the 4th (after 3 steps without todo_write)", i+1)
			}
		}
	}
	if nagged != 1 {
		t.Fatalf("%d reminders, want 1", nagged)
	}
}

func TestDiminishingReturnsStopsTheLoop(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	var turns []llmtest.Turn
	for i := 0; i < 6; i++ {
		// The same question reworded: near-identical arguments whose
		// results add nothing new (C4 stall).
		turns = append(turns, llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("d", i), Name: "echo",
			Args: fmt.Sprintf(`{"text":"%sPerseus  cavities"}`, strings.Repeat(" ", i))}))
	}
	h.fake.Enqueue(append(turns[:3], llmtest.Text("what I have"))...)
	h.runTurn(s, "go")
	reqs := h.fake.Requests()
	if last := reqs[len(reqs)-1]; len(last.Tools) != 0 {
		t.Fatal("the final answer after diminishing returns must be asked without tools")
	}
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "diminishing_returns" || d.Answer != "what I have" {
		t.Fatalf("done %+v", d)
	}
}

func TestSaveMemoryAndPrompt(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(
			llmtest.Call{ID: "m1", Name: "save_memory", Args: `{"kind":"user","content":"The user studies X-ray cavities in galaxy clusters with Chandra."}`},
			llmtest.Call{ID: "m2", Name: "save_memory", Args: `{"kind":"user","content":"today"}`},
		),
		llmtest.Text("noted"),
		llmtest.Text("second turn"),
	)
	h.runTurn(s, "I work on cluster cavities")
	msgs := h.fake.Requests()[1].Messages
	if !strings.Contains(msgs[3].Content, "Saved as memory #1") || !strings.Contains(msgs[4].Content, "Not saved: it is too short") {
		t.Fatalf("results %q / %q", msgs[3].Content, msgs[4].Content)
	}
	h.runTurn(h.session(), "new session")
	system := h.fake.Requests()[2].Messages[0].Content
	if !strings.Contains(system, "(user) The user studies X-ray cavities") {
		t.Fatalf("memory not in the next session's system prompt:\n%s", system)
	}
}

func TestMemoryExtractionAfterTurn(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) { c.ExtractMemories = true }))
	s := h.session()
	h.fake.Enqueue(
		llmtest.Text("Noted: you work with ALMA on protoplanetary disks."),
		// The extractor's calls: save one memory, then finish.
		llmtest.ToolCalls(llmtest.Call{ID: "x1", Name: "save_memory", Args: `{"kind":"user","content":"The user observes protoplanetary disks with ALMA at band 6."}`}),
		llmtest.Text("saved one memory"),
	)
	h.runTurn(s, "I observe protoplanetary disks with ALMA band 6")
	if err := h.rt.WaitIdle(context.Background()); err != nil { // the background extractor
		t.Fatal(err)
	}
	list, _ := h.mem.List(context.Background(), h.userID, 0)
	if len(list) != 1 || !strings.Contains(list[0].Content, "ALMA") {
		t.Fatalf("memories %+v", list)
	}
	reqs := h.fake.Requests()
	if !strings.Contains(reqs[1].Messages[0].Content, "long-term memory") || !strings.Contains(reqs[1].Messages[1].Content, "User: I observe protoplanetary disks") {
		t.Fatalf("extractor request %+v", reqs[1].Messages)
	}
	// No research tools: only save_memory (C12).
	if got := strings.Join(reqs[1].Tools, ","); got != "save_memory" {
		t.Fatalf("extractor offered %s, want only save_memory", got)
	}
	var audit []string
	rows, _, _ := h.st.QueryAudit(context.Background(), store.AuditFilter{SessionID: s, Limit: 50})
	for _, r := range rows {
		if r.Tool == "save_memory" {
			audit = append(audit, r.AgentName)
		}
	}
	if len(audit) != 1 || audit[0] != MemoryAgent {
		t.Fatalf("the extractor's audit rows are not marked as the memory agent's: %q", audit)
	}
	// The extractor is silent: the session's events end with the lead's done.
	evs := h.allEvents(s)
	if evs[len(evs)-1].Kind != KindDone || evs[len(evs)-1].Agent != LeadAgent {
		t.Fatalf("extractor emitted events: %s", kinds(evs))
	}
}

// TestSixtyStepSession: a long scripted session crosses the soft limit
// more than once, is compacted each time, and still ends with a valid
// answer.
func TestSixtyStepSession(t *testing.T) {
	h := newHarness(t, withTools(bigTool()), withConfig(func(c *Config) {
		c.MaxSteps = 60
		c.MaxToolOutput = 100000 // keep results inline so the context really grows
		c.Budget = compact.Budget{SoftLimit: 6000, HardLimit: 9000, MaxMessages: 30, CharLimit: 8000}
	}))
	s := h.session()
	var mu sync.Mutex
	step := 0
	h.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		mu.Lock()
		defer mu.Unlock()
		step++
		if step >= 60 {
			return llmtest.Text("Final answer after 59 tool steps.")
		}
		return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("s", step), Name: "big", Args: fmt.Sprintf(`{"n":%d}`, 2400+step)})
	})
	h.runTurn(s, "Run the long survey")
	evs := h.allEvents(s)
	if n := len(eventsOf(evs, KindCompaction)); n < 2 {
		t.Fatalf("%d compactions over 60 steps, want at least 2", n)
	}
	d := decode[DoneData](t, evs[len(evs)-1])
	if d.Reason != "answer" || d.Answer != "Final answer after 59 tool steps." || d.Steps != 60 {
		t.Fatalf("done %+v", d)
	}
	for _, r := range h.fake.Requests() {
		sentValid(t, r.Messages)
		chars := 0
		for _, m := range r.Messages {
			chars += len(m.Content)
		}
		if chars > 9000*4 {
			t.Fatalf("a request carried %d characters, over the hard limit; compaction did not keep up", chars)
		}
	}
	h.assertValidHistory(s)
}
