package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// post sends body to path on s and returns the response (body read fully)
// and the read error, if any.
func post(t *testing.T, ctx context.Context, s *Server, path, body string, header map[string]string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// dataLines returns the payloads of the `data:` lines of an SSE body.
func dataLines(body []byte) []string {
	var out []string
	for _, frame := range strings.Split(string(body), "\n\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(frame), "data: "); ok {
			out = append(out, p)
		}
	}
	return out
}

// decodeChunks decodes every data line except [DONE].
func decodeChunks(t *testing.T, lines []string) []chunk {
	t.Helper()
	var out []chunk
	for _, l := range lines {
		if l == "[DONE]" {
			continue
		}
		var c chunk
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("chunk %q: %v", l, err)
		}
		out = append(out, c)
	}
	return out
}

func streamBody(model string) string {
	return fmt.Sprintf(`{"model":%q,"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, model)
}

// recordingTB captures Errorf calls instead of failing the test, so tests
// can check that the server reports scripting mistakes.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

func compactJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
