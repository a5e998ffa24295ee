package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// workspace is a browser signed in to a server with the fake model; after
// newWorkspace, its first session (sessionA) has a finished turn: an "ask"
// rule for todo_write, a permission card answered with Always allow, two
// tool cards, a KaTeX formula and a citation link.
type workspace struct {
	app      *app
	fake     *llmtest.Server
	ctx      context.Context
	console  *consoleLog
	sessionA string
}

// signedIn starts a server with the fake model and an admin user, and a
// browser signed in as that user.
func signedIn(t *testing.T, user, password string) *workspace {
	t.Helper()
	w := &workspace{fake: llmtest.New(t), console: &consoleLog{}}
	w.app = startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"LLM_BASE_URL": w.fake.URL(), "LLM_MODEL": "test-model"})
	w.ctx = newBrowser(t, w.console)
	do(t, w.ctx, chromedp.Navigate(w.app.URL+"/login"))
	submitCredentials(t, w.ctx, `[data-testid="login-form"]`, user, password)
	return w
}

// newWorkspace builds a workspace, checking on the way that "Always
// allow" leaves one permission card for two calls.
func newWorkspace(t *testing.T, user, password string) *workspace {
	t.Helper()
	w := signedIn(t, user, password)
	a, ctx, fake := w.app, w.ctx, w.fake

	// A central rule: todo_write needs the user's approval.
	do(t, ctx, chromedp.Navigate(a.URL+"/settings"))
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#rule_tool`), "todo_write"),
		chromedp.SetValue(chromedp.CSS(`#rule_decision`), "ask"),
	)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="rule-form"] button[type="submit"]`)))
	waitUntil(t, ctx, "the ask rule", `[...document.querySelectorAll('[data-testid="rule-row"]')].some(r => r.textContent.includes("ask"))`)

	// A session whose turn calls todo_write twice.
	w.sessionA = newSessionPage(t, ctx, a, "Cepheid distances")
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "w1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"collect periods","status":"in_progress"}]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "w2", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"collect periods","status":"completed"}]}`}),
		llmtest.Text("The *Leavitt law* relates period and luminosity: $M_V = a \\log P + b$ (see arXiv:2401.01234)."),
	)
	askQuestion(t, ctx, "How do Cepheids measure distance?")
	waitUntil(t, ctx, "the permission card", `!!document.querySelector('[data-testid="permission-card"] button[value="allow_always"]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="permission-card"] button[value="allow_always"]`)))
	// The card shows the decision, then (the turn moving on) closes.
	waitUntil(t, ctx, "the card to take the decision", `!document.querySelector('[data-testid="permission-card"] form')`)
	waitUntil(t, ctx, "the end of the turn", `!!document.querySelector('#timeline [data-testid="done"]')`)
	counts, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[
		document.querySelectorAll('#timeline [data-testid="permission-card"]').length,
		document.querySelectorAll('#timeline [data-testid="tool-card"] .tool-status.ok').length]`))
	if err != nil {
		t.Fatal(err)
	}
	if counts[0] != 1 || counts[1] != 2 {
		t.Fatalf("%d permission cards and %d successful tool cards, want 1 and 2 (no second card after Always allow)", counts[0], counts[1])
	}
	return w
}

// TestBrowserWorkspaceFlows drives the rest of issue 5 in a real browser:
// a permission rule that asks, the card's "Always allow" (one card for two
// calls, none the next turn, the rule in settings), the history search
// finding a word from an earlier session, and the question form without
// JavaScript.
func TestBrowserWorkspaceFlows(t *testing.T) {
	w := newWorkspace(t, "henrietta", "period-luminosity")
	a, ctx, fake, sessionA := w.app, w.ctx, w.fake, w.sessionA

	// The next turn's call runs without a card either; settings lists the rule.
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "w3", Name: "todo_write", Args: `{"todos":[]}`}),
		llmtest.Text("Done."),
	)
	askQuestion(t, ctx, "Clear the list")
	waitUntil(t, ctx, "the second turn's end", `document.querySelectorAll('#timeline [data-testid="done"]').length === 2`)
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#timeline [data-testid="permission-card"]').length`)); n != 1 {
		t.Fatalf("%d permission cards after the second turn, want still 1", n)
	}
	do(t, ctx, chromedp.Navigate(a.URL+"/settings"))
	waitUntil(t, ctx, "the always-allow rule in settings",
		`[...document.querySelectorAll('[data-testid="rule-row"]')].some(r => r.textContent.includes("todo_write") && r.textContent.includes("allow"))`)

	// A second session; the history search finds the first one's answer.
	newSessionPage(t, ctx, a, "Something else")
	fake.Enqueue(llmtest.Text("Unrelated."))
	askQuestion(t, ctx, "Anything?")
	waitUntil(t, ctx, "the second session's answer", `!!document.querySelector('#timeline [data-testid="done"]')`)
	do(t, ctx, chromedp.Navigate(a.URL+"/search"))
	waitUntil(t, ctx, "htmx on the search page", `!!((document.querySelector("#search-q") || {})["htmx-internal-data"] || {}).initHash`)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#search-q`), "Leavitt"))
	waitUntil(t, ctx, "a hit for Leavitt", `!!document.querySelector('[data-testid="search-hit"] mark')`)
	hit, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const h = document.querySelector('[data-testid="search-hit"]');
		return [h.querySelector("a").getAttribute("href"), h.querySelector("mark").textContent, String(document.querySelectorAll('[data-testid="search-hit"]').length)];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hit[0], "/research/"+sessionA) || !strings.EqualFold(hit[1], "Leavitt") || hit[2] != "1" {
		t.Fatalf("search hit %q, want one hit in session %s with Leavitt marked", hit, sessionA)
	}

	// Without JavaScript the question form posts, waits for the turn and
	// shows the finished timeline.
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	do(t, ctx, chromedp.Navigate(a.URL+"/research/"+sessionA))
	fake.Enqueue(llmtest.Text("Answered ", "without a script.").WithDelay(300*time.Millisecond, 100*time.Millisecond))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), "And without JavaScript?"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	noJS, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#timeline [data-testid="answer"]')].pop().textContent.trim()`))
	if err != nil || noJS != "Answered without a script." {
		t.Fatalf("after the plain post the last answer is %q (%v)", noJS, err)
	}

	if bad := w.console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// TestBrowserWorkspaceAccessibility runs axe-core (no serious or critical
// violation) and a keyboard walk (every control reached by Tab, with a
// visible focus) over every page of the workspace: the session page with a
// finished timeline, settings with permission rules, history search with
// hits, the session list, the audit log and the memories page; then axe
// again in dark mode, which has its own colours.
func TestBrowserWorkspaceAccessibility(t *testing.T) {
	w := newWorkspace(t, "williamina", "harvard-computers")
	a, ctx, sessionA := w.app, w.ctx, w.sessionA
	// Something remembered, so that the memories page has its forms.
	w.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "m1", Name: "save_memory", Args: `{"kind":"project","content":"The user is calibrating the Cepheid period-luminosity relation with Gaia DR3 parallaxes."}`}),
		llmtest.Text("Noted."),
	)
	askQuestion(t, ctx, "Remember that I calibrate the Leavitt law with Gaia DR3.")
	waitUntil(t, ctx, "the second turn's end", `document.querySelectorAll('#timeline [data-testid="done"]').length === 2`)
	checkA11y(t, ctx, "session page with a finished timeline")
	checkKeyboard(t, ctx, "session page with a finished timeline")
	for _, page := range []string{"/settings", "/search?q=Leavitt", "/research", "/audit", "/settings/memories"} {
		do(t, ctx, chromedp.Navigate(a.URL+page))
		checkA11y(t, ctx, page)
		checkKeyboard(t, ctx, page)
	}
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	for _, page := range []string{"/research/" + sessionA, "/search?q=Leavitt", "/audit"} {
		do(t, ctx, chromedp.Navigate(a.URL+page))
		checkA11y(t, ctx, page+" (dark)")
	}
	if bad := w.console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// newSessionPage creates a session from the list page and returns its id,
// with the page's stream open.
func newSessionPage(t *testing.T, ctx context.Context, a *app, title string) string {
	t.Helper()
	do(t, ctx, chromedp.Navigate(a.URL+"/research"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#session-title`), title))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
	p := readPage(t, ctx)
	if !strings.HasPrefix(p.Path, a.BasePath+"/research/") || p.H1 != title {
		t.Fatalf("after creating a session: on %s with heading %q", p.Path, p.H1)
	}
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)
	return strings.TrimPrefix(p.Path, a.BasePath+"/research/")
}

// askQuestion types a question and presses Ask (htmx posts it).
func askQuestion(t *testing.T, ctx context.Context, q string) {
	t.Helper()
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#question`), q))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ask-button`)))
	waitUntil(t, ctx, "the question form to be emptied", `document.querySelector("#question").value === ""`)
}

// axeSource is axe-core's browser build, from node_modules (package.json's
// devDependencies; make vendor installs it). It is injected by the tests
// only and never served.
var axeSource = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "node_modules", "axe-core", "axe.min.js"))
	return string(b), err
})

// axeViolation is one failed axe rule with a few of its nodes.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeRunJS runs the WCAG 2.1 A/AA rules and the best practices over the
// page and returns the violations.
const axeRunJS = `axe.run(document, {
	resultTypes: ["violations"],
	runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || "", help: v.help,
	nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ")),
})))`

// checkA11y injects axe-core into the current page (once the page has
// loaded) and fails the test on every serious or critical violation;
// lesser ones are logged.
func checkA11y(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	src, err := axeSource()
	if err != nil {
		t.Fatalf("axe-core is missing (run make vendor / npm ci): %v", err)
	}
	waitUntil(t, ctx, "the page to load", `document.readyState === "complete"`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe ? true : (() => { `+src+`; return true; })()`)); err != nil {
		t.Fatalf("inject axe-core into %s: %v", page, err)
	}
	start := time.Now()
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](axeRunJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", page, err)
	}
	t.Logf("axe on %s: %d violation(s) in %v", page, len(vs), time.Since(start).Round(time.Millisecond))
	for _, v := range vs {
		msg := page + ": " + v.Impact + " " + v.ID + " (" + v.Help + "): " + strings.Join(v.Nodes, " | ")
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// TestBrowserReloadMidTurn reloads the page while an answer streams: the
// reloaded page shows what was said so far and the live stream continues
// it, with no word lost or repeated, and the finished timeline is the same
// as a fresh load's.
func TestBrowserReloadMidTurn(t *testing.T) {
	w := signedIn(t, "cecilia", "stellar-atmospheres")
	ctx, fake, console := w.ctx, w.fake, w.console
	newSessionPage(t, ctx, w.app, "Reload")

	words := make([]string, 40)
	for i := range words {
		words[i] = "s" + strconv.Itoa(100+i) + " "
	}
	want := strings.TrimSpace(strings.Join(words, ""))
	fake.Enqueue(llmtest.Text(words...).WithDelay(0, 60*time.Millisecond))
	askQuestion(t, ctx, "Stream slowly")
	waitUntil(t, ctx, "some words", `(document.querySelector('#timeline [data-testid="model-text"]') || {textContent: ""}).textContent.includes("s105")`)
	do(t, ctx, chromedp.Reload())
	waitUntil(t, ctx, "the stream after the reload", liveJS)
	mid, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('#timeline [data-testid="model-text"], #timeline [data-testid="answer"]') || {textContent: ""}).textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(mid, "s139") || !strings.Contains(mid, "s105") {
		t.Fatalf("the reload did not happen mid-turn: %q", mid)
	}
	waitUntil(t, ctx, "the end of the turn", `!!document.querySelector('#timeline [data-testid="done"]')`)
	live := timelineState(t, ctx)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#timeline [data-testid="answer"]').textContent.trim()`))
	if err != nil {
		t.Fatal(err)
	}
	if got != want || live.Answers != 1 || live.Texts != 0 {
		t.Fatalf("after a reload mid-turn the answer is %q (%d answers, %d text blocks), want %q once", got, live.Answers, live.Texts, want)
	}
	do(t, ctx, chromedp.Reload())
	if fresh := timelineState(t, ctx); fresh.Text != live.Text {
		t.Fatalf("the live timeline differs from a fresh load:\nlive:  %s\nfresh: %s", live.Text, fresh.Text)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// checkKeyboard walks the page with Tab and fails unless every visible
// control in main (links, buttons, fields, summaries, scrollable code
// blocks) receives the focus, each with a visible focus indicator.
func checkKeyboard(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		document.activeElement && document.activeElement.blur();
		window.scrollTo(0, 0);
		const els = [...document.querySelectorAll('main a[href], main button:not([disabled]), main input:not([type=hidden]), main select, main textarea, main summary, main [tabindex="0"]')]
			.filter(e => e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true}));
		els.forEach((e, i) => e.setAttribute("data-kb", i));
		return els.length;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	reached := map[string]bool{}
	var noOutline []string
	for range n + 20 {
		do(t, ctx, chromedp.KeyEvent(kb.Tab))
		f, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const e = document.activeElement;
			if (!e) return ["", ""];
			const s = getComputedStyle(e);
			return [e.getAttribute("data-kb") || "", s.outlineStyle !== "none" && s.outlineWidth !== "0px" ? "" : e.outerHTML.slice(0, 80)];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if f[0] != "" {
			reached[f[0]] = true
			if f[1] != "" {
				noOutline = append(noOutline, f[1])
			}
		}
		if len(reached) == n {
			break
		}
	}
	if len(reached) < n {
		missed, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-kb]")].map(e => e.getAttribute("data-kb") + ": " + e.outerHTML.slice(0, 100))`))
		var list []string
		for _, m := range missed {
			if !reached[strings.SplitN(m, ":", 2)[0]] {
				list = append(list, m)
			}
		}
		t.Errorf("%s: Tab did not reach %d of %d controls: %s", page, n-len(reached), n, strings.Join(list, " | "))
	}
	if len(noOutline) > 0 {
		t.Errorf("%s: focused without a visible outline: %s", page, strings.Join(noOutline, " | "))
	}
	t.Logf("keyboard on %s: Tab reached all %d controls", page, len(reached))
}
