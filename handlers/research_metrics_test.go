package handlers

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestResearchMetricsPanel(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)

	page := c.get("/research/" + s).body
	expectContains(t, "fresh session", page, `data-testid="metrics-panel"`, `data-testid="metric-steps">0<`)
	expectLacks(t, "fresh session", page, `data-testid="metric-tools"`)

	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}).WithUsage(120, 30),
		llmtest.Text("NGC 1275 is Perseus A.").WithUsage(200, 20),
	)
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"What is NGC 1275?"}}), http.StatusSeeOther)
	a.waitTurn(t, s)

	res := c.get("/research/" + s)
	expectStatus(t, "page", res, http.StatusOK)
	expectContains(t, "metrics", res.body,
		`data-testid="metric-turns">1<`, `data-testid="metric-steps">2<`,
		`data-testid="metric-prompt-tokens">320<`, `data-testid="metric-completion-tokens">50<`,
		`data-testid="metric-tool-errors">0<`, `data-testid="metric-duplicates">0<`, `data-testid="metric-compactions">0<`,
		`data-testid="metric-tools"`, `<tr><td><code>todo_write</code></td><td>1</td><td>`)

	// Another session's counters are its own.
	other := newResearchSession(t, c)
	expectContains(t, "other session", c.get("/research/"+other).body, `data-testid="metric-steps">0<`)
}

func TestResearchMetricsPanelWithoutCollector(t *testing.T) {
	a := newApp(t, nil)
	a.srv.agentMetrics = nil
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	res := c.get("/research/" + s)
	expectStatus(t, "page", res, http.StatusOK)
	expectLacks(t, "page", res.body, `data-testid="metrics-panel"`)
}
