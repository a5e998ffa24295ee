package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestBrowserAskLibrary: import and parse a paper (it is indexed in the
// background, with embeddings from the fake model), ask the library a
// question, get an answer whose citation opens the reader scrolled to the
// highlighted passage — without a CSP violation.
func TestBrowserAskLibrary(t *testing.T) {
	ax := fakeArxivHTML(t)
	fake := llmtest.New(t)
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_HTML_URL": ax.URL + "/html", "AR5IV_URL": ax.URL + "/ar5iv",
		"LLM_BASE_URL": fake.URL(), "LLM_MODEL": "test-model", "EMBEDDING_MODEL": "embed-test"})
	console := &consoleLog{}
	ctx := newBrowser(t, console)
	do(t, ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, ctx, `[data-testid="login-form"]`, user, password)

	do(t, ctx, chromedp.Navigate(a.URL+"/library"))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`), "2401.01234"))
	navigateBy(t, ctx, chromedp.Submit(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`)))
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="parse-form"] button`)))
	waitUntil(t, ctx, "the paper to be parsed", `!!document.querySelector('[data-testid="read-link"]')`)

	// Parsing queued the paper for indexing; the library page says when it
	// is under way and that meaning-based search is on.
	deadline := time.Now().Add(15 * time.Second)
	for {
		navigateBy(t, ctx, chromedp.Navigate(a.URL+"/library"))
		busy, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="index-progress"]')`))
		if err != nil {
			t.Fatal(err)
		}
		if !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the paper was not indexed")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if kw, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="keyword-only"]')`)); kw {
		t.Error("keyword-only notice shown although EMBEDDING_MODEL is set")
	}

	// Ask (htmx): the fake model answers citing passage 1.
	fake.Enqueue(llmtest.Text("Dust shapes what we see of early galaxies [1]. Its slope $\\beta$ is steep [1]. The moon is made of cheese."))
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	// "Ask my library" is folded until it has an answer: open it as a user would.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="ask-library"] > summary`)))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#ask-question`), "What shapes what we see of early galaxies?"))
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="ask-form"] button[type="submit"]`)))
	waitUntil(t, ctx, "the answer", `!!document.querySelector('[data-testid="answer-text"] a[data-testid="citation"]')`)
	if same, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__sameDocument === true`)); !same {
		t.Error("asking reloaded the page instead of swapping in the answer")
	}
	answer, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="answer-text"]').textContent`))
	if err != nil || !strings.Contains(answer, "Dust shapes what we see of early galaxies.") || strings.Contains(answer, "cheese") {
		t.Fatalf("answer %q (%v)", answer, err)
	}
	waitUntil(t, ctx, "KaTeX to render the answer's formula", `!!document.querySelector('[data-testid="answer-text"] .katex')`)
	source, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="passage"] blockquote').textContent`))
	if err != nil || !strings.Contains(source, "Dust shapes") {
		t.Fatalf("source [1] %q (%v)", source, err)
	}

	// The citation opens the reader at the passage, highlighted and in view.
	navigateBy(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="answer-text"] a[data-testid="citation"]`)))
	type landing struct {
		Hash, Search, Text string
		InView             bool
	}
	waitUntil(t, ctx, "the highlighted passage", `!!document.querySelector('#reader-text .passage')`)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[landing](`(() => {
		const el = document.querySelector(location.hash);
		const r = el.getBoundingClientRect();
		return {hash: location.hash, search: location.search, text: el.textContent,
			inView: el.classList.contains('passage') && r.top >= -1 && r.top < innerHeight};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Hash, "#passage-") || got.Search != "?passage="+strings.TrimPrefix(got.Hash, "#passage-") ||
		!strings.Contains(got.Text, "Dust shapes what we see") || !got.InView {
		t.Fatalf("landed on %+v", got)
	}
	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}
