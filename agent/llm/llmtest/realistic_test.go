package llmtest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

func TestRealisticUsageAndWindow(t *testing.T) {
	long := strings.Repeat("word ", 2000) // ~2,500 tokens
	tests := []struct {
		name      string
		window    Window
		msgs      []llm.Message
		wantClass llm.ErrorClass // -1: success
		refused   int
		truncated int
	}{
		{"fits", Window{Tokens: 4096}, []llm.Message{{Role: llm.RoleUser, Content: "hello"}}, -1, 0, 0},
		{"refused like OpenAI", Window{Tokens: 1024, Overflow: Refuse},
			[]llm.Message{{Role: llm.RoleSystem, Content: long}, {Role: llm.RoleUser, Content: "hi"}}, llm.TokenExhausted, 1, 0},
		{"truncated like Ollama", Window{Tokens: 1024, Overflow: Truncate},
			[]llm.Message{{Role: llm.RoleSystem, Content: long}, {Role: llm.RoleUser, Content: "hi"}}, -1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t)
			s.Realistic(tt.window)
			s.Enqueue(Text("an answer of some length"))
			client := llm.New(llm.Config{BaseURL: s.URL(), Model: DefaultModel})
			resp, err := client.Stream(context.Background(), llm.Request{Messages: tt.msgs}, func(llm.Delta) {})
			refused, truncated := s.Overflows()
			if refused != tt.refused || truncated != tt.truncated {
				t.Fatalf("overflows %d/%d, want %d/%d", refused, truncated, tt.refused, tt.truncated)
			}
			if tt.wantClass >= 0 {
				var le *llm.Error
				if !errors.As(err, &le) || le.Status != 400 {
					t.Fatalf("err %v, want HTTP 400", err)
				}
				if !strings.Contains(le.Message, "maximum context length") {
					t.Fatalf("message %q", le.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			req := s.Requests()[0]
			want := PromptTokens(req)
			if tt.window.Overflow == Truncate && tt.truncated > 0 {
				if resp.Usage.PromptTokens > tt.window.Tokens || resp.Usage.PromptTokens >= want {
					t.Fatalf("prompt_tokens %d after truncation of a %d-token prompt (window %d)", resp.Usage.PromptTokens, want, tt.window.Tokens)
				}
				return
			}
			if resp.Usage.PromptTokens != want || resp.Usage.CompletionTokens != len("an answer of some length")/4 {
				t.Fatalf("usage %+v, want prompt %d", resp.Usage, want)
			}
		})
	}
}

func TestRealisticOutputCutAtMaxTokens(t *testing.T) {
	s := New(t)
	s.Realistic(Window{})
	s.Enqueue(ToolCalls(Call{ID: "c", Name: "file_write", Args: `{"path":"notes.md","content":"` + strings.Repeat("long text ", 100) + `"}`}))
	client := llm.New(llm.Config{BaseURL: s.URL(), Model: DefaultModel})
	resp, err := client.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "write"}}, MaxTokens: 20},
		func(llm.Delta) {})
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != "length" || len(resp.Message.ToolCalls) != 1 || len(resp.Message.ToolCalls[0].Arguments) > 80 {
		t.Fatalf("finish %q, calls %+v", resp.FinishReason, resp.Message.ToolCalls)
	}
	if cut := CutCall(Call{Name: "x", Args: `{"a":"bcdef"}`}); cut.finish != "length" || cut.events[0].text == `{"a":"bcdef"}` {
		t.Fatalf("CutCall %+v", cut)
	}
}
