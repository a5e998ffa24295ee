package llm_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestStreamTextThinkingUsage(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Thinking("Let me ", "think").Then(llmtest.Text("M31 ", "is a galaxy")).WithUsage(12, 5))
	c, _ := newClient(t, s)
	onDelta, deltas := collect()

	req := llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "You are an astronomer."},
			{Role: llm.RoleUser, Content: "What is M31?"},
			{Role: llm.RoleAssistant, Thought: "secret reasoning", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "resolve", Arguments: `{"name":"M31"}`}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Name: "resolve", Content: "RA 00h42m"},
		},
		Tools:     []llm.ToolDef{{Name: "resolve", Description: "Resolve an object", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "noargs"}},
		MaxTokens: 100,
	}
	resp, err := c.Stream(t.Context(), req, onDelta)
	if err != nil {
		t.Fatal(err)
	}

	want := []llm.Delta{
		{Kind: llm.DeltaThinking, Text: "Let me "}, {Kind: llm.DeltaThinking, Text: "think"},
		{Kind: llm.DeltaText, Text: "M31 "}, {Kind: llm.DeltaText, Text: "is a galaxy"},
	}
	if !slices.Equal(*deltas, want) {
		t.Errorf("deltas %+v, want %+v", *deltas, want)
	}
	m := resp.Message
	if m.Role != llm.RoleAssistant || m.Content != "M31 is a galaxy" || m.Thought != "Let me think" || len(m.ToolCalls) != 0 {
		t.Errorf("message %+v", m)
	}
	if resp.Usage != (llm.Usage{PromptTokens: 12, CompletionTokens: 5, TotalTokens: 17}) || resp.Model != llmtest.DefaultModel || resp.FinishReason != "stop" {
		t.Errorf("response %+v", resp)
	}

	r := s.Requests()[0]
	if !r.Stream || !r.IncludeUsage || r.Model != llmtest.DefaultModel || r.Header.Get("Authorization") != "Bearer test-key" {
		t.Errorf("request %+v", r)
	}
	if !slices.Equal(r.Tools, []string{"resolve", "noargs"}) || string(r.Extra["max_tokens"]) != "100" {
		t.Errorf("tools %v extra %v", r.Tools, r.Extra)
	}
	wantMsgs := []llmtest.Message{
		{Role: "system", Content: "You are an astronomer."},
		{Role: "user", Content: "What is M31?"},
		{Role: "assistant", ToolCalls: []llmtest.ToolCall{{ID: "c1", Type: "function", Name: "resolve", Arguments: `{"name":"M31"}`}}},
		{Role: "tool", ToolCallID: "c1", Name: "resolve", Content: "RA 00h42m"},
	}
	if len(r.Messages) != len(wantMsgs) {
		t.Fatalf("messages %+v", r.Messages)
	}
	for i, w := range wantMsgs {
		g := r.Messages[i]
		if g.Role != w.Role || g.Content != w.Content || g.ToolCallID != w.ToolCallID || g.Name != w.Name ||
			g.ReasoningContent != "" || !slices.Equal(g.ToolCalls, w.ToolCalls) {
			t.Errorf("message %d = %+v, want %+v", i, g, w)
		}
	}
	if r.Has("enable_thinking") {
		t.Error("enable_thinking sent to a non-Qwen provider")
	}
}

func TestStreamToolCalls(t *testing.T) {
	tests := []struct {
		name string
		turn llmtest.Turn
		want []llm.ToolCall // an empty ID means "a generated UUID"
	}{
		{
			name: "split across chunks",
			turn: llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "search_ads", Args: `{"query":"M31 distance","rows":5}`, ArgChunks: 4}),
			want: []llm.ToolCall{{ID: "call_1", Name: "search_ads", Arguments: `{"query":"M31 distance","rows":5}`}},
		},
		{
			name: "two parallel calls interleaved",
			turn: llmtest.Text("Looking up both.").Then(llmtest.ParallelToolCalls(
				llmtest.Call{ID: "a", Name: "resolve", Args: `{"name":"M31"}`},
				llmtest.Call{ID: "b", Name: "resolve", Args: `{"name":"M33"}`},
			)),
			want: []llm.ToolCall{{ID: "a", Name: "resolve", Arguments: `{"name":"M31"}`}, {ID: "b", Name: "resolve", Arguments: `{"name":"M33"}`}},
		},
		{
			name: "missing id gets a UUID",
			turn: llmtest.ParallelToolCalls(llmtest.Call{Name: "read_file", Args: `{"path":"a.txt"}`}, llmtest.Call{ID: "x", Name: "grep", Args: `{}`}),
			want: []llm.ToolCall{{Name: "read_file", Arguments: `{"path":"a.txt"}`}, {ID: "x", Name: "grep", Arguments: `{}`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.turn)
			c, _ := newClient(t, s)
			resp, err := c.Stream(t.Context(), userRequest("go"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != "tool_calls" {
				t.Errorf("finish %q", resp.FinishReason)
			}
			got := resp.Message.ToolCalls
			if len(got) != len(tt.want) {
				t.Fatalf("calls %+v, want %+v", got, tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if w.ID == "" {
					if _, err := uuid.Parse(g.ID); err != nil {
						t.Errorf("call %d id %q is not a UUID: %v", i, g.ID, err)
					}
					w.ID = g.ID
				}
				if g != w {
					t.Errorf("call %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestStreamAcceptsFinishWithoutDone(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Text("complete answer").WithoutDone())
	c, _ := newClient(t, s)
	resp, err := c.Stream(t.Context(), userRequest("q"), nil)
	if err != nil || resp.Message.Content != "complete answer" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestComplete(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Thinking("hmm").Then(llmtest.Text("Summary.")).
		Then(llmtest.ToolCalls(llmtest.Call{Name: "note", Args: `{"t":1}`})).WithUsage(40, 9))
	c, _ := newClient(t, s)
	resp, err := c.Complete(t.Context(), userRequest("summarise"))
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Content != "Summary." || m.Thought != "hmm" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Name != "note" {
		t.Errorf("message %+v", m)
	}
	if _, err := uuid.Parse(m.ToolCalls[0].ID); err != nil {
		t.Errorf("id %q: %v", m.ToolCalls[0].ID, err)
	}
	if resp.Usage.TotalTokens != 49 || resp.Model != llmtest.DefaultModel {
		t.Errorf("response %+v", resp)
	}
	if r := s.Requests()[0]; r.Stream || r.IncludeUsage {
		t.Errorf("non-streaming request %+v", r)
	}
}
