package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestBrowserAuditLogNarrow: after a turn (a tool call by the lead, then
// the memory extractor saving a fact), the audit log says which agent made
// each call; on a phone-sized screen every value is labelled, and a long
// output is clipped behind a "show all" that opens without JavaScript
// (<details>).
func TestBrowserAuditLogNarrow(t *testing.T) {
	fake := llmtest.New(t)
	fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		results := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				results++
			}
		}
		if strings.Contains(r.Messages[0].Content, "long-term memory") { // the memory extractor
			if results == 0 {
				return llmtest.ToolCalls(llmtest.Call{ID: "mem", Name: "save_memory",
					Args: `{"kind":"user","content":"The user studies the Perseus cluster with Chandra X-ray data."}`})
			}
			return llmtest.Text("Saved one fact.")
		}
		if results == 0 {
			return llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":"search_history"}`})
		}
		return llmtest.Text("Loaded.")
	})
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"LLM_BASE_URL": fake.URL(), "LLM_MODEL": "test-model", "AGENT_MEMORY_EXTRACTION": "true"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.EmulateViewport(360, 800))

	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)
	do(t, ctx, chromedp.Navigate(a.URL+"/research"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#session-title`), "Perseus"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "I work on the Perseus cluster with Chandra."))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the end of the turn", `!!document.querySelector('#timeline [data-testid="done"]')`)

	// The extractor runs after the turn: wait for its row.
	deadline := time.Now().Add(15 * time.Second)
	for {
		do(t, ctx, chromedp.Navigate(a.URL+"/audit"))
		agents, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('[data-testid="audit-agent"]')].map(td => td.textContent.trim())`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(agents, ","), "memory") {
			if !strings.Contains(strings.Join(agents, ","), "lead") {
				t.Fatalf("agents %q, want the lead's call too", agents)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no row of the memory agent; agents %q", agents)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Narrow screen: no visible column headers, every cell says what it is.
	type cell struct {
		Label  string `json:"label"`
		Before string `json:"before"`
	}
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[[]cell](`[...document.querySelectorAll('[data-testid="audit-row"] td')].map(td => ({
		label: td.dataset.label || "", before: getComputedStyle(td, "::before").content}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) == 0 {
		t.Fatal("no cells")
	}
	for _, c := range cells {
		if c.Label == "" || !strings.Contains(c.Before, c.Label) {
			t.Fatalf("a cell is not labelled on a narrow screen: %+v", c)
		}
	}
	if w, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`)); w > 360 {
		t.Errorf("the page scrolls sideways at 360 px: %v px wide", w)
	}

	// The long load_tool output is clipped; "show all" opens it (no JS
	// needed: it is a <details>).
	sel := `[data-testid="audit-output-more"]`
	waitUntil(t, ctx, "a clipped output", `!!document.querySelector('`+sel+`') && !document.querySelector('`+sel+`').open`)
	if vis, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+sel+` pre').checkVisibility()`)); vis {
		t.Fatal("the full output shows before show all")
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(sel+` summary`)))
	waitUntil(t, ctx, "the full output", `document.querySelector('`+sel+`').open && document.querySelector('`+sel+` pre').checkVisibility()`)
	if p := console.problems(); len(p) > 0 {
		t.Fatalf("console problems: %v", p)
	}
}
