package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// Issue 18, "a newcomer's first hour", checked the way it was found: in
// Chromium at 1280 and 390 pixels, with and without JavaScript, axe with
// the WCAG 2.2 AA rules, screenshots in /tmp (i18-*.png) to look at.

// newcomerWidths are the window widths every page is checked at.
var newcomerWidths = []int64{1280, 390}

// newcomerTimeout bounds each of these tests' browser: they walk many
// pages, each at two widths with axe.
const newcomerTimeout = 3 * time.Minute

// Weight targets of the issue, bytes transferred on a cold load.
const (
	homeBudget    = 30 << 10
	sessionBudget = 60 << 10
)

// newcomerApp starts the server with the fake model (title proposals on)
// and the fake arXiv, and a browser signed in as its administrator.
func newcomerApp(t *testing.T) *workspace {
	t.Helper()
	ax := fakeArxiv(t)
	w := &workspace{fake: llmtest.New(t), console: &consoleLog{}}
	const user, password = "annie", "harvard-classification"
	w.app = startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"LLM_BASE_URL": w.fake.URL(), "LLM_MODEL": "test-model", "AGENT_TITLE_PROPOSAL": "true",
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_PDF_URL": ax.URL + "/pdf"})
	w.ctx = newBrowserFor(t, w.console, newcomerTimeout)
	do(t, w.ctx, chromedp.Navigate(w.app.URL+"/login"))
	submitCredentials(t, w.ctx, `[data-testid="login-form"]`, user, password)
	return w
}

// TestBrowserNewcomerPages: the home page lists every area and weighs at
// most 30 KB; a new token and a backup are shown at the top, focused,
// with a copy button (a selected field without JavaScript); the library
// starts with its list and exports the selected papers; the memories
// page explains memories and adds one; the sessions list has a menu per
// row. Every page passes axe (WCAG 2.2 AA) at both widths, with and
// without JavaScript.
func TestBrowserNewcomerPages(t *testing.T) {
	// Each mode has a server and browser of its own.
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "js", false: "nojs"}[js], func(t *testing.T) { newcomerPages(t, js) })
	}
}

func newcomerPages(t *testing.T, js bool) {
	w := newcomerApp(t)
	a, ctx := w.app, w.ctx

	// Home: every area, and its weight on a cold load.
	setScripts(t, ctx, true)
	do(t, ctx, chromedp.Navigate(a.URL+"/"))
	areas := evalJS[[]string](t, ctx, `[...document.querySelectorAll('[data-testid="areas"] a')].map(a => a.textContent.trim())`)
	// Every area of the navigation but Home itself, Library, Search and the
	// audit log among them.
	nav := evalJS[[]string](t, ctx, `[...document.querySelectorAll('[data-testid="main-nav"] a')].map(a => a.textContent.trim()).filter(t => t !== "Home")`)
	if strings.Join(areas, ",") != strings.Join(nav, ",") {
		t.Fatalf("home areas %q, want the navigation's %q", areas, nav)
	}
	for _, want := range []string{"Research", "Library", "Search", "Audit log", "Settings", "Admin"} {
		if !slices.Contains(areas, want) {
			t.Fatalf("home areas %q lack %q", areas, want)
		}
	}
	home := coldWeight(t, ctx, a.URL+"/")
	t.Logf("home page: %s", home)
	if home.Total > homeBudget || home.KaTeX {
		t.Errorf("home page transferred %d bytes (budget %d), KaTeX loaded: %v", home.Total, homeBudget, home.KaTeX)
	}

	// A paper in the library.
	res := evalJS[string](t, ctx, `fetch("`+a.BasePath+`/api/papers/import", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({ref: "2401.01234"})}).then(r => String(r.status))`, chromedp.EvalAwaitPromise)
	if res != "201" {
		t.Fatalf("import through the API: %s", res)
	}

	{
		setScripts(t, ctx, js)
		mode := map[bool]string{true: "js", false: "nojs"}[js]

		// A new token: at the top, focused, selected (with JS: a Copy button).
		do(t, ctx, chromedp.Navigate(a.URL+"/settings"))
		do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#token_name`), "notebook "+mode))
		submitExpect(t, ctx, chromedp.Click(chromedp.CSS(`form[action$="/settings/tokens"] button[type="submit"]`)), 201)
		checkSecret(t, ctx, "new-token", js)
		shootAll(t, ctx, !js, "settings-token-"+mode, "settings with a new token ("+mode+")")

		do(t, ctx, chromedp.Navigate(a.URL+"/admin"))
		submitExpect(t, ctx, chromedp.Click(chromedp.CSS(`form[action$="/admin/backup"] button`)), 200)
		checkSecret(t, ctx, "backup-done", js)
		shootAll(t, ctx, !js, "admin-backup-"+mode, "admin after a backup ("+mode+")")

		// Library: the list before the forms, a checkbox per row, the
		// selection exported by the plain form.
		do(t, ctx, chromedp.Navigate(a.URL+"/library"))
		order := evalJS[[]float64](t, ctx, `["library-results", "import-form", "ask-library"].map(id => {
			const e = document.querySelector('[data-testid="' + id + '"]'); return e ? e.getBoundingClientRect().top + scrollY : -1; })`)
		if order[0] < 0 || order[1] < order[0] || (order[2] >= 0 && order[2] < order[0]) {
			t.Fatalf("library: list at %v px, import form at %v px, ask panel at %v px: the list must come first", order[0], order[1], order[2])
		}
		meta := evalJS[string](t, ctx, `document.querySelector('[data-testid="paper-row"] .paper-meta').textContent`)
		if strings.Count(meta, ";") > 1 {
			t.Errorf("library byline %q lists more than two authors", meta)
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="pick"]`)))
		// The form's own GET, read with fetch (scripts on for that, the
		// page as it was loaded).
		setScripts(t, ctx, true)
		bib := evalJS[string](t, ctx, `(() => { const f = document.getElementById("export-form");
			return fetch(f.action + "?" + new URLSearchParams(new FormData(f))).then(r => r.text()); })()`, chromedp.EvalAwaitPromise)
		if !strings.Contains(bib, "eprint        = {2401.01234}") {
			t.Fatalf("export of the selection (%s): %q", mode, bib)
		}
		setScripts(t, ctx, js)
		shootAll(t, ctx, !js, "library-"+mode, "library ("+mode+")")

		do(t, ctx, chromedp.Navigate(a.URL+"/settings/memories"))
		do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#new-memory-content`), "The user classifies stellar spectra for the "+mode+" Henry Draper catalogue."))
		navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-memory-form"] button[type="submit"]`)))
		waitUntil(t, ctx, "the added memory", `[...document.querySelectorAll('[data-testid="memory"] textarea')].some(e => e.value.includes("`+mode+` Henry Draper"))`)
		shootAll(t, ctx, !js, "memories-"+mode, "memories ("+mode+")")

		do(t, ctx, chromedp.Navigate(a.URL+"/research"))
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
		waitUntil(t, ctx, "the new session", `location.pathname.includes("/research/")`)
		do(t, ctx, chromedp.Navigate(a.URL+"/research"))
		shootAll(t, ctx, !js, "sessions-"+mode, "sessions list ("+mode+")")

		do(t, ctx, chromedp.Navigate(a.URL+"/"))
		shootAll(t, ctx, !js, "home-"+mode, "home ("+mode+")")
	}
	if bad := w.console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// TestBrowserNewcomerSession: a new session takes its first question as
// title live (heading, document title, sidebar), then the model's shorter
// title; with five questions the question box is reached with at most
// three Tab presses (the skip link); the page weighs at most 60 KB without
// math and fetches KaTeX only once a formula appears.
func TestBrowserNewcomerSession(t *testing.T) {
	w := newcomerApp(t)
	a, ctx, fake := w.app, w.ctx, w.fake

	do(t, ctx, chromedp.Navigate(a.URL+"/research"))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-session-form"] button[type="submit"]`)))
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)
	if h1 := readPage(t, ctx).H1; h1 != "Untitled session" {
		t.Fatalf("new session heading %q", h1)
	}
	const question = "What stops the cooling flow in the Perseus cluster?"
	fake.Enqueue(
		llmtest.Text("Heating by the central AGN, ", "through bubbles and sound waves.").WithDelay(400*time.Millisecond, 200*time.Millisecond),
		llmtest.Text("Perseus cooling flow"),
	)
	askQuestion(t, ctx, question)
	waitUntil(t, ctx, "the question as title, live", `document.querySelector("main h1").textContent === "`+question+`" &&
		document.title.startsWith("`+question+`") &&
		document.querySelector('.session-links a[aria-current="page"]').textContent === "`+question+`"`)
	if done := evalJS[bool](t, ctx, `!!document.querySelector('#timeline [data-testid="done"]')`); done {
		t.Log("the turn ended before the title was checked (the title still came live)")
	}
	waitUntil(t, ctx, "the model's title, live", `document.querySelector("main h1").textContent === "Perseus cooling flow" &&
		document.title.startsWith("Perseus cooling flow") &&
		document.querySelector('.session-links a[aria-current="page"]').textContent === "Perseus cooling flow"`)

	for i := 2; i <= 5; i++ {
		fake.Enqueue(llmtest.Text(fmt.Sprintf("Answer number %d, without formulas.", i)))
		askQuestion(t, ctx, fmt.Sprintf("Follow-up question %d?", i))
		waitUntil(t, ctx, "the answer", fmt.Sprintf(`document.querySelectorAll('#timeline [data-testid="done"]').length === %d`, i))
	}

	session := coldWeight(t, ctx, a.URL+readPage(t, ctx).Path)
	t.Logf("session page with five questions, no math: %s", session)
	if session.Total > sessionBudget || session.KaTeX {
		t.Errorf("session page transferred %d bytes (budget %d), KaTeX loaded: %v", session.Total, sessionBudget, session.KaTeX)
	}

	page := a.URL + strings.TrimPrefix(readPage(t, ctx).Path, a.BasePath) // no #fragment: a fresh load starts at the top
	for _, js := range []bool{true, false} {
		setScripts(t, ctx, js)
		for _, width := range newcomerWidths {
			do(t, ctx, chromedp.EmulateViewport(width, 800), chromedp.Navigate(page))
			waitUntil(t, ctx, "the page to load", `document.readyState === "complete"`)
			presses := tabsToQuestion(t, ctx)
			t.Logf("question box reached with %d Tab presses (width %d, JavaScript %v)", presses, width, js)
		}
	}
	setScripts(t, ctx, true)
	do(t, ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(page))
	waitUntil(t, ctx, "htmx and the timeline's stream", liveJS)

	// A formula: KaTeX is fetched then, and renders it.
	fake.Enqueue(llmtest.Text("The cooling time is $t_{cool} \\propto T^{1/2}/n$."))
	askQuestion(t, ctx, "How long is the cooling time?")
	waitUntil(t, ctx, "the formula rendered by KaTeX", `!!window.katex && !!document.querySelector('#timeline span.math[data-rendered] .katex')`)
	shootAll(t, ctx, false, "session-js", "session page")
	setScripts(t, ctx, false)
	do(t, ctx, chromedp.Reload())
	shootAll(t, ctx, true, "session-nojs", "session page without JavaScript")
	if bad := w.console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// tabsToQuestion presses Tab from the top of the page until the "Skip to
// the question" link has the focus, follows it with Enter and fails unless
// the question box then has the focus after at most three Tab presses.
func tabsToQuestion(t *testing.T, ctx context.Context) int {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0)`))
	var seen []string
	for n := 1; n <= 3; n++ {
		f := pressTab(t, ctx)
		seen = append(seen, f.String())
		if f.Text == "Skip to the question" {
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
			id := evalJS[string](t, ctx, `document.activeElement ? document.activeElement.id : ""`)
			if id != "question" {
				t.Fatalf("the skip link left the focus on %q, want the question box", id)
			}
			return n
		}
	}
	t.Fatalf("three Tab presses did not reach the skip link to the question: %s", strings.Join(seen, " → "))
	return 0
}

// checkSecret checks a one-time secret block: near the top of the window,
// its field focused with the whole value selected; with JavaScript a Copy
// button that copies (or says to press Ctrl+C) and leaves the value
// selected; without it no button.
func checkSecret(t *testing.T, ctx context.Context, testID string, js bool) {
	t.Helper()
	type secret struct {
		Top      float64 `json:"top"`
		Bottom   float64 `json:"bottom"`
		Height   float64 `json:"height"`
		First    bool    `json:"first"`
		Focused  bool    `json:"focused"`
		Selected bool    `json:"selected"`
		Value    string  `json:"value"`
		Button   bool    `json:"button"`
	}
	// The window of the report (1280 × 757).
	do(t, ctx, chromedp.EmulateViewport(1280, 757))
	// autofocus is applied at the next rendering update after the load.
	deadline := time.Now().Add(3 * time.Second)
	for !evalJS[bool](t, ctx, `document.activeElement === document.getElementById("secret-value")`) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	s := evalJS[secret](t, ctx, `(() => {
		const box = document.querySelector('[data-testid="`+testID+`"]'), f = document.getElementById("secret-value");
		const b = box.querySelector('[data-testid="copy-button"]');
		// first: nothing of the page's own content comes before the block
		// but the page heading.
		const before = [...document.querySelectorAll("main section, main form, main table")].filter(e =>
			e !== box && !box.contains(e) && !e.contains(box) && (e.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING));
		const r = box.getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, first: before.length === 0, height: innerHeight, focused: document.activeElement === f,
			selected: f.selectionStart === 0 && f.selectionEnd === f.value.length, value: f.value, button: !!b && !b.hidden && b.offsetParent !== null};
	})()`)
	// At the top: before the rest of the page and wholly in the first
	// screen, whatever the header's height.
	if s.Value == "" || s.Top < 0 || s.Top > s.Height/2 || s.Bottom > s.Height || !s.First || !s.Focused {
		t.Fatalf("%s: the secret block is at %v–%v px of a %v px window, first on the page: %v, field focused: %v, value %q",
			testID, s.Top, s.Bottom, s.Height, s.First, s.Focused, s.Value)
	}
	if s.Button != js {
		t.Fatalf("%s: Copy button shown: %v, want %v (JavaScript %v)", testID, s.Button, js, js)
	}
	if !js {
		return
	}
	if !s.Selected {
		t.Fatalf("%s: the value is not selected", testID)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="`+testID+`"] [data-testid="copy-button"]`)))
	waitUntil(t, ctx, "the copy outcome", `document.querySelector('[data-testid="copy-status"]').textContent !== ""`)
	status := evalJS[string](t, ctx, `document.querySelector('[data-testid="copy-status"]').textContent`)
	still := evalJS[bool](t, ctx, `(() => { const f = document.getElementById("secret-value");
		return document.activeElement === f && f.selectionStart === 0 && f.selectionEnd === f.value.length; })()`)
	t.Logf("%s: Copy says %q", testID, status)
	if !still {
		t.Fatalf("%s: after Copy the value is not focused and selected", testID)
	}
}

// pageWeight is what a cold load of a page transferred.
type pageWeight struct {
	Total    int      `json:"total"`
	Document int      `json:"document"`
	Files    []string `json:"files"`
	KaTeX    bool     `json:"katex"`
}

func (p pageWeight) String() string {
	return fmt.Sprintf("%d bytes transferred (document %d; %s)", p.Total, p.Document, strings.Join(p.Files, ", "))
}

// coldWeight loads url with the browser cache off and sums the bytes the
// page and its resources transferred (headers included).
func coldWeight(t *testing.T, ctx context.Context, url string) pageWeight {
	t.Helper()
	setCache := func(off bool) {
		do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: off})
			return err
		}))
	}
	setCache(true)
	defer setCache(false)
	do(t, ctx, chromedp.Navigate(url))
	waitUntil(t, ctx, "the page to load", `document.readyState === "complete"`)
	time.Sleep(300 * time.Millisecond) // late resources (scripts that fetch more)
	return evalJS[pageWeight](t, ctx, `(() => {
		const nav = performance.getEntriesByType("navigation")[0];
		const res = performance.getEntriesByType("resource");
		const files = res.map(r => r.name.replace(/^.*\/static\//, "") + " " + r.transferSize);
		return {document: nav.transferSize, total: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
			files: files, katex: res.some(r => r.name.includes("katex"))};
	})()`)
}

// setScripts turns the page's JavaScript on or off (the next navigation
// takes it).
func setScripts(t *testing.T, ctx context.Context, on bool) {
	t.Helper()
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	}))
}

// shootAll checks the current page at every width: axe with the WCAG 2.2
// AA rules, and a full-page screenshot to /tmp/i18-<name>-<width>.png.
func shootAll(t *testing.T, ctx context.Context, scriptsOff bool, name, page string) {
	t.Helper()
	if scriptsOff {
		// axe needs scripts (and timers) to run: turned on without a
		// reload, the page's own scripts stay unrun and the DOM is the
		// one a browser without JavaScript shows.
		setScripts(t, ctx, true)
		defer setScripts(t, ctx, false)
	}
	for _, width := range newcomerWidths {
		do(t, ctx, chromedp.EmulateViewport(width, 800))
		checkA11y22(t, ctx, fmt.Sprintf("%s at %d px", page, width))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot of %s: %v", page, err)
		}
		file := filepath.Join(os.TempDir(), fmt.Sprintf("i18-%s-%d.png", name, width))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do(t, ctx, chromedp.EmulateViewport(1280, 800))
}

// axeRun22JS is axeRunJS with the WCAG 2.2 AA rules added.
const axeRun22JS = `axe.run(document, {
	resultTypes: ["violations"],
	runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || "", help: v.help,
	nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ")),
})))`

// checkA11y22 is checkA11y with the WCAG 2.2 AA rules: serious and
// critical violations fail the test, lesser ones are logged.
func checkA11y22(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	src, err := axeSource()
	if err != nil {
		t.Fatalf("axe-core is missing (run make vendor / npm ci): %v", err)
	}
	waitUntil(t, ctx, "the page to load", `document.readyState === "complete"`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe ? true : (() => { `+src+`; return true; })()`)); err != nil {
		t.Fatalf("inject axe-core into %s: %v", page, err)
	}
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](axeRun22JS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", page, err)
	}
	t.Logf("axe (WCAG 2.2 AA) on %s: %d violation(s)", page, len(vs))
	for _, v := range vs {
		msg := page + ": " + v.Impact + " " + v.ID + " (" + v.Help + "): " + strings.Join(v.Nodes, " | ")
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// submitExpect runs an action that submits a form and waits for the page,
// which must answer with status.
func submitExpect(t *testing.T, ctx context.Context, trigger chromedp.Action[chromedp.Void], status int64) {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, trigger)
	if err != nil {
		t.Fatalf("navigation: %v", err)
	}
	if resp.Status != status {
		t.Fatalf("navigation ended at %s with status %d, want %d", resp.URL, resp.Status, status)
	}
}

// evalJS evaluates a JavaScript expression, failing the test on error.
func evalJS[T any](t *testing.T, ctx context.Context, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatalf("evaluate %.80s…: %v", js, err)
	}
	return v
}
