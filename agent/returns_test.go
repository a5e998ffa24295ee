package agent

import (
	"fmt"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestSmallDifferentStepsRunToTheStepLimit: a chain of small, different,
// successful steps (each adding far fewer than 500 tokens) with realistic
// usage figures is never stopped by C4; it runs to the step limit.
func TestSmallDifferentStepsRunToTheStepLimit(t *testing.T) {
	h := newHarness(t, withTools(echoTool()), withConfig(func(c *Config) { c.MaxSteps = 6 }))
	h.fake.Realistic(llmtest.Window{})
	s := h.session()
	for i, step := range []string{"load", "download", "load parse", "parse", "read", "note"} {
		h.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("c", i), Name: "echo", Args: fmt.Sprintf(`{"text":%q}`, step)}))
	}
	h.fake.Enqueue(llmtest.Text("The paper finds X."))
	h.runTurn(s, "Please read the paper astro-ph/0601001")
	evs := h.allEvents(s)
	if d := decode[DoneData](t, evs[len(evs)-1]); d.Reason != "max_steps" || d.Steps != 6 {
		t.Fatalf("done %+v, want max_steps after 6 steps", d)
	}
	if n := len(eventsOf(evs, KindToolResult)); n != 6 {
		t.Fatalf("%d tool results, want 6", n)
	}
}
