package compact

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func TestSnipThreshold(t *testing.T) {
	tests := []struct {
		name        string
		msgs        []llm.Message
		budget      Budget
		wantChanged bool
		wantLen     int
		wantRemoved int
	}{
		{"at the limit", chat(49, 10), Budget{}, false, 50, 0},
		{"one over: nothing worth removing", chat(50, 10), Budget{}, false, 51, 0},
		{"two over", chat(51, 10), Budget{}, true, 51, 2},
		{"far over", chat(120, 10), Budget{}, true, 51, 71},
		{"configured limit", chat(15, 10), Budget{MaxMessages: 10}, true, 11, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed := snip(tt.msgs, tt.budget.withDefaults())
			if changed != tt.wantChanged || len(out) != tt.wantLen {
				t.Fatalf("changed %v, %d messages; want %v, %d", changed, len(out), tt.wantChanged, tt.wantLen)
			}
			if !changed {
				return
			}
			if !equalMsgs(out[:SnipHead], tt.msgs[:SnipHead]) {
				t.Error("head not kept")
			}
			want := "[" + strconv.Itoa(tt.wantRemoved) + " earlier messages were removed to save space]"
			if out[SnipHead].Content != want || out[SnipHead].Role != llm.RoleUser {
				t.Errorf("placeholder %q, want %q", out[SnipHead].Content, want)
			}
			tail := tt.budget.withDefaults().MaxMessages - SnipHead
			if !equalMsgs(out[SnipHead+1:], tt.msgs[len(tt.msgs)-tail:]) {
				t.Error("tail not kept")
			}
		})
	}
}

func TestSnipMovesBothCutsToSafePoints(t *testing.T) {
	// The head would end inside the batch at 2–4 (index 3 is a result) and
	// the tail (the last 47, from index 16) would start inside the batch at
	// 15–18.
	in := conv(sys(), user("q"), step("r", "a", "b"), chat(10, 5)[1:], step("r", "c", "d", "e"), chat(44, 5)[1:])
	if len(in) != 63 || in[16].Role != llm.RoleTool {
		t.Fatalf("fixture: %d messages", len(in))
	}
	out, ok := snip(in, DefaultBudget())
	if !ok {
		t.Fatal("not snipped")
	}
	if err := Check(out); err != nil {
		t.Fatal(err)
	}
	if len(out) != 51 || out[2].Content != "[13 earlier messages were removed to save space]" {
		t.Fatalf("%d messages, placeholder %q", len(out), out[2].Content)
	}
	if !equalMsgs(out[:2], in[:2]) || !equalMsgs(out[3:], in[15:]) {
		t.Error("head or tail wrong")
	}
}

func TestMicroThreshold(t *testing.T) {
	// Nine single-call steps of 100 characters; the user message pads the
	// conversation to exactly the ceiling (CharLimit·1.5 = 1500) or one above.
	build := func(total int) []llm.Message {
		in := conv(sys(), user(""))
		for range 9 {
			in = append(in, step(strings.Repeat("r", 100), "c1")...)
		}
		in[1].Content = strings.Repeat("u", total-Chars(in))
		return in
	}
	b := Budget{CharLimit: 1000}
	for _, tt := range []struct {
		total  int
		method string
	}{{1500, ""}, {1501, "micro"}} {
		in := build(tt.total)
		res, err := Compress(context.Background(), in, Options{Budget: b, Summarizer: &fixedSummary{text: "s"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Method != tt.method {
			t.Fatalf("%d chars: method %q, want %q", tt.total, res.Method, tt.method)
		}
		if tt.method == "" {
			continue
		}
		if got := res.Messages[3].Content; got != "[Previous: used search]" {
			t.Errorf("oldest result = %q", got)
		}
		kept := 0
		for _, m := range res.Messages {
			if m.Role == llm.RoleTool && !strings.HasPrefix(m.Content, "[Previous") {
				kept++
			}
		}
		if kept != MicroKeep {
			t.Errorf("%d results intact, want %d", kept, MicroKeep)
		}
	}
}

func TestMicroUsesTheCallNameAndSkipsShortResults(t *testing.T) {
	in := conv(sys(), calls("x", "y"), result("x", strings.Repeat("r", 50)), result("y", "ok"), step("r", "z"))
	in[2].Name = "" // name only on the call
	in[1].ToolCalls[0].Name = "sesame"
	out, ok := micro(in, 1)
	if !ok {
		t.Fatal("unchanged")
	}
	if out[2].Content != "[Previous: used sesame]" || out[3].Content != "ok" {
		t.Errorf("got %q, %q", out[2].Content, out[3].Content)
	}
	if in[2].Content == out[2].Content {
		t.Error("input modified")
	}
}

// overByUser is a conversation over the 1500-character ceiling because of
// its first user message, with few tool results (L1 cannot help).
func overByUser(tail ...any) []llm.Message {
	r := strings.Repeat("r", 100)
	parts := []any{sys(), user(strings.Repeat("u", 3000)), step(r, "a"), reply("thinking"), step(r, "a")}
	return conv(append(parts, tail...)...)
}

func TestAutoRunsWhenMicroIsNotEnough(t *testing.T) {
	in := overByUser(step("r", "b", "c"), reply("so far"), user("and?"))
	sum := &fixedSummary{text: strings.Repeat("s", 800)}
	res, err := Compress(context.Background(), in, Options{Budget: Budget{CharLimit: 1000}, Summarizer: sum})
	if err != nil {
		t.Fatal(err)
	}
	// Two messages are left after the system message and the summary, so
	// L4 adds the identity block.
	if res.Method != "auto+identity" || sum.calls != 1 {
		t.Fatalf("method %q, %d summarizer calls", res.Method, sum.calls)
	}
	if !equalMsgs(sum.got, in[1:len(in)-AutoKeep]) {
		t.Errorf("summarized %d messages, want the %d before the tail", len(sum.got), len(in)-1-AutoKeep)
	}
	got := res.Messages[2]
	if !strings.HasPrefix(got.Content, SummaryPrefix+"\n") || got.Role != llm.RoleUser {
		t.Fatalf("summary message %q", got.Content)
	}
	if n := utf8.RuneCountInString(strings.TrimPrefix(got.Content, SummaryPrefix+"\n")); n > SummaryMaxChars {
		t.Errorf("summary has %d characters", n)
	}
	if !equalMsgs(res.Messages[3:], in[len(in)-AutoKeep:]) {
		t.Error("tail not kept verbatim")
	}
}

func TestAutoKeepsAWholeBatchInTheTail(t *testing.T) {
	in := overByUser(step("r", "b", "c", "d"))
	res, err := Compress(context.Background(), in, Options{Budget: Budget{CharLimit: 1000}, Summarizer: &fixedSummary{text: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "auto" || !equalMsgs(res.Messages[2:], in[len(in)-4:]) {
		t.Fatalf("method %q, tail %d messages", res.Method, len(res.Messages)-2)
	}
}

func TestAutoFailureFallsThroughToAggressive(t *testing.T) {
	for _, sum := range []Summarizer{&fixedSummary{err: errSummary}, &fixedSummary{text: "  "}, nil} {
		in := overByUser(step("r", "b"))
		res, err := Compress(context.Background(), in, Options{Budget: Budget{CharLimit: 1000}, Summarizer: sum})
		if err != nil {
			t.Fatal(err)
		}
		if res.Method != "aggressive" {
			t.Fatalf("method %q", res.Method)
		}
		if (sum != nil) != (res.SummaryError != nil) {
			t.Errorf("SummaryError = %v", res.SummaryError)
		}
	}
}

func TestAggressiveOnlyWhenStillOver(t *testing.T) {
	big := strings.Repeat("r", 1000)
	// After the summary the tail is a batch of four 1000-character results:
	// still over, so L3 keeps only the newest two.
	in := overByUser(step(big, "b", "c", "d", "e"))
	res, _ := Compress(context.Background(), in, Options{Budget: Budget{CharLimit: 1000}, Summarizer: &fixedSummary{text: "s"}})
	if res.Method != "auto+aggressive" {
		t.Fatalf("method %q", res.Method)
	}
	var intact int
	for _, m := range res.Messages {
		if m.Role == llm.RoleTool && m.Content == big {
			intact++
		}
	}
	if intact != AggressiveKeep {
		t.Errorf("%d results intact", intact)
	}
	// Small results: within limits after the summary, L3 does not run.
	res, _ = Compress(context.Background(), overByUser(step("r", "b", "c", "d", "e")),
		Options{Budget: Budget{CharLimit: 1000}, Summarizer: &fixedSummary{text: "s"}})
	if res.Method != "auto" {
		t.Fatalf("method %q", res.Method)
	}
}

func TestIdentityThreshold(t *testing.T) {
	opt := Options{Budget: Budget{CharLimit: 1000}, Summarizer: &fixedSummary{text: "s"}, Question: "What is the distance to M31?"}
	// Four messages left (system, summary, call, result): identity.
	res, _ := Compress(context.Background(), overByUser(step("r", "z")), opt)
	if res.Method != "auto+identity" || len(res.Messages) != 5 {
		t.Fatalf("method %q, %d messages", res.Method, len(res.Messages))
	}
	id := res.Messages[1]
	if !strings.HasPrefix(id.Content, IdentityPrefix) || !strings.Contains(id.Content, opt.Question) ||
		!strings.Contains(id.Content, DefaultIdentity) {
		t.Errorf("identity block %q", id.Content)
	}
	if err := Check(res.Messages); err != nil {
		t.Fatal(err)
	}
	// Five left: no identity.
	res, _ = Compress(context.Background(), overByUser(step("r", "y", "z")), opt)
	if res.Method != "auto" || len(res.Messages) != 5 {
		t.Fatalf("method %q, %d messages", res.Method, len(res.Messages))
	}
	// Not twice.
	again, ok := identity(conv(sys(), user(IdentityPrefix+" x")), opt)
	if ok || len(again) != 2 {
		t.Error("identity injected twice")
	}
}

func TestCompressWithinLimitsDoesNothing(t *testing.T) {
	in := conv(sys(), user("q"), step("r", "a"), reply("answer"))
	sum := &fixedSummary{text: "s"}
	res, err := Compress(context.Background(), in, Options{Summarizer: sum})
	if err != nil || res.Method != "" || res.Before != 5 || res.After != 5 || sum.calls != 0 {
		t.Fatalf("%+v, %v, %d calls", res, err, sum.calls)
	}
}

func TestCompressForce(t *testing.T) {
	in := conv(sys(), user("q"), step("r", "a"), reply(strings.Repeat("i", 1000)), user("more"), step("r", "b"))
	res, err := Compress(context.Background(), in, Options{Summarizer: &fixedSummary{text: "s"}, Force: true})
	if err != nil || res.Method != "auto+identity" || res.After >= res.Before {
		t.Fatalf("%+v, %v", res, err)
	}
}

func TestCompressReturnsContextError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sum := SummarizerFunc(func(ctx context.Context, _ []llm.Message, _ int) (string, error) {
		cancel()
		return "", ctx.Err()
	})
	_, err := Compress(ctx, overByUser(step("r", "b")), Options{Budget: Budget{CharLimit: 1000}, Summarizer: sum})
	if err != context.Canceled {
		t.Fatalf("err = %v", err)
	}
}
