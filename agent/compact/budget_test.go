package compact

import (
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func TestEstimateAndChars(t *testing.T) {
	msgs := conv(user(strings.Repeat("a", 400)), llm.Message{Role: llm.RoleAssistant, Thought: strings.Repeat("t", 4000)})
	if got := Estimate(msgs); got != 100+2*messageOverhead {
		t.Errorf("Estimate = %d (thought must not count)", got)
	}
	if got := Chars(conv(user("星系"), calls("a"))); got != 2+len("search")+len(`{"q":"m31"}`) {
		t.Errorf("Chars = %d", got)
	}
}

func TestTracker(t *testing.T) {
	msgs := conv(sys(), user(strings.Repeat("q", 400)), reply(strings.Repeat("a", 400)))
	var tr Tracker
	if got := tr.Tokens(msgs); got != Estimate(msgs) {
		t.Errorf("no baseline: %d, want the estimate %d", got, Estimate(msgs))
	}
	tr.Observe(5000, 2) // the request held the first two messages
	if got, want := tr.Tokens(msgs), 5000+Estimate(msgs[2:]); got != want {
		t.Errorf("incremental: %d, want %d", got, want)
	}
	tr.Observe(0, 3) // no usage reported: keep the baseline
	if got, want := tr.Tokens(msgs), 5000+Estimate(msgs[2:]); got != want {
		t.Errorf("after zero usage: %d, want %d", got, want)
	}
	if got := tr.Tokens(msgs[:1]); got != Estimate(msgs[:1]) {
		t.Errorf("shorter than the request: %d", got)
	}
	tr.Reset()
	if got := tr.Tokens(msgs); got != Estimate(msgs) {
		t.Errorf("after Reset: %d", got)
	}
}

func TestTrigger(t *testing.T) {
	if Trigger(32000, Budget{}) || !Trigger(32001, Budget{}) || !Trigger(1001, Budget{SoftLimit: 1000}) {
		t.Error("Trigger must fire strictly over the soft limit")
	}
}

func TestNudgePriority(t *testing.T) {
	tests := []struct {
		tokens int
		want   string // a phrase of the expected nudge; "" for none
	}{
		{0, ""},
		{25599, ""},
		{25600, "near the context budget"},
		{32000, "near the context budget"},
		{32001, "over the soft context budget"},
		{40000, "over the soft context budget"},
		{40001, "over the context budget: answer now with what you have"},
		{999999, "answer now"},
	}
	for _, tt := range tests {
		msg, ok := Nudge(tt.tokens, Budget{})
		if ok != (tt.want != "") || !strings.Contains(msg, tt.want) {
			t.Errorf("Nudge(%d) = %q, %v; want %q", tt.tokens, msg, ok, tt.want)
		}
	}
	if _, ok := Nudge(800, Budget{SoftLimit: 1000, HardLimit: 2000}); !ok {
		t.Error("configured budget ignored")
	}
}

func TestBudgetDefaults(t *testing.T) {
	if got := (Budget{}).withDefaults(); got != DefaultBudget() {
		t.Errorf("defaults %+v", got)
	}
	if got := (Budget{SoftLimit: 50000}).withDefaults(); got.HardLimit != 50000 {
		t.Errorf("hard limit below soft: %+v", got)
	}
	if DefaultBudget().charCeiling() != 24000 {
		t.Error("ceiling must be CharLimit·1.5 = 24000")
	}
}
