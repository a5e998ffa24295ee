package views

import (
	"strings"
	"testing"
)

func TestContextWindowView(t *testing.T) {
	tests := []struct {
		name    string
		w       ContextWindow
		tokens  string
		warning bool
	}{
		{"unknown", ContextWindow{SoftLimit: 32000, HardLimit: 40000, Minimum: 8192}, "unknown", false},
		{"large", ContextWindow{Tokens: 32768, Source: "Ollama /api/ps (running num_ctx)", SoftLimit: 18022, HardLimit: 24576, Minimum: 8192},
			"32,768 tokens", false},
		{"too small", ContextWindow{Tokens: 4096, Source: "Ollama /api/ps (running num_ctx)", SoftLimit: 2252, HardLimit: 3072,
			TooSmall: true, Minimum: 8192}, "4,096 tokens", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := render(t, ContextWindowView(tt.w))
			if got := doc.Find(`[data-testid="context-window-tokens"]`).Text(); got != tt.tokens {
				t.Fatalf("tokens %q, want %q", got, tt.tokens)
			}
			warn := doc.Find(`[data-testid="context-window-warning"]`)
			if (warn.Length() == 1) != tt.warning {
				t.Fatalf("warning shown: %v", warn.Length() == 1)
			}
			if tt.warning {
				text := warn.Text()
				if !strings.Contains(text, "OLLAMA_CONTEXT_LENGTH=32768 ollama serve") || !strings.Contains(text, "num_ctx") ||
					warn.AttrOr("role", "") != "alert" {
					t.Fatalf("warning %q", text)
				}
			}
		})
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Fatalf("thousands %q", got)
	}
}
