package agent

import (
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestToleratedArguments: a string where load_tool wants a list is repaired
// (and recorded in the result's metadata), so the tool loads on the first
// try; arguments that cannot be repaired are refused with the expected
// shape.
func TestToleratedArguments(t *testing.T) {
	h := newHarness(t)
	h.fake.Realistic(llmtest.Window{})
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":"search_history","why":"to recall"}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "bad", Name: "search_history", Args: `{"limit":"5"}`}),
		llmtest.Text("done"),
	)
	h.runTurn(s, "what did we do last week?")
	evs := h.allEvents(s)
	var load, bad ToolResultData
	for _, e := range eventsOf(evs, KindToolResult) {
		d := decode[ToolResultData](t, e)
		switch d.ToolCallID {
		case "load":
			load = d
		case "bad":
			bad = d
		}
	}
	if load.IsError || !strings.Contains(load.Output, "Loaded") {
		t.Fatalf("load_tool with a string for its list: %+v", load)
	}
	fixes, _ := load.Metadata["repaired"].([]any)
	if len(fixes) != 2 || !strings.Contains(fixes[0].(string)+fixes[1].(string), "one-element list") {
		t.Fatalf("repairs not recorded: %+v", load.Metadata)
	}
	if !bad.IsError || !strings.Contains(bad.Output, `Expected arguments: {`) || !strings.Contains(bad.Output, `"query": string`) {
		t.Fatalf("unrepairable arguments: %+v", bad)
	}
	reqs := h.fake.Requests()
	offered := false
	for _, n := range reqs[1].Tools {
		offered = offered || n == "search_history"
	}
	if !offered {
		t.Fatal("search_history not offered after the repaired load_tool call")
	}
}
