package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestContextWindowShown: the model's context window is discovered on a
// model switch and shown on the admin page and the session page; a window
// under 8k is called a problem, with the fix.
func TestContextWindowShown(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	page := admin.get("/admin")
	expectContains(t, "unknown window", page.body, `data-testid="context-window"`, "unknown", "LLM_CONTEXT_WINDOW")

	// vLLM reports max_model_len: a comfortable window.
	a.fake.SetModels("test-model", "qwen-max", "llama3.1:8b")
	a.fake.SetModelInfo("qwen-max", llmtest.ModelInfo{MaxModelLen: 32768})
	expectStatus(t, "switch", admin.postForm("/admin/model", url.Values{"model": {"qwen-max"}}), http.StatusSeeOther)
	page = admin.get("/admin")
	expectContains(t, "vLLM window", page.body, "32,768 tokens", "/v1/models max_model_len")
	expectLacks(t, "vLLM window", page.body, `data-testid="context-window-warning"`)

	// Ollama with its default 4k window: the page says it is a problem.
	a.fake.Ollama(&llmtest.OllamaInfo{Running: 4096, Trained: 131072})
	expectStatus(t, "switch", admin.postForm("/admin/model", url.Values{"model": {"llama3.1:8b"}}), http.StatusSeeOther)
	page = admin.get("/admin")
	expectContains(t, "small window", page.body, "4,096 tokens", "Ollama /api/ps", `data-testid="context-window-warning"`,
		"OLLAMA_CONTEXT_LENGTH=32768 ollama serve", "num_ctx")
	id := createSession(t, admin)
	session := admin.get("/research/" + id)
	expectContains(t, "session page", session.body, `data-testid="context-window"`, "4,096 tokens", "OLLAMA_CONTEXT_LENGTH=32768 ollama serve")
	if !strings.Contains(session.body, "compacts the conversation above 2,252 tokens") {
		t.Fatalf("derived limits not shown:\n%s", session.body)
	}
}
