package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// metricText returns the text of the element with data-testid id inside sel.
func metricText(doc *goquery.Document, sel, id string) string {
	return strings.TrimSpace(doc.Find(sel + ` [data-testid="` + id + `"]`).First().Text())
}

func parseDoc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestResearchTurnMetrics: each finished turn shows its own counters after
// its done line, and the session panel sums them; both come from the
// event log.
func TestResearchTurnMetrics(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)

	doc := parseDoc(t, c.get("/research/"+s).body)
	if got := metricText(doc, `[data-testid="metrics-panel"]`, "metric-steps"); got != "0" {
		t.Fatalf("fresh session: %q steps", got)
	}
	if doc.Find(`[data-testid="turn-metrics"]`).Length() != 0 {
		t.Fatal("fresh session has turn metrics")
	}

	// Turn 1: a rate limit retried, a tool call, the answer.
	todo := llmtest.Call{ID: "call_1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}
	a.fake.Enqueue(
		llmtest.HTTPError(http.StatusTooManyRequests, nil, "slow down"),
		llmtest.ToolCalls(todo).WithUsage(120, 30),
		llmtest.Text("NGC 1275 is Perseus A.").WithUsage(200, 20).WithDelay(100*time.Millisecond, 0),
	)
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"What is NGC 1275?"}}), http.StatusSeeOther)
	a.waitTurn(t, s)

	// Turn 2: the same call three times in a row; the third is refused as
	// a duplicate (and is a tool error).
	a.fake.Enqueue(
		llmtest.ToolCalls(todo).WithUsage(10, 1),
		llmtest.ToolCalls(todo).WithUsage(10, 1),
		llmtest.ToolCalls(todo).WithUsage(10, 1),
		llmtest.Text("Done.").WithUsage(10, 1),
	)
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"Again"}}), http.StatusSeeOther)
	a.waitTurn(t, s)

	doc = parseDoc(t, c.get("/research/"+s).body)
	turns := doc.Find(`#timeline [data-testid="turn-metrics"]`)
	if turns.Length() != 2 {
		t.Fatalf("%d turn metrics panels, want 2", turns.Length())
	}
	want := map[string]map[string]string{
		"#metrics-turn-1": {"metric-steps": "2", "metric-prompt-tokens": "320", "metric-completion-tokens": "50",
			"metric-retries": "1", "metric-tool-errors": "0", "metric-duplicates": "0", "metric-errors": "0"},
		"#metrics-turn-2": {"metric-steps": "4", "metric-prompt-tokens": "40", "metric-completion-tokens": "4",
			"metric-retries": "0", "metric-tool-errors": "1", "metric-duplicates": "1"},
		`[data-testid="metrics-panel"]`: {"metric-turns": "2", "metric-steps": "6", "metric-prompt-tokens": "360",
			"metric-retries": "1", "metric-duplicates": "1", "metric-compactions": "0"},
	}
	for sel, fields := range want {
		for id, v := range fields {
			if got := metricText(doc, sel, id); got != v {
				t.Errorf("%s %s = %q, want %q", sel, id, got, v)
			}
		}
	}
	row := doc.Find(`#metrics-turn-2 [data-testid="metric-tools"] tbody tr`)
	if row.Length() != 1 || row.Find("td").Eq(0).Text() != "todo_write" || row.Find("td").Eq(1).Text() != "3" {
		t.Errorf("turn 2 tool table: %q", row.Text())
	}
	// Model time covers the answer's 100 ms first-byte delay.
	if ms, err := strconv.Atoi(strings.TrimSuffix(metricText(doc, "#metrics-turn-1", "metric-model-time"), " ms")); err != nil || ms < 100 {
		t.Errorf("model time %d ms (%v), want at least 100", ms, err)
	}
	// The turn's panel follows its done line.
	if prev := doc.Find("#metrics-turn-1").Prev(); prev.AttrOr("data-testid", "") != "done" {
		t.Errorf("turn 1's metrics follow %q, want the done line", prev.AttrOr("id", ""))
	}
	// The usage line says the call was retried.
	if !strings.Contains(doc.Find("#timeline .usage").First().Text(), "1 retry") {
		t.Errorf("first usage line: %q", doc.Find("#timeline .usage").First().Text())
	}
}

// TestResearchModelAndThinkingToggle: the session page names the active
// model; the thinking toggle is absent for a model whose reasoning cannot
// be switched, and present (and honoured) for one that can.
func TestResearchModelAndThinkingToggle(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)

	doc := parseDoc(t, c.get("/research/"+s).body)
	if got := strings.Join(strings.Fields(doc.Find(`[data-testid="model-status"]`).Text()), " "); got != "Model test-model" {
		t.Errorf("model status %q", got)
	}
	if doc.Find(`[data-testid="thinking-toggle"]`).Length() != 0 {
		t.Error("test-model takes no thinking flag, yet the toggle is shown")
	}

	a.model.SetModel("qwen-plus")
	doc = parseDoc(t, c.get("/research/"+s).body)
	if doc.Find(`[data-testid="thinking-toggle"]`).Length() != 1 {
		t.Fatal("qwen-plus: no thinking toggle")
	}
	a.fake.Enqueue(llmtest.Text("ok"))
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns",
		url.Values{"question": {"Think"}, "thinking_field": {"1"}, "thinking": {"on"}}), http.StatusSeeOther)
	a.waitTurn(t, s)
	reqs := a.fake.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[len(reqs)-1].Body), `"enable_thinking":true`) {
		t.Errorf("the turn did not ask for thinking")
	}
}
