package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestErrorClasses checks each failure that is not retried: its class, HTTP
// status, quota flag, and that exactly one request was made.
func TestErrorClasses(t *testing.T) {
	apiErr := func(status int, e llmtest.APIError) llmtest.Turn { return llmtest.HTTPErrorJSON(status, nil, e) }
	tests := []struct {
		name       string
		turn       llmtest.Turn
		class      llm.ErrorClass
		status     int
		quota      bool
		msgHas     string
		partial    string // content assembled before the failure
		complete   bool   // use Complete instead of Stream
		wantNoResp bool
	}{
		{name: "413", turn: llmtest.HTTPError(413, nil, "Request Entity Too Large"), class: llm.PromptTooLong, status: 413},
		{name: "context length phrase", turn: llmtest.HTTPError(400, nil, "Input exceeds the model's context length"), class: llm.PromptTooLong, status: 400},
		{name: "prompt_too_long code", turn: apiErr(400, llmtest.APIError{Message: "bad input", Type: "invalid_request_error", Code: "prompt_too_long"}), class: llm.PromptTooLong, status: 400},
		{name: "context_window_exceeded type", turn: apiErr(400, llmtest.APIError{Message: "too big", Type: "context_window_exceeded"}), class: llm.PromptTooLong, status: 400},
		{name: "maximum context length wins over context length",
			turn:  llmtest.HTTPError(400, nil, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."),
			class: llm.TokenExhausted, status: 400, msgHas: "maximum context length"},
		{name: "max_tokens", turn: llmtest.HTTPError(400, nil, "max_tokens is too large: 100000"), class: llm.TokenExhausted, status: 400},
		{name: "408", turn: llmtest.HTTPError(408, nil, "request timeout"), class: llm.Timeout, status: 408},
		{name: "504", turn: llmtest.HTTPErrorRaw(504, nil, "<html>Gateway Timeout</html>"), class: llm.Timeout, status: 504, msgHas: "Gateway Timeout"},
		{name: "timed out phrase", turn: llmtest.HTTPError(500, nil, "Upstream request TIMED OUT"), class: llm.Timeout, status: 500},
		{name: "500 is a model error, not retried", turn: llmtest.HTTPError(500, nil, "internal error"), class: llm.ModelError, status: 500},
		{name: "502 html body", turn: llmtest.HTTPErrorRaw(502, nil, "<html>Bad Gateway</html>"), class: llm.ModelError, status: 502, msgHas: "Bad Gateway"},
		{name: "quota 429 not retried",
			turn:  apiErr(429, llmtest.APIError{Message: "You exceeded your current quota, please check your plan and billing details.", Type: "insufficient_quota", Code: "insufficient_quota"}),
			class: llm.RateLimited, status: 429, quota: true},
		{name: "spend limit 429 not retried", turn: llmtest.HTTPError(429, map[string]string{"Retry-After": "1"}, "Monthly spend limit reached"), class: llm.RateLimited, status: 429, quota: true},
		{name: "in-stream prompt too long", turn: llmtest.StreamError(llmtest.APIError{Message: "Prompt_Too_Long: 200000 tokens", Type: "invalid_request_error"}), class: llm.PromptTooLong},
		{name: "in-stream timeout after text", turn: llmtest.Text("par", "tial").Then(llmtest.StreamError(llmtest.APIError{Message: "deadline exceeded upstream"})),
			class: llm.Timeout, partial: "partial"},
		{name: "in-stream overload after text is not retried", turn: llmtest.Text("half an ").Then(llmtest.StreamError(llmtest.APIError{Message: "The model is overloaded", Type: "overloaded_error"})),
			class: llm.Overloaded, partial: "half an "},
		{name: "in-stream generic error", turn: llmtest.Text("x").Then(llmtest.StreamError(llmtest.APIError{Message: "content filtered", Code: "data_inspection_failed"})), class: llm.ModelError, partial: "x"},
		{name: "error field in an ordinary chunk, numeric code", turn: llmtest.Text("a").Then(llmtest.Raw(`{"id":"x","object":"chat.completion.chunk","error":{"message":"request too large","code":413}}`)),
			class: llm.PromptTooLong, partial: "a"},
		{name: "error string in an ordinary chunk", turn: llmtest.Raw(`{"id":"x","error":"upstream timed out"}`), class: llm.Timeout},
		{name: "cut mid tool call", turn: llmtest.ToolCalls(llmtest.Call{ID: "c", Name: "grep", Args: `{"pattern":"x"}`, ArgChunks: 3}).Then(llmtest.Cut()), class: llm.ModelError},
		{name: "cut after text", turn: llmtest.Text("trunc").Then(llmtest.Cut()), class: llm.ModelError, partial: "trunc"},
		{name: "clean EOF without finish or done", turn: llmtest.Text("trunc").Then(llmtest.EOF()), class: llm.ModelError, msgHas: "[DONE]", partial: "trunc"},
		{name: "invalid JSON in delta", turn: llmtest.Text("ok ").Then(llmtest.InvalidJSON()), class: llm.ModelError, msgHas: "invalid JSON", partial: "ok "},
		{name: "complete 413", turn: llmtest.HTTPError(413, nil, "too large"), class: llm.PromptTooLong, status: 413, complete: true},
		{name: "complete invalid JSON body", turn: llmtest.Raw(`{"choices":[`), class: llm.ModelError, complete: true},
		{name: "complete cut", turn: llmtest.Text("x").Then(llmtest.Cut()), class: llm.ModelError, complete: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.turn)
			c, sleeps := newClient(t, s)
			var resp llm.Response
			var err error
			if tt.complete {
				resp, err = c.Complete(t.Context(), userRequest("q"))
			} else {
				resp, err = c.Stream(t.Context(), userRequest("q"), nil)
			}
			e := asError(t, err)
			if e.Class != tt.class || e.Status != tt.status || e.Quota != tt.quota {
				t.Errorf("got class %v status %d quota %v, want %v %d %v (%v)", e.Class, e.Status, e.Quota, tt.class, tt.status, tt.quota, e)
			}
			if llm.ClassOf(err) != tt.class {
				t.Errorf("ClassOf = %v", llm.ClassOf(err))
			}
			if tt.msgHas != "" && !strings.Contains(e.Message, tt.msgHas) {
				t.Errorf("message %q lacks %q", e.Message, tt.msgHas)
			}
			if resp.Message.Content != tt.partial {
				t.Errorf("partial content %q, want %q", resp.Message.Content, tt.partial)
			}
			if n := len(s.Requests()); n != 1 || len(sleeps.Waits()) != 0 {
				t.Errorf("%d requests, waits %v: want one attempt, no retry", n, sleeps.Waits())
			}
		})
	}
}

func TestOwnDeadlineIsTimeoutAndCancelIsCanceled(t *testing.T) {
	t.Run("deadline", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Text("late").WithDelay(time.Hour, 0))
		c, _ := newClient(t, s)
		ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
		defer cancel()
		_, err := c.Stream(ctx, userRequest("q"), nil)
		if llm.ClassOf(err) != llm.Timeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want Timeout wrapping DeadlineExceeded", err)
		}
	})
	t.Run("http client timeout", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Text("late").WithDelay(time.Hour, 0))
		c, _ := newClient(t, s, func(cfg *llm.Config) { cfg.HTTPClient = &http.Client{Timeout: time.Millisecond} })
		_, err := c.Stream(t.Context(), userRequest("q"), nil)
		if llm.ClassOf(err) != llm.Timeout {
			t.Fatalf("err %v, want Timeout", err)
		}
	})
	t.Run("cancel mid-stream", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Text("first", "never").WithDelay(0, time.Hour))
		c, _ := newClient(t, s)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		resp, err := c.Stream(ctx, userRequest("q"), func(llm.Delta) { cancel() })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		var e *llm.Error
		if errors.As(err, &e) {
			t.Errorf("a user stop must not be a classified error: %v", e)
		}
		if resp.Message.Content != "first" {
			t.Errorf("partial %q", resp.Message.Content)
		}
	})
}
