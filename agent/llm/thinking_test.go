package llm_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// dashScopeClient points a client at http://dashscope.test/v1 and dials
// the fake server for that host, so the host rule can be tested.
func dashScopeClient(t *testing.T, s *llmtest.Server, model string) *llm.Client {
	t.Helper()
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, u.Host)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c, _ := newClient(t, s, func(cfg *llm.Config) {
		cfg.BaseURL, cfg.Model, cfg.HTTPClient = "http://dashscope.test/v1", model, &http.Client{Transport: tr}
	})
	return c
}

func TestEnableThinking(t *testing.T) {
	tests := []struct {
		name      string
		dashscope bool
		model     string
		thinking  bool
		complete  bool
		want      string // "" means the field is absent
	}{
		{name: "dashscope host, thinking on", dashscope: true, model: "deepseek-r1", thinking: true, want: "true"},
		{name: "qwen model elsewhere, thinking on", model: "Qwen3-32B", thinking: true, want: "true"},
		{name: "qwen model, thinking off", model: "qwen-plus", thinking: false},
		{name: "dashscope host, thinking off", dashscope: true, model: "qwen-max"},
		{name: "other provider, thinking on", model: "gpt-4o", thinking: true},
		{name: "ollama deepseek, thinking on", model: "deepseek-r1:8b", thinking: true},
		{name: "non-streaming to qwen forces false", model: "qwen3-235b-a22b", thinking: true, complete: true, want: "false"},
		{name: "non-streaming elsewhere absent", model: "gpt-4o", complete: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(llmtest.Text("ok"))
			var c *llm.Client
			if tt.dashscope {
				c = dashScopeClient(t, s, tt.model)
			} else {
				c, _ = newClient(t, s, func(cfg *llm.Config) { cfg.Model = tt.model })
			}
			req := userRequest("q")
			req.Thinking = tt.thinking
			var err error
			if tt.complete {
				_, err = c.Complete(t.Context(), req)
			} else {
				_, err = c.Stream(t.Context(), req, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			r := s.Requests()[0]
			got := string(r.Extra["enable_thinking"])
			if got != tt.want {
				t.Errorf("enable_thinking = %q, want %q", got, tt.want)
			}
			if r.Model != tt.model || len(r.Messages) != 1 || (!tt.complete && !r.IncludeUsage) {
				t.Errorf("rewritten body lost fields: %+v", r)
			}
		})
	}
}
