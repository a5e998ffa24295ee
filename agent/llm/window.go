package llm

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Window is a model's context window as discovered from its server.
type Window struct {
	// Tokens is the window (prompt plus completion); 0 when unknown.
	Tokens int
	// Source says where the figure came from, for the admin page (e.g.
	// "Ollama /api/ps (running num_ctx)", "/v1/models max_model_len").
	Source string
	// Provisional marks a figure that may change without a model switch
	// (an Ollama model not loaded yet runs with the server's default
	// window once loaded): ask again later.
	Provisional bool
}

// ollamaDefaultWindow is the num_ctx Ollama gives a model when neither the
// Modelfile nor OLLAMA_CONTEXT_LENGTH says otherwise.
const ollamaDefaultWindow = 4096

// discoveryTimeout bounds each probe; a server that does not answer is not
// worth holding a turn for.
const discoveryTimeout = 5 * time.Second

// maxDiscoveryBody bounds a probe's response (OpenRouter lists hundreds of
// models).
const maxDiscoveryBody = 8 << 20

// DiscoverWindow asks the endpoint for model's context window: first the
// OpenAI-compatible model list (vLLM's "max_model_len", "context_length"
// from OpenRouter, LM Studio and others), then Ollama's native API reached
// from the /v1 base URL (the running num_ctx from /api/ps, else a num_ctx
// parameter from /api/show, else Ollama's default window, capped by the
// model's trained length). An empty model means the active one. It returns
// a zero Window (and no error) when the server reports nothing usable.
func (c *Client) DiscoverWindow(ctx context.Context, model string) (Window, error) {
	if model == "" {
		model = c.ActiveModel()
	}
	if model == "" {
		return Window{}, nil
	}
	if w, err := c.windowFromModels(ctx, model); err == nil && w.Tokens > 0 {
		return w, nil
	}
	return c.windowFromOllama(ctx, model)
}

// windowFromModels reads GET {base}/models.
func (c *Client) windowFromModels(ctx context.Context, model string) (Window, error) {
	var list struct {
		Data []struct {
			ID               string `json:"id"`
			MaxModelLen      int    `json:"max_model_len"`
			ContextLength    int    `json:"context_length"`
			MaxContextLength int    `json:"max_context_length"`
			TopProvider      struct {
				ContextLength int `json:"context_length"`
			} `json:"top_provider"`
		} `json:"data"`
	}
	if err := c.getJSON(ctx, http.MethodGet, strings.TrimRight(c.cfg.BaseURL, "/")+"/models", nil, &list); err != nil {
		return Window{}, err
	}
	var withWindow []int // entries that report a window
	for i, m := range list.Data {
		if m.MaxModelLen > 0 || m.ContextLength > 0 || m.MaxContextLength > 0 || m.TopProvider.ContextLength > 0 {
			withWindow = append(withWindow, i)
		}
	}
	for i, m := range list.Data {
		// The model itself; or, when the server serves one model under
		// another name (vLLM --served-model-name), the only one listed.
		if m.ID != model && !(len(list.Data) == 1 && len(withWindow) == 1 && i == withWindow[0]) {
			continue
		}
		switch {
		case m.MaxModelLen > 0:
			return Window{Tokens: m.MaxModelLen, Source: "/v1/models max_model_len"}, nil
		case m.ContextLength > 0:
			return Window{Tokens: m.ContextLength, Source: "/v1/models context_length"}, nil
		case m.MaxContextLength > 0:
			return Window{Tokens: m.MaxContextLength, Source: "/v1/models max_context_length"}, nil
		case m.TopProvider.ContextLength > 0:
			return Window{Tokens: m.TopProvider.ContextLength, Source: "/v1/models top_provider.context_length"}, nil
		}
	}
	return Window{}, nil
}

// ollamaRoot is the server root of an Ollama /v1 base URL ("" when the
// base URL does not end in /v1).
func ollamaRoot(base string) string {
	base = strings.TrimRight(base, "/")
	root, ok := strings.CutSuffix(base, "/v1")
	if !ok {
		return ""
	}
	return root
}

// windowFromOllama asks Ollama's native API.
func (c *Client) windowFromOllama(ctx context.Context, model string) (Window, error) {
	root := ollamaRoot(c.cfg.BaseURL)
	if root == "" {
		return Window{}, nil
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if err := c.getJSON(ctx, http.MethodGet, root+"/api/ps", nil, &ps); err != nil {
		return Window{}, nil // not Ollama (or not reachable): nothing to learn
	}
	for _, m := range ps.Models {
		if (sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model)) && m.ContextLength > 0 {
			return Window{Tokens: m.ContextLength, Source: "Ollama /api/ps (running num_ctx)"}, nil
		}
	}
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if err := c.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]string{"model": model}, &show); err != nil {
		return Window{}, fmt.Errorf("llm: ollama /api/show %s: %w", model, err)
	}
	trained := trainedContext(show.ModelInfo)
	if n := numCtxParameter(show.Parameters); n > 0 {
		return Window{Tokens: capTo(n, trained), Source: "Ollama /api/show (num_ctx parameter)"}, nil
	}
	// Not loaded and no num_ctx of its own: it will run with the server's
	// default window (4,096 unless OLLAMA_CONTEXT_LENGTH raises it), which
	// only /api/ps can confirm once the model is loaded.
	return Window{Tokens: capTo(ollamaDefaultWindow, trained), Source: "Ollama default num_ctx (model not loaded yet)", Provisional: true}, nil
}

func capTo(n, limit int) int {
	if limit > 0 && limit < n {
		return limit
	}
	return n
}

// sameOllamaModel compares names, treating "name" as "name:latest".
func sameOllamaModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

// trainedContext is model_info's "<architecture>.context_length".
func trainedContext(info map[string]any) int {
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok && f > 0 {
				return int(f)
			}
		}
	}
	return 0
}

// numCtxParameter finds "num_ctx N" in /api/show's parameters text.
func numCtxParameter(params string) int {
	sc := bufio.NewScanner(strings.NewReader(params))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// getJSON sends one probe and decodes a 2xx JSON answer into out.
func (c *Client) getJSON(ctx context.Context, method, url string, body any, out any) error {
	ctx, cancel := context.WithTimeout(ctx, discoveryTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("%s %s: HTTP %d", method, url, resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, maxDiscoveryBody)).Decode(out)
}
