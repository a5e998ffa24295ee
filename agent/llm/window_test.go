package llm_test

import (
	"context"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestDiscoverWindow(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(s *llmtest.Server)
		want   int
		source string
		prov   bool
	}{
		{"vLLM max_model_len", func(s *llmtest.Server) { s.SetModelInfo(llmtest.DefaultModel, llmtest.ModelInfo{MaxModelLen: 16384}) },
			16384, "/v1/models max_model_len", false},
		{"OpenRouter context_length", func(s *llmtest.Server) {
			s.SetModelInfo(llmtest.DefaultModel, llmtest.ModelInfo{ContextLength: 131072})
		},
			131072, "/v1/models context_length", false},
		{"Ollama running model", func(s *llmtest.Server) { s.Ollama(&llmtest.OllamaInfo{Running: 8192, Trained: 131072}) },
			8192, "Ollama /api/ps (running num_ctx)", false},
		{"Ollama num_ctx parameter", func(s *llmtest.Server) { s.Ollama(&llmtest.OllamaInfo{NumCtx: 32768, Trained: 131072}) },
			32768, "Ollama /api/show (num_ctx parameter)", false},
		{"Ollama not loaded: its default", func(s *llmtest.Server) { s.Ollama(&llmtest.OllamaInfo{Trained: 131072}) },
			4096, "Ollama default num_ctx (model not loaded yet)", true},
		{"Ollama default capped by the trained length", func(s *llmtest.Server) { s.Ollama(&llmtest.OllamaInfo{Trained: 2048}) },
			2048, "Ollama default num_ctx (model not loaded yet)", true},
		{"nothing reported", func(*llmtest.Server) {}, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			tt.setup(s)
			c := llm.New(llm.Config{BaseURL: s.URL(), Model: llmtest.DefaultModel})
			w, err := c.DiscoverWindow(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			if w.Tokens != tt.want || w.Source != tt.source || w.Provisional != tt.prov {
				t.Fatalf("got %+v, want %d from %q (provisional %v)", w, tt.want, tt.source, tt.prov)
			}
		})
	}
}
