package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestBrowserResearchTurn drives the research workspace in a real browser
// against the fake model: create a session, ask, watch the tool card and
// then the Markdown answer arrive live (no reload), reload and find the
// same timeline, stop a slow turn — all without a CSP violation.
func TestBrowserResearchTurn(t *testing.T) {
	fake := llmtest.New(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"LLM_BASE_URL": fake.URL(), "LLM_MODEL": "test-model"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)

	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)
	expectPage(t, ctx, a.BasePath+"/", "Hello, "+user)

	// The main navigation leads to the workspace; a new session opens.
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`nav[aria-label="Main"] a[href$="/research"]`)))
	expectPage(t, ctx, a.BasePath+"/research", "Research")
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#session-title`), "Perseus A"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
	p := readPage(t, ctx)
	if !strings.HasPrefix(p.Path, a.BasePath+"/research/") || p.H1 != "Perseus A" {
		t.Fatalf("after creating a session: on %s with heading %q", p.Path, p.H1)
	}
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)

	// Ask: a tool call, then a streamed answer in two parts.
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}).
			WithDelay(300*time.Millisecond, 0),
		llmtest.Text("**NGC 1275** is the central galaxy ", "of the Perseus cluster, at $z = 0.0176$.").
			WithDelay(300*time.Millisecond, 300*time.Millisecond),
	)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "What is NGC 1275?"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the question form to be emptied", `document.querySelector("#question").value === ""`)
	waitUntil(t, ctx, "the Stop button", `!!document.querySelector('[data-testid="stop-button"]')`)
	waitUntil(t, ctx, "the tool card with its result",
		`!!document.querySelector('#timeline [data-testid="tool-card"] .tool-status.ok')`)
	waitUntil(t, ctx, "streamed text", `!!document.querySelector('#timeline [data-testid="model-text"]')`)
	waitUntil(t, ctx, "the rendered answer",
		`(document.querySelector('#timeline [data-testid="answer"] strong') || {}).textContent === "NGC 1275"`)
	waitUntil(t, ctx, "the end of the turn", `!!document.querySelector('#timeline [data-testid="done"]') && !document.querySelector('[data-testid="stop-button"]')`)
	// The formula arrived over the stream and was rendered by KaTeX; its
	// TeX source is kept for screen readers (MathML annotation).
	waitUntil(t, ctx, "the formula rendered by KaTeX",
		`(() => { const m = document.querySelector('#timeline [data-testid="answer"] .math-inline[data-rendered] .katex');
			return !!m && m.querySelector('annotation').textContent === "z = 0.0176"; })()`)
	// KaTeX's own fonts load from /static under the Content-Security-Policy
	// (font-src 'self'; a refused font would be a console problem below).
	waitUntil(t, ctx, "KaTeX's fonts", `[...document.fonts].some(f => f.family.replace(/"/g, "") === "KaTeX_Main" && f.status === "loaded")`)
	// The turn ended: focus is on its answer.
	waitUntil(t, ctx, "focus on the answer", `document.activeElement && document.activeElement.matches('#timeline [data-testid="answer"]')`)
	live := timelineState(t, ctx)
	if !live.SameDocument {
		t.Fatal("the page was reloaded during the turn; the timeline must update in place")
	}
	if live.Answers != 1 || live.Texts != 0 || live.Cards != 1 || !strings.Contains(live.Text, "Answered in 2 steps.") ||
		!strings.Contains(live.Text, "What is NGC 1275?") {
		t.Fatalf("live timeline: %+v", live)
	}

	// The stream address follows the events received, so a stream the
	// SSE extension has to reopen resumes after them.
	if url, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#timeline").getAttribute("sse-connect")`)); strings.HasSuffix(url, "after=0") {
		t.Errorf("sse-connect is still %q after the turn", url)
	}

	// A reload shows the same timeline, from the server.
	do(t, ctx, chromedp.Reload())
	waitUntil(t, ctx, "the formula rendered after the reload", `!!document.querySelector('#timeline .math-inline[data-rendered] .katex')`)
	reloaded := timelineState(t, ctx)
	if reloaded.SameDocument || reloaded.Text != live.Text || reloaded.Answers != 1 || reloaded.Cards != 1 {
		t.Fatalf("after a reload the timeline differs:\nlive:     %+v\nreloaded: %+v", live, reloaded)
	}

	// The Stop button stops a slow turn.
	fake.Enqueue(llmtest.Text("too slow").WithDelay(30*time.Second, 0))
	waitUntil(t, ctx, "htmx and the timeline's stream after the reload", liveJS)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "And its black hole mass?"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the Stop button", `!!document.querySelector('[data-testid="stop-button"]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop-button"]`)))
	waitUntil(t, ctx, "the stopped turn",
		`[...document.querySelectorAll('#timeline [data-testid="done"]')].some(e => e.textContent.includes("Stopped by you."))`)
	waitUntil(t, ctx, "the Stop button to go", `!document.querySelector('[data-testid="stop-button"]')`)
	if got := timelineState(t, ctx); !got.SameDocument || !strings.Contains(got.Text, "And its black hole mass?") {
		t.Fatalf("after stopping: %+v", got)
	}

	// A question card: the option button answers it in place.
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "q1", Name: "ask_user", Args: `{"question":"Which band?","options":["V","K"]}`}),
		llmtest.Text("Using the *K* band."),
	)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "Photometry, please"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the question card", `!!document.querySelector('[data-testid="ask-card"] button[value="K"]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="ask-card"] button[value="K"]`)))
	waitUntil(t, ctx, "the answer after the card",
		`[...document.querySelectorAll('#timeline [data-testid="answer"] em')].some(e => e.textContent === "K")`)
	waitUntil(t, ctx, "the card to close", `!document.querySelector('[data-testid="ask-card"] form')`)
	if got := timelineState(t, ctx); !got.SameDocument || !strings.Contains(got.Text, "The user answered: K") {
		t.Fatalf("after answering the card: %+v", got)
	}

	for _, m := range console.all() {
		t.Logf("browser console: %s", m)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
	for _, m := range console.all() {
		if m.Kind == "console.error" {
			t.Errorf("the page logged an error (htmx reports failed swaps this way): %s", m)
		}
	}
}

// liveJS is true once htmx has processed the question form (a click
// before that would post it the plain way and reload the page) and the
// timeline's event stream is open.
const liveJS = `(() => {
	const data = (sel) => (document.querySelector(sel) || {})["htmx-internal-data"] || {};
	const es = data("#timeline").sseEventSource;
	return !!data("#question-form").initHash && !!es && es.readyState === 1;
})()`

// timeline is what the tests read from the timeline element.
type timeline struct {
	Text         string `json:"text"` // textContent with whitespace collapsed
	Cards        int    `json:"cards"`
	Answers      int    `json:"answers"`
	Texts        int    `json:"texts"` // streamed text blocks not yet replaced by an answer
	SameDocument bool   `json:"sameDocument"`
}

const timelineJS = `(() => {
	const tl = document.querySelector("#timeline");
	return {
		text: tl.textContent.replace(/\s+/g, " ").trim(),
		cards: tl.querySelectorAll('[data-testid="tool-card"]').length,
		answers: tl.querySelectorAll('[data-testid="answer"]').length,
		texts: tl.querySelectorAll('[data-testid="model-text"]').length,
		sameDocument: window.__sameDocument === true,
	};
})()`

func timelineState(t *testing.T, ctx context.Context) timeline {
	t.Helper()
	tl, err := chromedp.Run(ctx, chromedp.Evaluate[timeline](timelineJS))
	if err != nil {
		t.Fatalf("read the timeline: %v", err)
	}
	return tl
}

func readPage(t *testing.T, ctx context.Context) pageInfo {
	t.Helper()
	p, err := chromedp.Run(ctx, chromedp.Evaluate[pageInfo](pageInfoJS))
	if err != nil {
		t.Fatalf("read page: %v", err)
	}
	return p
}

// waitUntil evaluates the expression until it is true, for up to 15 s.
// (chromedp.Poll builds its predicate with new Function, which the
// Content-Security-Policy forbids; plain evaluation is not affected.)
func waitUntil(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main").outerHTML`))
			t.Fatalf("timed out waiting for %s; the page:\n%s", what, html)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
