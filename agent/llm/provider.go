package llm

import (
	"net/url"
	"strings"
)

// takesEnableThinking reports whether the provider understands the
// top-level "enable_thinking" flag of DashScope's OpenAI-compatible mode.
// The rule: the base URL's host contains "dashscope" (any region, e.g.
// dashscope.aliyuncs.com, dashscope-intl.aliyuncs.com), or the model name
// starts with "qwen" (Qwen served elsewhere, e.g. by a DashScope proxy).
// Other servers that receive the field for a qwen model ignore unknown
// fields (vLLM, Ollama), so the model rule is safe. Case-insensitive.
func takesEnableThinking(baseURL, model string) bool {
	if u, err := url.Parse(baseURL); err == nil && strings.Contains(strings.ToLower(u.Hostname()), "dashscope") {
		return true
	}
	return strings.HasPrefix(strings.ToLower(model), "qwen")
}

// thinkingFlag returns the enable_thinking value to inject, or nil for none.
// Streaming calls send true only when thinking is on (docs/features.md R2). Non-streaming
// calls send false to providers that take the flag, because DashScope
// rejects non-streaming calls with thinking on (Qwen3 open models default
// to it) and non-streaming answers (summaries) never surface thoughts.
func thinkingFlag(baseURL, model string, thinking, streaming bool) *bool {
	if !takesEnableThinking(baseURL, model) {
		return nil
	}
	switch {
	case !streaming:
		return new(false)
	case thinking:
		return new(true)
	}
	return nil
}

// usesMaxCompletionTokens reports whether the model rejects max_tokens in
// favour of max_completion_tokens (OpenAI reasoning models; go-openai
// refuses the request otherwise).
func usesMaxCompletionTokens(model string) bool {
	m := strings.ToLower(model)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// ThinkingToggle reports whether a request's Thinking flag changes what is
// sent for the active model, that is whether the user can switch reasoning
// on and off (docs/features.md R2). It is true exactly when the provider takes the
// enable_thinking flag (takesEnableThinking: a DashScope endpoint or a qwen
// model). Other reasoning models (DeepSeek-R1, OpenAI o-series) reason, and
// their reasoning is shown, whatever the flag says, so a toggle would do
// nothing there. It follows the active model, fallback switches included.
// Safe for concurrent use.
func (c *Client) ThinkingToggle() bool {
	return takesEnableThinking(c.cfg.BaseURL, c.ActiveModel())
}
