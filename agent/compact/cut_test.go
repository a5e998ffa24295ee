package compact

import (
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func TestSafeCut(t *testing.T) {
	orphanAfterUser := conv(sys(), user("q"), result("x", "orphan"), result("y", "orphan"), reply("a"))
	orphanAfterSystem := conv(sys(), result("x", "orphan"), user("q"))
	// Ids reused across turns: call_1 appears in two assistant messages.
	reused := conv(sys(), user("q"), step("r", "call_1", "call_2"), user("again"), step("r", "call_2", "call_1"))
	parallel := conv(sys(), user("q"), step("r", "a", "b", "c"), reply("done"))
	pending := conv(sys(), user("q"), calls("a")) // the call's result is not in yet
	tests := []struct {
		name string
		msgs []llm.Message
		idx  int
		want int
	}{
		{"plain message", parallel, 6, 6},
		{"at the assistant", parallel, 2, 2},
		{"first result of a batch", parallel, 3, 2},
		{"last result of a batch", parallel, 5, 2},
		{"end", parallel, 7, 7},
		{"past the end", parallel, 99, 7},
		{"start", parallel, 0, 0},
		{"negative", parallel, -3, 0},
		{"after the system message", parallel, 1, 1},
		{"reused id: nearest assistant", reused, 7, 6},
		{"reused id: second result", reused, 8, 6},
		{"reused id: first batch", reused, 4, 2},
		{"orphans after a user message", orphanAfterUser, 3, 1},
		{"orphans after the system message", orphanAfterSystem, 1, 1},
		{"pending call", pending, 2, 2},
		{"no system message", conv(calls("a"), result("a", "r"), user("q")), 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SafeCut(tt.msgs, tt.idx); got != tt.want {
				t.Errorf("SafeCut(%d) = %d, want %d", tt.idx, got, tt.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	outOfOrder := conv(sys(), calls("a", "b"), result("b", "r"), result("a", "r"))
	tests := []struct {
		name    string
		msgs    []llm.Message
		wantErr string
	}{
		{"valid", conv(sys(), user("q"), step("r", "a", "b"), reply("x")), ""},
		{"results in any order", outOfOrder, ""},
		{"ids reused across messages", conv(sys(), step("r", "a"), step("r", "a")), ""},
		{"empty", nil, ""},
		{"missing result", conv(sys(), calls("a", "b"), result("a", "r"), user("q")), "has no result"},
		{"pending call", conv(sys(), calls("a")), "has no result"},
		{"second result", conv(sys(), calls("a"), result("a", "r"), result("a", "r")), "second result"},
		{"result for another call", conv(sys(), calls("a"), result("b", "r")), "no such call"},
		{"orphan result", conv(sys(), user("q"), result("a", "r")), "follows no tool call"},
		{"result after a user message", conv(sys(), calls("a"), user("q"), result("a", "r")), "has no result"},
		{"system not first", conv(user("q"), sys()), "system message at index 1"},
		{"repeated id in one message", conv(sys(), calls("a", "a"), result("a", "r"), result("a", "r")), "repeated call id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.msgs)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("Check = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestDropped(t *testing.T) {
	in := chat(60, 3)
	out, _ := snip(in, DefaultBudget())
	d := Dropped(in, out)
	if !equalMsgs(d, in[SnipHead:len(in)-47]) {
		t.Errorf("snip: dropped %d messages, want %d", len(d), len(in)-47-SnipHead)
	}

	mic := conv(sys(), step(strings.Repeat("r", 50), "a"), step(strings.Repeat("s", 50), "a"), step("t", "b"))
	out, _ = micro(mic, 1)
	d = Dropped(mic, out)
	if len(d) != 2 || d[0].Content != strings.Repeat("r", 50) || d[1].Content != strings.Repeat("s", 50) {
		t.Errorf("micro: dropped %+v", d)
	}

	if d := Dropped(mic, mic); d != nil {
		t.Errorf("unchanged: dropped %d", len(d))
	}
	// Identical messages: the count is right whichever copy is matched.
	dup := conv(sys(), user("same"), reply("x"), user("same"))
	if d := Dropped(dup, conv(sys(), user("same"))); len(d) != 2 {
		t.Errorf("duplicates: dropped %d", len(d))
	}
}
