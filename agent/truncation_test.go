package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestPromptTruncated(t *testing.T) {
	tests := []struct {
		sent, reported, window int
		want                   bool
	}{
		{6900, 4096, 0, true},      // Ollama kept its 4k window of a 6.9k prompt
		{6900, 4096, 4096, true},   // known window, prompt over it
		{6900, 6500, 0, false},     // counts differ a little: tokenizers do
		{6900, 120, 0, false},      // a server (or script) that does not count
		{900, 300, 0, false},       // too small to judge
		{6900, 4000, 32768, false}, // well inside a known window: never cut
	}
	for _, tt := range tests {
		if got := promptTruncated(tt.sent, tt.reported, tt.window); got != tt.want {
			t.Errorf("promptTruncated(%d, %d, %d) = %v, want %v", tt.sent, tt.reported, tt.window, got, tt.want)
		}
	}
}

// TestSilentTruncationWarnsCompactsAndRetries: an Ollama-like server drops
// the beginning of an over-long prompt; the turn shows a warning, compacts
// and retries the step once, and the answer comes from the retry.
func TestSilentTruncationWarnsCompactsAndRetries(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	h.fake.Realistic(llmtest.Window{Tokens: 4096, Overflow: llmtest.Truncate})
	s := h.session()
	big := strings.Repeat("line flux measurement ", 200) // ~1,100 tokens per result
	for i := range 4 {
		h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "e" + string(rune('0'+i)), Name: "echo", Args: `{"text":"` + string(rune('a'+i)) + big + `"}`}))
	}
	h.fake.Enqueue(llmtest.Text("answer after compaction"))
	h.runTurn(s, "collect")
	evs := h.allEvents(s)
	warns := eventsOf(evs, KindWarning)
	if len(warns) != 1 {
		t.Fatalf("%d warnings, want 1; events %s", len(warns), kinds(evs))
	}
	w := decode[WarningData](t, warns[0])
	if w.Code != "prompt_truncated" || w.ReportedTokens >= w.SentTokens || !strings.Contains(w.Message, "OLLAMA_CONTEXT_LENGTH") {
		t.Fatalf("warning %+v", w)
	}
	if len(eventsOf(evs, KindCompaction)) == 0 {
		t.Fatalf("no compaction after the truncation: %s", kinds(evs))
	}
	if lim := h.rt.Limits(); lim.Window == 0 || lim.Window > 4096 {
		t.Fatalf("window not learnt from the truncation: %+v", lim)
	}
	h.assertValidHistory(s)
}

// TestCutToolCallIsNotExecuted: finish_reason "length" with a half-written
// call: the call never runs, the model is told, and its next call runs.
func TestCutToolCallIsNotExecuted(t *testing.T) {
	h := newHarness(t, withTools(echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "cut", Name: "echo", Args: `{"text":"a very long argu`}).WithFinish("length"),
		llmtest.ToolCalls(llmtest.Call{ID: "ok", Name: "echo", Args: `{"text":"short"}`}),
		llmtest.Text("done"),
	)
	h.runTurn(s, "go")
	evs := h.allEvents(s)
	for _, e := range eventsOf(evs, KindToolCall) {
		if decode[ToolCallData](t, e).ID == "cut" {
			t.Fatal("the cut call was executed")
		}
	}
	if n := len(eventsOf(evs, KindToolResult)); n != 1 {
		t.Fatalf("%d results, want 1", n)
	}
	reqs := h.fake.Requests()
	if last := reqs[1].LastMessage(); last.Role != "user" || !strings.Contains(last.Content, "cut off") {
		t.Fatalf("the model was not told its output was cut: %+v", last)
	}
	if w := eventsOf(evs, KindWarning); len(w) != 1 || decode[WarningData](t, w[0]).Code != "output_truncated" {
		t.Fatalf("warnings %s", kinds(evs))
	}
	h.assertValidHistory(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "answer" {
		t.Fatalf("done %+v", d)
	}
}

// TestWindowLearntFromARefusal: a server that does not report its window
// refuses an over-long prompt naming it; the turn learns the window,
// compacts and goes on, and later steps fit without another refusal.
func TestWindowLearntFromARefusal(t *testing.T) {
	h := newHarness(t, withTools(bigTool()), withConfig(func(c *Config) { c.MaxToolOutput = 100000 }))
	h.fake.Realistic(llmtest.Window{Tokens: 6144, Overflow: llmtest.Refuse})
	s := h.session()
	for i := range 5 { // ~1,500 tokens a result
		h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("b", i), Name: "big", Args: fmt.Sprintf(`{"n":%d}`, 6000+i)}))
	}
	h.fake.Enqueue(llmtest.Text("answer"))
	h.runTurn(s, "collect")
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "answer" && d.Reason != "max_steps" {
		t.Fatalf("done %+v; events %s", d, kinds(evs))
	}
	if lim := h.rt.Limits(); lim.Window != 6144 {
		t.Fatalf("window not learnt: %+v", lim)
	}
	refused, _ := h.fake.Overflows()
	if refused == 0 || refused > 1 {
		t.Fatalf("%d refusals, want exactly the first one", refused)
	}
	h.assertValidHistory(s)
}

// TestLearntWindowSurvivesTheNextTurn: a window learnt from a refusal is
// kept when the next turn asks a server that reports nothing.
func TestLearntWindowSurvivesTheNextTurn(t *testing.T) {
	h := newHarness(t)
	h.rt.d.Window = h.client
	h.fake.Enqueue(llmtest.Text("one"))
	s := h.session()
	h.runTurn(s, "first")
	h.rt.learnWindow("test-model", 6144, "named by the server when it refused a prompt")
	h.fake.Enqueue(llmtest.Text("two"))
	h.runTurn(s, "second")
	if lim := h.rt.Limits(); lim.Window != 6144 {
		t.Fatalf("learnt window lost: %+v", lim)
	}
}
