package agent

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func call(id string) llm.ToolCall { return llm.ToolCall{ID: id, Name: "t", Arguments: "{}"} }

func result(id string) llm.Message {
	return llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "t", Content: "r" + id}
}

func TestRepairHistoryCases(t *testing.T) {
	user := llm.Message{Role: llm.RoleUser, Content: "q"}
	asst := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, call(id))
		}
		return m
	}
	cases := []struct {
		name    string
		in      []llm.Message
		repairs int
	}{
		{"valid", []llm.Message{user, asst("a", "b"), result("a"), result("b"), {Role: llm.RoleAssistant, Content: "done"}}, 0},
		{"missing result (crash mid-tool)", []llm.Message{user, asst("a", "b"), result("a")}, 1},
		{"orphan result", []llm.Message{user, result("x"), {Role: llm.RoleAssistant, Content: "ok"}}, 1},
		{"duplicate result", []llm.Message{user, asst("a"), result("a"), result("a")}, 1},
		{"results out of order", []llm.Message{user, asst("a", "b"), result("b"), result("a")}, 0},
		{"reused id across turns", []llm.Message{user, asst("a"), result("a"), user, asst("a"), result("a")}, 0},
		{"result after the next user message", []llm.Message{user, asst("a"), user, result("a")}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, n := RepairHistory(tc.in)
			if n != tc.repairs {
				t.Errorf("repairs = %d, want %d", n, tc.repairs)
			}
			checkValid(t, out)
		})
	}
}

// checkValid asserts the invariant the model API needs.
func checkValid(t *testing.T, msgs []llm.Message) {
	t.Helper()
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			t.Fatalf("message %d: tool result without a preceding call", i)
		}
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		for j, c := range m.ToolCalls {
			k := i + 1 + j
			if k >= len(msgs) || msgs[k].Role != llm.RoleTool || msgs[k].ToolCallID != c.ID {
				t.Fatalf("call %s of message %d has no result in position", c.ID, i)
			}
		}
		i += len(m.ToolCalls)
	}
}

// TestRepairHistoryProperty: any sequence of messages, with calls and
// results dropped, duplicated and shuffled, comes out valid.
func TestRepairHistoryProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		var msgs []llm.Message
		for n := rng.IntN(12); n > 0; n-- {
			switch rng.IntN(4) {
			case 0:
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "u"})
			case 1:
				msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: "a"})
			case 2:
				m := llm.Message{Role: llm.RoleAssistant}
				for k := rng.IntN(4) + 1; k > 0; k-- {
					m.ToolCalls = append(m.ToolCalls, call(fmt.Sprint(rng.IntN(5))))
				}
				msgs = append(msgs, m)
			case 3:
				msgs = append(msgs, result(fmt.Sprint(rng.IntN(5))))
			}
		}
		out, _ := RepairHistory(msgs)
		checkValid(t, out)
		again, n := RepairHistory(out)
		if n != 0 || len(again) != len(out) {
			t.Fatalf("repair not idempotent: %d repairs on repaired input", n)
		}
	}
}
