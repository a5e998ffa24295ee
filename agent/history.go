package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/store"
)

// interruptedOutput is the synthetic result of a call whose result was
// never recorded (crash, kill or cancel mid-tool), docs/features.md R8.
const interruptedOutput = "[interrupted: this tool call did not finish, so it has no result. Run it again if you still need it.]"

// RepairHistory returns msgs made valid for the model: every assistant tool
// call is followed by exactly one tool result, in call order, before the
// next non-tool message. Missing results get a synthetic "interrupted"
// result; results without a matching call, and second results for one call,
// are dropped. Call ids may repeat across assistant messages: results are
// matched to the nearest preceding assistant message. The input is not
// modified. The second return value counts the repairs made.
func RepairHistory(msgs []llm.Message) ([]llm.Message, int) {
	out := make([]llm.Message, 0, len(msgs))
	repairs := 0
	var open *openCalls
	flush := func() {
		if open == nil {
			return
		}
		for _, c := range open.calls {
			r, ok := open.results[c.ID]
			if !ok {
				r = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: interruptedOutput}
				repairs++
			}
			out = append(out, r)
		}
		open = nil
	}
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleTool:
			if open == nil || !open.expects(m.ToolCallID) || open.has(m.ToolCallID) {
				repairs++ // orphan or duplicate result
				continue
			}
			open.results[m.ToolCallID] = m
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			flush()
			var renamed int
			m.ToolCalls, renamed = uniqueCallIDs(m.ToolCalls)
			repairs += renamed
			out = append(out, m)
			open = newOpenCalls(m.ToolCalls)
		default:
			flush()
			out = append(out, m)
		}
	}
	flush()
	return out, repairs
}

// uniqueCallIDs gives repeated (or empty) ids within one assistant message
// a fresh UUID-based id, so each call can be paired with one result. The
// slice is copied only when something changes.
func uniqueCallIDs(calls []llm.ToolCall) ([]llm.ToolCall, int) {
	seen := make(map[string]bool, len(calls))
	var out []llm.ToolCall
	n := 0
	for i, c := range calls {
		if c.ID == "" || seen[c.ID] {
			if out == nil {
				out = append([]llm.ToolCall(nil), calls...)
			}
			c.ID = "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")
			out[i] = c
			n++
		}
		seen[c.ID] = true
	}
	if out == nil {
		return calls, 0
	}
	return out, n
}

type openCalls struct {
	calls   []llm.ToolCall
	ids     map[string]bool
	results map[string]llm.Message
}

func newOpenCalls(calls []llm.ToolCall) *openCalls {
	o := &openCalls{calls: calls, ids: map[string]bool{}, results: map[string]llm.Message{}}
	for _, c := range calls {
		o.ids[c.ID] = true
	}
	return o
}

func (o *openCalls) expects(id string) bool { return o.ids[id] }

func (o *openCalls) has(id string) bool { _, ok := o.results[id]; return ok }

// MessageFromRow converts a persisted message to the model's format.
func MessageFromRow(r store.AgentMessage) (llm.Message, error) {
	m := llm.Message{Role: llm.Role(r.Role), Content: r.Content, Thought: r.Thought}
	if r.ToolCalls != nil && *r.ToolCalls != "" {
		if err := json.Unmarshal([]byte(*r.ToolCalls), &m.ToolCalls); err != nil {
			return llm.Message{}, fmt.Errorf("agent: message %d: tool_calls: %w", r.ID, err)
		}
	}
	if r.ToolCallID != nil {
		m.ToolCallID = *r.ToolCallID
	}
	if m.Role == llm.RoleTool {
		var meta struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal([]byte(r.Metadata), &meta)
		m.Name = meta.Name
	}
	return m, nil
}

// rowFromMessage converts a message to its persisted form.
func rowFromMessage(session string, turn, step int, agentName string, m llm.Message) (*store.AgentMessage, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("agent: encode message: %w", err)
	}
	row := &store.AgentMessage{SessionID: session, Turn: turn, Step: step, AgentName: agentName, Role: string(m.Role),
		Content: m.Content, Thought: m.Thought, RawJSON: string(raw), TokenCount: estimateTokens(m)}
	if len(m.ToolCalls) > 0 {
		tc, err := json.Marshal(m.ToolCalls)
		if err != nil {
			return nil, fmt.Errorf("agent: encode tool calls: %w", err)
		}
		s := string(tc)
		row.ToolCalls = &s
	}
	if m.ToolCallID != "" {
		id := m.ToolCallID
		row.ToolCallID = &id
	}
	if m.Role == llm.RoleTool {
		meta, _ := json.Marshal(map[string]string{"name": m.Name})
		row.Metadata = string(meta)
	}
	return row, nil
}

// estimateTokens is the rough size of a message: about four characters per
// token (the precise count comes from the API's usage figures).
func estimateTokens(m llm.Message) int {
	n := len(m.Content) + len(m.Thought)
	for _, c := range m.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n/4 + 4
}
