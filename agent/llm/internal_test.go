package llm

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		status int
		text   string
		want   ErrorClass
	}{
		{429, "", RateLimited},
		{429, "maximum context length", RateLimited}, // status 429 first
		{0, "Rate limit reached for gpt-4", RateLimited},
		{0, "rate_limit_exceeded", RateLimited},
		{400, "Too Many Requests", RateLimited},
		{529, "", Overloaded},
		{503, "The engine is currently OVERLOADED", Overloaded},
		{0, "overloaded_error", Overloaded},
		{413, "", PromptTooLong},
		{400, "prompt_too_long", PromptTooLong},
		{400, "prompt too long", PromptTooLong},
		{400, "exceeds the Context Length of the model", PromptTooLong},
		{400, "context_window_exceeded", PromptTooLong},
		{400, "This model's maximum context length is 4096 tokens", TokenExhausted},
		{413, "maximum context length", TokenExhausted}, // phrase before 413
		{400, "max_tokens must be at most 8192", TokenExhausted},
		{408, "", Timeout},
		{504, "", Timeout},
		{500, "request timed out", Timeout},
		{0, "context deadline exceeded (Client.Timeout exceeded)", Timeout},
		{500, "internal server error", ModelError},
		{400, "invalid tool schema", ModelError},
		{0, "", ModelError},
	}
	for _, tt := range tests {
		if got := classify(tt.status, tt.text); got != tt.want {
			t.Errorf("classify(%d, %q) = %v, want %v", tt.status, tt.text, got, tt.want)
		}
	}
}

func TestIsQuota(t *testing.T) {
	tests := []struct {
		message, typeAndCode string
		want                 bool
	}{
		{"You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", true},
		{"bad", "insufficient_quota insufficient_quota", true},
		{"Monthly Spend Limit reached", "", true},
		{"Your credit balance is too low", "invalid_request_error", true},
		{"Access denied for account in arrearage", "Arrearage", true},
		{"Requests rate limit exceeded, please try again later.", "Throttling.RateQuota", false},
		{"Rate limit reached for requests", "requests rate_limit_exceeded", false},
	}
	for _, tt := range tests {
		if got := isQuota(tt.message, tt.typeAndCode); got != tt.want {
			t.Errorf("isQuota(%q, %q) = %v, want %v", tt.message, tt.typeAndCode, got, tt.want)
		}
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": " 1.5 "}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "NaN"}, 0},
		{map[string]string{"Retry-After": "1e300"}, maxRetryAfter + time.Second},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": now.Add(10 * time.Second).Format(http.TimeFormat)}, 10 * time.Second},
		{map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "x", "Retry-After": "9"}, 9 * time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempt    int
		rand       float64
		retryAfter time.Duration
		want       time.Duration
	}{
		{0, 0, 0, 500 * time.Millisecond},
		{1, 0, 0, time.Second},
		{6, 0, 0, 32 * time.Second},
		{9, 0, 0, 32 * time.Second},
		{60, 0, 0, 32 * time.Second}, // no shift overflow
		{0, 0.99, 0, 500*time.Millisecond + time.Duration(float64(500*time.Millisecond)*0.25*0.99)},
		{9, 0.99, 0, 32*time.Second + time.Duration(float64(32*time.Second)*0.25*0.99)},
		{0, 0.5, 2 * time.Second, 2 * time.Second},
		{7, 0, time.Second, 32 * time.Second},
	}
	for _, tt := range tests {
		c := New(Config{BaseURL: "http://x/v1", Rand: func() float64 { return tt.rand }})
		if got := c.backoff(tt.attempt, tt.retryAfter); got != tt.want {
			t.Errorf("backoff(%d, rand %v, retry-after %v) = %v, want %v", tt.attempt, tt.rand, tt.retryAfter, got, tt.want)
		}
	}
}

func TestTakesEnableThinking(t *testing.T) {
	tests := []struct {
		baseURL, model string
		want           bool
	}{
		{"https://dashscope.aliyuncs.com/compatible-mode/v1", "deepseek-v3", true},
		{"https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "", true},
		{"https://DashScope.example.com/v1", "x", true},
		{"http://localhost:11434/v1", "qwen3:8b", true},
		{"http://vllm:8000/v1", "Qwen/Qwen3-32B", true}, // vLLM ignores the unknown field
		{"http://vllm:8000/v1", "QwQ-32B", false},
		{"https://api.openai.com/v1", "gpt-4o", false},
		{"https://api.deepseek.com/v1", "deepseek-reasoner", false},
		{"http://proxy/dashscope/v1", "gpt-4o", false}, // path, not host
		{"::bad url", "qwen-plus", true},
	}
	for _, tt := range tests {
		if got := takesEnableThinking(tt.baseURL, tt.model); got != tt.want {
			t.Errorf("takesEnableThinking(%q, %q) = %v, want %v", tt.baseURL, tt.model, got, tt.want)
		}
	}
}

func TestThinkingFlag(t *testing.T) {
	show := func(b *bool) string {
		if b == nil {
			return "absent"
		}
		if *b {
			return "true"
		}
		return "false"
	}
	tests := []struct {
		model               string
		thinking, streaming bool
		want                string
	}{
		{"qwen-plus", true, true, "true"},
		{"qwen-plus", false, true, "absent"},
		{"qwen-plus", true, false, "false"},
		{"qwen-plus", false, false, "false"},
		{"gpt-4o", true, true, "absent"},
		{"gpt-4o", true, false, "absent"},
	}
	for _, tt := range tests {
		if got := show(thinkingFlag("http://x/v1", tt.model, tt.thinking, tt.streaming)); got != tt.want {
			t.Errorf("thinkingFlag(%q, thinking=%v, streaming=%v) = %s, want %s", tt.model, tt.thinking, tt.streaming, got, tt.want)
		}
	}
}

func TestModelStateRotation(t *testing.T) {
	tests := []struct {
		name     string
		primary  string
		fallback string
		chain    []string
		want     []string // active model after each block of 3 overloads
	}{
		{"fallback then chain, wrapping", "p", "f", []string{"c1", "c2"}, []string{"f", "c1", "c2", "p", "f"}},
		{"chain only", "p", "", []string{"c1"}, []string{"c1", "p"}},
		{"duplicates dropped", "p", "p", []string{"f", "f", "p"}, []string{"f", "p"}},
		{"nothing to fall back to", "p", "", nil, []string{"p", "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newModelState(tt.primary, tt.fallback, tt.chain)
			for i, want := range tt.want {
				for range overloadsBeforeSwitch {
					s.report(s.active(), true)
				}
				if got := s.active(); got != want {
					t.Fatalf("after block %d: active %q, want %q", i, got, want)
				}
			}
		})
	}
}

func TestModelStateIgnoresStaleReports(t *testing.T) {
	s := newModelState("p", "f", nil)
	s.report("p", true)
	s.report("p", true)
	s.report("other", true) // a pinned model's overload does not count
	if s.active() != "p" {
		t.Fatal("switched on a report for another model")
	}
	s.report("p", true)
	if s.active() != "f" {
		t.Fatal("did not switch after 3 overloads of the active model")
	}
	s.report("p", true) // late reports from callers still on "p"
	s.report("p", true)
	s.report("p", true)
	if _, a, sw := s.state(); a != "f" || !sw {
		t.Errorf("stale reports moved the rotation to %q", a)
	}
}

func TestDoneWatcher(t *testing.T) {
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"done", "data: {}\n\ndata: [DONE]\n\n", true},
		{"no space", "data:[DONE]\n", true},
		{"done at EOF without newline", "data: {}\n\ndata: [DONE]", true},
		{"crlf", "data: {}\r\n\r\ndata: [DONE]\r\n\r\n", true},
		{"absent", "data: {}\n\n", false},
		{"inside content", `data: {"content":"data: [DONE]"}` + "\n\n", false},
		{"long line then done", "data: " + strings.Repeat("x", 100) + "\ndata: [DONE]\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &exchange{}
			w := &doneWatcher{ReadCloser: io.NopCloser(iotest.OneByteReader(strings.NewReader(tt.body))), x: x}
			if _, err := io.ReadAll(w); err != nil {
				t.Fatal(err)
			}
			if got := x.sawDone(); got != tt.want {
				t.Errorf("sawDone = %v, want %v", got, tt.want)
			}
		})
	}
}
