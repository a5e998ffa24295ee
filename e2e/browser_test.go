package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// maxTabs bounds every "press Tab until ..." loop: the targets sit in the
// page header, a handful of stops from the top.
const maxTabs = 8

// TestBrowserFirstRunAndKeyboard walks a fresh install in a real browser:
// first-run setup, sign out, sign in, then keyboard-only navigation from
// the skip link through the main navigation to the Settings page.
func TestBrowserFirstRunAndKeyboard(t *testing.T) {
	a := startApp(t, nil)
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	const user, password = "ada", "correct horse battery"

	// A fresh install sends every visitor to the setup page.
	do(t, ctx, chromedp.Navigate(a.URL+"/"))
	expectPage(t, ctx, a.BasePath+"/setup", "Welcome to AstroResearch")
	submitCredentials(t, ctx, `[data-testid="setup-form"]`, user, password)
	expectPage(t, ctx, a.BasePath+"/", "Hello, "+user)

	// Sign out, then back in.
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`form.logout button[type="submit"]`)))
	expectPage(t, ctx, a.BasePath+"/login", "Sign in")
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)
	expectPage(t, ctx, a.BasePath+"/", "Hello, "+user)

	// Keyboard only from a fresh page load: no clicks from here on.
	do(t, ctx, chromedp.Navigate(a.URL+"/"))
	if f := pressTab(t, ctx); f.Tag != "A" || !f.hasClass("skip-link") {
		t.Fatalf("first Tab focused %s, want the skip link (a.skip-link)", f)
	}
	tabUntil(t, ctx, "a link in the main navigation", func(f focused) bool { return f.InMainNav })
	tabUntil(t, ctx, "the Settings link in the main navigation", func(f focused) bool {
		return f.InMainNav && f.Text == "Settings"
	})
	navigateBy(t, ctx, chromedp.KeyEvent(kb.Enter))
	expectPage(t, ctx, a.BasePath+"/settings", "Settings")

	for _, m := range console.all() {
		t.Logf("browser console: %s", m)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("the pages reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}

// submitCredentials types a username and password into the form and
// submits it with its submit button, waiting for the resulting page.
func submitCredentials(t *testing.T, ctx context.Context, form, user, password string) {
	t.Helper()
	do(t, ctx,
		chromedp.WaitVisible(chromedp.CSS(form)),
		chromedp.SendKeys(chromedp.CSS(form+" #username"), user),
		chromedp.SendKeys(chromedp.CSS(form+" #password"), password),
	)
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(form+` button[type="submit"]`)))
}

// navigateBy runs an action that navigates (a click, a key press) and waits
// for the new page, which must answer 200 after any redirects.
func navigateBy(t *testing.T, ctx context.Context, trigger chromedp.Action[chromedp.Void]) {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, trigger)
	if err != nil {
		t.Fatalf("navigation: %v", err)
	}
	if resp.Status != http.StatusOK {
		t.Fatalf("navigation ended at %s with status %d, want 200", resp.URL, resp.Status)
	}
}

// do runs browser actions, failing the test on error.
func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// pageInfo is what expectPage reads from the current page.
type pageInfo struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	H1    string `json:"h1"`
}

const pageInfoJS = `({
	path: location.pathname,
	title: document.title,
	h1: (document.querySelector("main h1") || {textContent: ""}).textContent.trim(),
})`

// expectPage checks the current page's path, main heading and title.
func expectPage(t *testing.T, ctx context.Context, path, h1 string) {
	t.Helper()
	p, err := chromedp.Run(ctx, chromedp.Evaluate[pageInfo](pageInfoJS))
	if err != nil {
		t.Fatalf("read page: %v", err)
	}
	if p.Path != path || p.H1 != h1 {
		t.Fatalf("on %s with heading %q, want %s with heading %q", p.Path, p.H1, path, h1)
	}
	if !strings.Contains(p.Title, "AstroResearch") {
		t.Errorf("page %s has title %q, want it to contain AstroResearch", p.Path, p.Title)
	}
}

// focused describes document.activeElement.
type focused struct {
	Tag       string `json:"tag"`
	Class     string `json:"class"`
	Text      string `json:"text"`
	Href      string `json:"href"`
	InMainNav bool   `json:"inMainNav"`
}

func (f focused) hasClass(c string) bool { return strings.Contains(" "+f.Class+" ", " "+c+" ") }

func (f focused) String() string {
	if f.Tag == "" {
		return "nothing"
	}
	return "<" + strings.ToLower(f.Tag) + ` class="` + f.Class + `" href="` + f.Href + `">` + f.Text
}

const focusedJS = `(() => {
	const e = document.activeElement;
	if (!e || e === document.body) return {tag: "", class: "", text: "", href: "", inMainNav: false};
	return {
		tag: e.tagName,
		class: String(e.className || ""),
		text: (e.textContent || "").trim(),
		href: e.getAttribute("href") || "",
		inMainNav: !!e.closest('nav[aria-label="Main"]'),
	};
})()`

// pressTab presses Tab once and returns the newly focused element.
func pressTab(t *testing.T, ctx context.Context) focused {
	t.Helper()
	do(t, ctx, chromedp.KeyEvent(kb.Tab))
	f, err := chromedp.Run(ctx, chromedp.Evaluate[focused](focusedJS))
	if err != nil {
		t.Fatalf("read focus: %v", err)
	}
	return f
}

// tabUntil presses Tab until want accepts the focused element, at most
// maxTabs times.
func tabUntil(t *testing.T, ctx context.Context, what string, want func(focused) bool) {
	t.Helper()
	var seen []string
	for range maxTabs {
		f := pressTab(t, ctx)
		if want(f) {
			return
		}
		seen = append(seen, f.String())
	}
	t.Fatalf("%d Tabs did not reach %s; focus went: %s", maxTabs, what, strings.Join(seen, " → "))
}
