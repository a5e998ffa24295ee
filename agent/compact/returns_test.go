package compact

import (
	"fmt"
	"testing"
)

// call is a successful call with distinct arguments and output.
func call(name string, i int) StepCall {
	return StepCall{Name: name, Arguments: fmt.Sprintf(`{"id":"%d"}`, i), Output: fmt.Sprintf("result %d", i)}
}

func TestDiminishingReturns(t *testing.T) {
	type step struct {
		calls    []StepCall
		tokens   int
		overSoft bool
	}
	chain := []step{ // load → download → load → parse → read → note, each < 500 tokens
		{[]StepCall{{Name: "load_tool", Arguments: `{"names":["download_paper"]}`, Output: "Loaded download_paper."}}, 60, false},
		{[]StepCall{{Name: "download_paper", Arguments: `{"id":"astro-ph/0601001"}`, Output: "Downloaded (2.1 MB)."}}, 40, false},
		{[]StepCall{{Name: "load_tool", Arguments: `{"names":["parse_paper"]}`, Output: "Loaded parse_paper."}}, 60, false},
		{[]StepCall{{Name: "parse_paper", Arguments: `{"id":"astro-ph/0601001"}`, Output: "Parsed: 41 000 characters."}}, 30, false},
		{[]StepCall{{Name: "get_paper_content", Arguments: `{"id":"astro-ph/0601001","section":"1"}`, Output: "## 1 Introduction ..."}}, 450, false},
		{[]StepCall{{Name: "save_note", Arguments: `{"id":"astro-ph/0601001","note":"key result"}`, Output: "Note saved."}}, 20, false},
		{[]StepCall{{Name: "save_note", Arguments: `{"id":"astro-ph/0601001","note":"second"}`, Output: "Note saved (2)."}}, 20, false},
	}
	same := StepCall{Name: "search_papers", Arguments: `{"query":"Perseus cavities"}`, Output: "1. Fabian 2000"}
	tests := []struct {
		name  string
		steps []step
		want  []bool
	}{
		{"small different successful steps run on", chain, []bool{false, false, false, false, false, false, false}},
		{"the same call again and again", []step{{[]StepCall{same}, 300, false}, {[]StepCall{same}, 300, false}, {[]StepCall{same}, 300, false}},
			[]bool{false, false, true}},
		{"near-identical arguments", []step{
			{[]StepCall{same}, 300, false},
			{[]StepCall{{Name: "search_papers", Arguments: `{ "query" : "perseus   Cavities" }`, Output: "1. Fabian 2000 (again)"}}, 300, false},
			{[]StepCall{{Name: "search_papers", Arguments: `{"query":"PERSEUS CAVITIES"}`, Output: "1. Fabian 2000 (third)"}}, 300, false},
		}, []bool{false, false, true}},
		{"identical results to different calls", []step{
			{[]StepCall{{Name: "query_target", Arguments: `{"name":"M87"}`, Output: "M 87, RA 187.7"}}, 50, false},
			{[]StepCall{{Name: "query_target", Arguments: `{"name":"NGC 4486"}`, Output: "M 87, RA 187.7"}}, 50, false},
			{[]StepCall{{Name: "query_target", Arguments: `{"name":"Virgo A"}`, Output: "M 87, RA 187.7"}}, 50, false},
		}, []bool{false, false, true}},
		{"empty results", []step{
			{[]StepCall{{Name: "grep_files", Arguments: `{"pattern":"a"}`, Output: "  "}}, 5, false},
			{[]StepCall{{Name: "grep_files", Arguments: `{"pattern":"b"}`, Empty: true, Output: "No matches."}}, 5, false},
		}, []bool{false, true}},
		{"a productive step resets the stall count", []step{
			{[]StepCall{same}, 300, false}, {[]StepCall{same}, 300, false}, {[]StepCall{call("x", 1)}, 300, false}, {[]StepCall{same}, 300, false},
		}, []bool{false, false, false, false}},
		{"one new call in a step of repeats is progress", []step{
			{[]StepCall{same}, 300, false}, {[]StepCall{same, call("x", 1)}, 300, false}, {[]StepCall{same, call("x", 1)}, 300, false},
		}, []bool{false, false, false}},
		{"past the soft budget: two small continuations after three", []step{
			{[]StepCall{call("a", 1)}, 900, true}, {[]StepCall{call("a", 2)}, 100, true}, {[]StepCall{call("a", 3)}, 100, true},
		}, []bool{false, false, true}},
		{"under the soft budget small continuations never stop", []step{
			{[]StepCall{call("a", 1)}, 100, false}, {[]StepCall{call("a", 2)}, 100, false}, {[]StepCall{call("a", 3)}, 100, false}, {[]StepCall{call("a", 4)}, 100, false},
		}, []bool{false, false, false, false}},
		{"500 is not small", []step{
			{[]StepCall{call("a", 1)}, 900, true}, {[]StepCall{call("a", 2)}, 500, true}, {[]StepCall{call("a", 3)}, 500, true}, {[]StepCall{call("a", 4)}, 500, true},
		}, []bool{false, false, false, false}},
		{"sticky", []step{{[]StepCall{same}, 1, false}, {[]StepCall{same}, 1, false}, {[]StepCall{same}, 1, false}, {[]StepCall{call("b", 9)}, 5000, false}},
			[]bool{false, false, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d DiminishingReturns
			for i, s := range tt.steps {
				if got := d.Check(s.calls, s.tokens, s.overSoft); got != tt.want[i] {
					t.Fatalf("check %d = %v, want %v", i+1, got, tt.want[i])
				}
			}
			if d.Stopped() != tt.want[len(tt.want)-1] {
				t.Error("Stopped disagrees")
			}
		})
	}
}

func TestDiminishingReturnsReason(t *testing.T) {
	var d DiminishingReturns
	s := []StepCall{{Name: "x", Arguments: `{}`, Output: "same"}}
	for range 3 {
		d.Check(s, 10, false)
	}
	if d.Reason() != "stall" {
		t.Fatalf("reason %q", d.Reason())
	}
}
