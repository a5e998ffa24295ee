package llmtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
)

// ModelInfo is what GET /v1/models tells about one model's context window
// besides its id, in the shapes real servers use.
type ModelInfo struct {
	// MaxModelLen is vLLM's "max_model_len".
	MaxModelLen int
	// ContextLength is "context_length" (OpenRouter, LM Studio and others).
	ContextLength int
}

// SetModelInfo sets the window fields GET /v1/models lists for name.
func (s *Server) SetModelInfo(name string, info ModelInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := maps.Clone(s.modelInfo)
	if m == nil {
		m = map[string]ModelInfo{}
	}
	m[name] = info
	s.modelInfo = m
}

// OllamaInfo makes the server answer Ollama's native API beside /v1 (at
// the server root, as Ollama does): GET /api/ps and POST /api/show.
type OllamaInfo struct {
	// Running is the context_length /api/ps reports for the model (the
	// num_ctx it was loaded with); 0 lists no running model.
	Running int
	// NumCtx is a "num_ctx" line in /api/show's parameters (a Modelfile
	// setting); 0 leaves it out.
	NumCtx int
	// Trained is model_info["llama.context_length"] in /api/show: the
	// longest context the model supports.
	Trained int
}

// Ollama switches the native Ollama endpoints on (nil switches them off).
func (s *Server) Ollama(info *OllamaInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ollama = info
}

const (
	ollamaPS   = "/api/ps"
	ollamaShow = "/api/show"
)

// serveOllama answers /api/ps and /api/show; ok is false when the Ollama
// endpoints are off (the caller answers 404).
func (s *Server) serveOllama(w http.ResponseWriter, r *http.Request, rec RecordedRequest) bool {
	s.mu.Lock()
	info := s.ollama
	models := s.models
	s.mu.Unlock()
	if info == nil {
		return false
	}
	details := map[string]any{"format": "gguf", "family": "llama", "parameter_size": "8.0B", "quantization_level": "Q4_K_M"}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == ollamaPS:
		list := []map[string]any{}
		if info.Running > 0 {
			for _, m := range models {
				list = append(list, map[string]any{"name": m, "model": m, "size": 6591830464, "digest": "c6eb396dbd59",
					"details": details, "expires_at": "2026-01-01T00:05:00Z", "size_vram": 5333539264, "context_length": info.Running})
			}
		}
		writeJSONBody(w, map[string]any{"models": list})
	case r.Method == http.MethodPost && r.URL.Path == ollamaShow:
		var req struct {
			Model string `json:"model"`
			Name  string `json:"name"`
		}
		_ = json.Unmarshal(rec.Body, &req)
		params := "stop \"<|eot_id|>\""
		if info.NumCtx > 0 {
			params = fmt.Sprintf("num_ctx %d\n%s", info.NumCtx, params)
		}
		writeJSONBody(w, map[string]any{"modelfile": "FROM " + req.Model, "parameters": params, "template": "{{ .Prompt }}",
			"details": details, "capabilities": []string{"completion", "tools"},
			"model_info": map[string]any{"general.architecture": "llama", "llama.context_length": info.Trained}})
	default:
		return false
	}
	return true
}
