package llmtest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
)

// Vector returns the embedding the server gives input for dimension dim: a
// unit vector derived from SHA-256 hashes of the input, so equal inputs get
// equal vectors and tests can compute the expected value.
func Vector(input string, dim int) []float32 {
	out := make([]float32, dim)
	var norm float64
	for i := range out {
		h := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s", i, input))
		u := binary.BigEndian.Uint32(h[:4])
		v := float64(u)/math.MaxUint32*2 - 1 // in [-1, 1]
		out[i] = float32(v)
		norm += v * v
	}
	if norm == 0 {
		return out
	}
	scale := 1 / math.Sqrt(norm)
	for i := range out {
		out[i] = float32(float64(out[i]) * scale)
	}
	return out
}

// serveEmbeddings answers with Vector for each input (a string or a list of strings).
func (s *Server) serveEmbeddings(w http.ResponseWriter, rec RecordedRequest) {
	inputs, err := embeddingInputs(rec.Extra["input"])
	if err != nil {
		s.fail(w, http.StatusBadRequest, "llmtest: embeddings request #%d: %v", rec.Seq, err)
		return
	}
	s.mu.Lock()
	dim := s.dim
	s.mu.Unlock()
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(inputs))
	tokens := 0
	for i, in := range inputs {
		data[i] = item{Object: "embedding", Index: i, Embedding: Vector(in, dim)}
		tokens += len(in)/4 + 1
	}
	writeJSONBody(w, map[string]any{
		"object": "list", "model": rec.Model, "data": data,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens},
	})
}

func embeddingInputs(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("input must be a string or a list of strings: %w", err)
	}
	return many, nil
}

// serveModels lists the configured model names.
func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	names := s.models
	info := s.modelInfo
	s.mu.Unlock()
	type model struct {
		ID            string `json:"id"`
		Object        string `json:"object"`
		Created       int64  `json:"created"`
		OwnedBy       string `json:"owned_by"`
		MaxModelLen   int    `json:"max_model_len,omitempty"`
		ContextLength int    `json:"context_length,omitempty"`
	}
	data := make([]model, len(names))
	for i, n := range names {
		data[i] = model{ID: n, Object: "model", Created: 1700000000, OwnedBy: "llmtest",
			MaxModelLen: info[n].MaxModelLen, ContextLength: info[n].ContextLength}
	}
	writeJSONBody(w, map[string]any{"object": "list", "data": data})
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		panic(fmt.Sprintf("llmtest: encode response: %v", err))
	}
}
