package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// scrollRegion is a region of the text that scrolls sideways.
type scrollRegion struct {
	Label    string `json:"label"`
	Role     string `json:"role"`
	Tabindex string `json:"tabindex"`
	Wide     bool   `json:"wide"`
}

const scrollRegionsJS = `[...document.querySelectorAll('#reader-text .reader-scroll, #reader-text .math-display')]
	.filter(e => e.scrollWidth > e.clientWidth + 1)
	.map(e => ({label: e.getAttribute('aria-label') || "", role: e.getAttribute('role') || "", tabindex: e.getAttribute('tabindex') || "", wide: true}))`

// TestBrowserReaderWideContent: a table and a display formula wider than
// the column scroll sideways in named regions that Tab reaches and the
// arrow keys scroll (axe's scrollable-region-focusable, part of the WCAG
// 2.2 run), at 1280 px and on a phone, where the table stays a table; a
// passage selected across an inline formula is saved as its words
// without the formula's TeX or KaTeX's copy of it, marked in the text,
// and the focus goes to the notes, not to the page; a delete the server
// refuses is announced.
func TestBrowserReaderWideContent(t *testing.T) {
	r := openLongReader(t, "williamina", "white-dwarfs")
	ctx := r.ctx
	r.load(t, "#sec-11-wide-material", true)
	waitUntil(t, ctx, "the wide formula made focusable", `!!document.querySelector('#reader-text .math-display[data-scroll="on"][tabindex="0"][role="region"]')`)
	checkScrollRegions(t, r, "1280 px")
	checkA11yWCAG22(t, ctx, "reader with wide content at 1280 px")

	// Keyboard: Tab from the section heading reaches the table's region;
	// the right arrow scrolls it.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const h = document.getElementById('sec-11-wide-material'); h.tabIndex = -1; h.focus(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		do(t, ctx, chromedp.KeyEvent(kb.Tab))
		if on, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement.classList.contains('reader-scroll')`)); on {
			break
		}
	}
	label, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.getAttribute('aria-label') || document.activeElement.tagName`))
	if !strings.HasPrefix(label, "Scrollable table") {
		t.Fatalf("Tab from the section's heading reached %q, want the wide table's region", label)
	}
	for range 5 {
		do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	}
	waitUntil(t, ctx, "the table scrolled by the arrow key", `document.activeElement.scrollLeft > 0`)

	// A selection across an inline formula.
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const p = [...document.querySelectorAll('#reader-text p')].find(p => p.textContent.startsWith('The slope'));
		if (!p || !p.querySelector('.katex')) return false;
		const last = p.lastChild;
		const r = document.createRange();
		r.setStart(p.firstChild, 0); r.setEnd(last, last.data.indexOf(' is steeper'));
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		p.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("select across the formula: %v (rendered: %v)", err, ok)
	}
	waitUntil(t, ctx, "the selection bar", barShownJS)
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#highlight-button`)), chromedp.KeyEvent(kb.Enter))
	waitUntil(t, ctx, "the highlight listed", `document.querySelectorAll('[data-testid="note"].note-highlight').length === 1`)
	quote, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="note"].note-highlight').getAttribute('data-quote')`))
	if quote != "The slope of the wide sample" {
		t.Errorf("the highlight's quote is %q, want the words without the formula", quote)
	}
	waitUntil(t, ctx, "the highlight marked around the formula", `[...document.querySelectorAll('#reader-text mark.highlight')].map(m => m.textContent).join(' ').replace(/\s+/g, ' ').trim() === 'The slope of the wide sample' &&
		!document.querySelector('#reader-text .math mark') && !!document.querySelector('#reader-text .math .katex')`)
	focus, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const e = document.activeElement;
		return !e || e === document.body ? "body" : e.closest('#selection-actions') ? "hidden bar" : e.id || e.tagName; })()`))
	if focus != "notes-body" {
		t.Errorf("after a highlight saved from the keyboard the focus is on %q, want the notes panel's body", focus)
	}

	// The highlight deleted elsewhere (another tab): deleting it here is
	// refused, and the status line says so instead of nothing happening.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => {
		const f = document.querySelector('[data-testid="note"].note-highlight form');
		return (await fetch(f.action, {method: 'POST', body: new FormData(f)})).status; })()`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="note"].note-highlight [data-testid="note-delete"]`)))
	waitUntil(t, ctx, "the refusal announced", `document.getElementById('reader-status').textContent.startsWith('That note is no longer there')`)

	// On a phone: the regions still scroll, and the table is a table.
	r.viewport(t, phoneWidth, phoneHeight)
	r.load(t, "#sec-11-wide-material", true)
	waitUntil(t, ctx, "the wide formula made focusable", `!!document.querySelector('#reader-text .math-display[data-scroll="on"]')`)
	checkScrollRegions(t, r, "390 px")
	if cell, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('#reader-text .reader-scroll td')).display`)); cell != "table-cell" {
		t.Errorf("on a phone the table's cells are display %q, want table-cell", cell)
	}
	if g := r.geometry(t); g.PageWidth > g.ClientWide {
		t.Errorf("on a phone the page is %.0f px wide in a %.0f px window", g.PageWidth, g.ClientWide)
	}
	checkA11yWCAG22(t, ctx, "reader with wide content at 390 px")
	if bad := r.console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}

// checkScrollRegions: the table and the formula overflow the column, and
// each that does is a named region in the tab order.
func checkScrollRegions(t *testing.T, r *reader, how string) {
	t.Helper()
	regions, err := chromedp.Run(r.ctx, chromedp.Evaluate[[]scrollRegion](scrollRegionsJS))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: regions that scroll sideways: %+v", how, regions)
	var table, formula bool
	for _, g := range regions {
		table = table || strings.HasPrefix(g.Label, "Scrollable table")
		formula = formula || strings.HasPrefix(g.Label, "Scrollable formula")
		if g.Role != "region" || g.Tabindex != "0" || g.Label == "" {
			t.Errorf("%s: a region that scrolls sideways is not a named, focusable region: %+v", how, g)
		}
	}
	if !table || !formula {
		t.Errorf("%s: want both the table and the formula wider than the column: %+v", how, regions)
	}
}
