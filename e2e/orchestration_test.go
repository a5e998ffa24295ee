package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// orchestrationModel scripts the fake model for the orchestration browser
// test. Requests are told apart by their system prompt, since sub-agents
// and workers run beside the lead.
type orchestrationModel struct {
	mu   sync.Mutex
	lead map[string][]llmtest.Turn // by the turn's question
}

func (m *orchestrationModel) handle(req llmtest.RecordedRequest) llmtest.Turn {
	sys := req.Messages[0].Content
	switch {
	case strings.HasPrefix(sys, "You merge the reports"):
		return llmtest.Text("Jets are launched magnetically [w] (2019ApJ...875L...1E); disks are thin [w].")
	case strings.Contains(sys, "You are worker"):
		return llmtest.Text("Conclusion: found two reviews (2019ApJ...875L...1E).").WithDelay(700*time.Millisecond, 0)
	case strings.HasPrefix(sys, "You are a sub-agent"):
		if len(req.Messages) == 2 {
			return llmtest.Text("I will list the workspace.").
				Then(llmtest.ToolCalls(llmtest.Call{ID: "inner1", Name: "glob_files", Args: `{"pattern":"**/*.md"}`})).
				WithDelay(400*time.Millisecond, 0)
		}
		return llmtest.Text("Conclusion: no notes on jets in the workspace yet.").WithDelay(400*time.Millisecond, 0)
	}
	// The lead: scripted by the turn's question (its last user message).
	question := ""
	for _, msg := range req.Messages {
		if msg.Role == "user" {
			question = msg.Content
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for q, turns := range m.lead {
		if strings.Contains(question, q) {
			if len(turns) == 0 {
				break
			}
			m.lead[q] = turns[1:]
			return turns[0]
		}
	}
	return llmtest.Text("(unscripted)")
}

// TestBrowserSubagentAndCoordinator: a sub-agent's progress appears live as
// a nested, collapsible group under the lead's call; in coordinator mode the
// worker list shows each worker's state live; a reload shows both the same.
func TestBrowserSubagentAndCoordinator(t *testing.T) {
	fake := llmtest.New(t)
	model := &orchestrationModel{lead: map[string][]llmtest.Turn{
		"Survey jets": {
			llmtest.ToolCalls(llmtest.Call{ID: "sa1", Name: "subagent", Args: `{"task":"Find notes on AGN jets in the workspace."}`}),
			llmtest.Text("The sub-agent found no notes yet."),
		},
		"Review AGN outflows": {
			llmtest.ToolCalls(
				llmtest.Call{ID: "d1", Name: "delegate_task", Args: `{"title":"jets","task":"Survey jet launching papers."}`},
				llmtest.Call{ID: "d2", Name: "delegate_task", Args: `{"title":"disks","task":"Survey accretion disk papers."}`},
			),
			llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "check_task", Args: `{"wait_seconds":30}`}),
			llmtest.ToolCalls(llmtest.Call{ID: "s1", Name: "synthesize", Args: `{}`}),
			llmtest.Text("Jets are launched **magnetically**."),
		},
	}}
	fake.Handle(model.handle)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"LLM_BASE_URL": fake.URL(), "LLM_MODEL": "test-model", "COORDINATOR_MAX_WORKERS": "1"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)

	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)
	do(t, ctx, chromedp.Navigate(a.URL+"/research"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#session-title`), "Outflows"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))

	// A sub-agent: its tool card appears inside its group while it runs.
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "Survey jets"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the sub-agent's group, open while it runs",
		`(() => { const g = document.querySelector('#timeline [data-testid="subagent-group"]');
			return !!g && g.open && g.querySelector('[data-testid="subagent-status"]').textContent.includes("running"); })()`)
	waitUntil(t, ctx, "the sub-agent's tool card nested in its group",
		`!!document.querySelector('#timeline [data-testid="subagent-group"] .subagent-items [data-testid="tool-card"]')`)
	waitUntil(t, ctx, "the sub-agent's end", `(document.querySelector('#timeline [data-testid="subagent-status"]') || {}).textContent === "done in 2 steps"`)
	waitUntil(t, ctx, "the lead's answer", `[...document.querySelectorAll('#timeline [data-testid="answer"]')].some(e => e.textContent.includes("found no notes"))`)
	waitUntil(t, ctx, "the end of the turn", `!document.querySelector('[data-testid="stop-button"]')`)
	// The group collapses and opens with the keyboard (a <details>).
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#timeline [data-testid="subagent-group"] > summary').focus()`))
	do(t, ctx, chromedp.KeyEvent(" "))
	waitUntil(t, ctx, "the group to toggle with the keyboard", `!document.querySelector('#timeline [data-testid="subagent-group"]').open`)

	// Coordinator mode, one slot: the workers run one after the other and
	// the list shows it.
	waitUntil(t, ctx, "the coordinator toggle", `!!document.querySelector('[data-testid="coordinator-toggle"]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="coordinator-toggle"]`)))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "Review AGN outflows"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "one worker running while the other waits for the slot",
		`(() => { const s = [...document.querySelectorAll('#timeline [data-testid="worker-row"]')].map(r => r.dataset.status).sort().join(",");
			return s === "queued,running"; })()`)
	waitUntil(t, ctx, "both workers done",
		`(() => { const rows = [...document.querySelectorAll('#timeline [data-testid="worker-row"]')];
			return rows.length === 2 && rows.every(r => r.dataset.status === "done"); })()`)
	waitUntil(t, ctx, "the synthesised answer", `[...document.querySelectorAll('#timeline [data-testid="answer"] strong')].some(e => e.textContent === "magnetically")`)
	waitUntil(t, ctx, "the end of the coordinator turn", `!document.querySelector('[data-testid="stop-button"]')`)
	if checked, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="coordinator-toggle"]').checked`)); checked {
		t.Error("the coordinator toggle stayed on: it is per question")
	}
	live := timelineState(t, ctx)
	if !live.SameDocument {
		t.Fatal("the page was reloaded during the turns")
	}
	groups, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#timeline [data-testid="subagent-group"]').length`))
	if groups != 3 {
		t.Fatalf("%d sub-agent groups, want 3 (one sub-agent, two workers)", groups)
	}

	// A reload renders the same timeline from the log.
	do(t, ctx, chromedp.Reload())
	waitUntil(t, ctx, "the timeline after the reload", `!!document.querySelector('#timeline [data-testid="worker-list"]')`)
	reloaded := timelineState(t, ctx)
	if reloaded.Text != live.Text {
		t.Fatalf("after a reload the timeline differs:\nlive:     %s\nreloaded: %s", live.Text, reloaded.Text)
	}
	nested, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#timeline [data-testid="subagent-group"] .subagent-items [data-testid="tool-card"]').length`))
	if nested != 1 {
		t.Fatalf("%d nested tool cards after the reload", nested)
	}

	for _, m := range console.all() {
		if m.Kind == "console.error" {
			t.Errorf("the page logged an error: %s", m)
		}
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}
