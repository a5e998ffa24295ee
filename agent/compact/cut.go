package compact

import (
	"fmt"
	"slices"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// SafeCut returns the cut point nearest to idx, at or before it, that does
// not separate an assistant message with tool calls from its results (docs/features.md
// C8). A cut at i splits msgs into msgs[:i] and msgs[i:].
//
// Results are bound to their call by position, not by id: the tool
// messages that directly follow an assistant message with tool calls are
// its results (the invariant RepairHistory establishes). So parallel calls
// move the cut to before the whole batch, and ids reused across turns
// cannot pull it to an older assistant message with the same id. A cut
// never lands on a tool message; one that would moves earlier.
//
// idx is clamped to [0, len(msgs)]. When msgs[0] is the system message and
// idx ≥ 1, the result is ≥ 1: the system message is never cut away from
// the front.
func SafeCut(msgs []llm.Message, idx int) int {
	idx = min(max(idx, 0), len(msgs))
	if idx == 0 || idx == len(msgs) {
		return idx
	}
	j := idx
	for j > 0 && msgs[j].Role == llm.RoleTool {
		j--
	}
	if j == 0 && hasSystem(msgs) {
		return 1
	}
	return j
}

// hasSystem reports whether msgs starts with the system message.
func hasSystem(msgs []llm.Message) bool {
	return len(msgs) > 0 && msgs[0].Role == llm.RoleSystem
}

// Check reports the first violation of the conversation invariant: system
// messages only at index 0, and every assistant tool call followed by
// exactly one tool result, the results directly after their assistant
// message (in any order) and no other tool messages anywhere. Call ids must
// be non-empty and unique within one assistant message; they may repeat
// across messages. nil means msgs is valid.
func Check(msgs []llm.Message) error {
	for i := 0; i < len(msgs); {
		m := msgs[i]
		switch {
		case m.Role == llm.RoleSystem && i > 0:
			return fmt.Errorf("compact: system message at index %d", i)
		case m.Role == llm.RoleTool:
			return fmt.Errorf("compact: tool result %q at index %d follows no tool call", m.ToolCallID, i)
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			next, err := checkResults(msgs, i)
			if err != nil {
				return err
			}
			i = next
		default:
			i++
		}
	}
	return nil
}

// checkResults checks the results of the assistant message at i and
// returns the index after them.
func checkResults(msgs []llm.Message, i int) (int, error) {
	want := make(map[string]bool, len(msgs[i].ToolCalls))
	for _, c := range msgs[i].ToolCalls {
		if c.ID == "" || want[c.ID] {
			return 0, fmt.Errorf("compact: assistant message %d: empty or repeated call id %q", i, c.ID)
		}
		want[c.ID] = true
	}
	got := make(map[string]bool, len(want))
	j := i + 1
	for ; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
		id := msgs[j].ToolCallID
		if !want[id] || got[id] {
			return 0, fmt.Errorf("compact: tool result %q at index %d: no such call or a second result", id, j)
		}
		got[id] = true
	}
	for _, c := range msgs[i].ToolCalls {
		if !got[c.ID] {
			return 0, fmt.Errorf("compact: call %q of assistant message %d has no result", c.ID, i)
		}
	}
	return j, nil
}

// toolName is the tool that produced the result at i: its Name, or the
// name of the matching call of the assistant message the result follows.
func toolName(msgs []llm.Message, i int) string {
	if n := msgs[i].Name; n != "" {
		return n
	}
	j := i - 1
	for j >= 0 && msgs[j].Role == llm.RoleTool {
		j--
	}
	if j >= 0 {
		for _, c := range msgs[j].ToolCalls {
			if c.ID == msgs[i].ToolCallID {
				return c.Name
			}
		}
	}
	return "a tool"
}

// Dropped returns the messages of before that a compaction removed or
// rewrote (with their original content), in order: before minus the
// longest common subsequence of before and after. Memory extraction reads
// them (docs/features.md C11).
func Dropped(before, after []llm.Message) []llm.Message {
	n, m := len(before), len(after)
	// lcs[i][j] is the LCS length of before[i:] and after[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if sameMessage(before[i], after[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []llm.Message
	i, j := 0, 0
	for i < n {
		switch {
		case j < m && sameMessage(before[i], after[j]):
			i, j = i+1, j+1
		case j < m && lcs[i][j+1] >= lcs[i+1][j]:
			j++
		default:
			out = append(out, before[i])
			i++
		}
	}
	return out
}

func sameMessage(a, b llm.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.Thought == b.Thought &&
		a.ToolCallID == b.ToolCallID && a.Name == b.Name && slices.Equal(a.ToolCalls, b.ToolCalls)
}
