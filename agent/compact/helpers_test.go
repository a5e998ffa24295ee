package compact

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func sys() llm.Message           { return llm.Message{Role: llm.RoleSystem, Content: "system prompt"} }
func user(s string) llm.Message  { return llm.Message{Role: llm.RoleUser, Content: s} }
func reply(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }

// calls is an assistant message calling tool "search" once per id.
func calls(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "search", Arguments: `{"q":"m31"}`})
	}
	return m
}

func result(id, content string) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "search", Content: content}
}

// step is an assistant message with one call per id and its results.
func step(content string, ids ...string) []llm.Message {
	out := []llm.Message{calls(ids...)}
	for _, id := range ids {
		out = append(out, result(id, content))
	}
	return out
}

func conv(parts ...any) []llm.Message {
	var out []llm.Message
	for _, p := range parts {
		switch p := p.(type) {
		case llm.Message:
			out = append(out, p)
		case []llm.Message:
			out = append(out, p...)
		default:
			panic(fmt.Sprintf("conv: %T", p))
		}
	}
	return out
}

// chat is the system message followed by n alternating user/assistant
// messages without tools.
func chat(n int, size int) []llm.Message {
	out := []llm.Message{sys()}
	for i := range n {
		text := fmt.Sprintf("m%02d ", i) + strings.Repeat("x", size)
		if i%2 == 0 {
			out = append(out, user(text))
		} else {
			out = append(out, reply(text))
		}
	}
	return out
}

func clone(msgs []llm.Message) []llm.Message {
	out := slices.Clone(msgs)
	for i := range out {
		out[i].ToolCalls = slices.Clone(out[i].ToolCalls)
	}
	return out
}

func equalMsgs(a, b []llm.Message) bool {
	return slices.EqualFunc(a, b, sameMessage)
}

// fixedSummary summarizes to text (or fails with err) and counts calls.
type fixedSummary struct {
	text  string
	err   error
	calls int
	got   []llm.Message
}

func (f *fixedSummary) Summarize(_ context.Context, msgs []llm.Message, _ int) (string, error) {
	f.calls++
	f.got = msgs
	return f.text, f.err
}

var errSummary = errors.New("model unavailable")

// randomConversation is a valid conversation: system first, user turns,
// plain replies, steps with 1–4 parallel calls whose results come in a
// random order, ids reused across steps (from a pool of four), tool
// outputs from empty to long (ASCII and CJK).
func randomConversation(r *rand.Rand) []llm.Message {
	msgs := []llm.Message{sys(), user(randomText(r, 200))}
	n := r.IntN(90)
	for len(msgs) < n+2 {
		switch k := r.IntN(10); {
		case k < 6:
			msgs = append(msgs, randomStep(r)...)
		case k < 8:
			msgs = append(msgs, reply(randomText(r, 800)))
		default:
			msgs = append(msgs, user(randomText(r, 300)))
		}
	}
	return msgs
}

func randomStep(r *rand.Rand) []llm.Message {
	pool := []string{"call_0", "call_1", "call_2", "call_3"}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	ids := pool[:1+r.IntN(4)]
	a := llm.Message{Role: llm.RoleAssistant, Content: randomText(r, 100)}
	tools := []string{"search_ads", "read_paper", "sesame", "fs_read"}
	for _, id := range ids {
		a.ToolCalls = append(a.ToolCalls, llm.ToolCall{ID: id, Name: tools[r.IntN(len(tools))], Arguments: `{"q":"x"}`})
	}
	out := []llm.Message{a}
	for _, i := range r.Perm(len(ids)) {
		c := a.ToolCalls[i]
		m := llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: randomText(r, 6000)}
		if r.IntN(3) > 0 {
			m.Name = c.Name // sometimes the name is only on the call
		}
		out = append(out, m)
	}
	return out
}

func randomText(r *rand.Rand, maxLen int) string {
	n := r.IntN(maxLen + 1)
	if r.IntN(6) == 0 {
		return strings.Repeat("星系", n/2)
	}
	return strings.Repeat("a", n)
}

// assertValid checks the properties every layer and Compress keep.
func assertValid(t *testing.T, layer string, in, out []llm.Message) {
	t.Helper()
	if err := Check(out); err != nil {
		t.Fatalf("%s: invariant broken: %v", layer, err)
	}
	if len(out) == 0 || out[0].Role != llm.RoleSystem {
		t.Fatalf("%s: system message not first", layer)
	}
	if len(out) > len(in) {
		t.Fatalf("%s: messages grew %d → %d", layer, len(in), len(out))
	}
	if Chars(out) > Chars(in) {
		t.Fatalf("%s: characters grew %d → %d", layer, Chars(in), Chars(out))
	}
	if d := Dropped(in, out); len(d) < len(in)-len(out) {
		t.Fatalf("%s: Dropped returned %d messages, %d are gone", layer, len(d), len(in)-len(out))
	}
}
