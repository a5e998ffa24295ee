package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// readerPlace is where the reader is: the scroll offset, a marker that a
// page load would lose, and the URL.
type readerPlace struct {
	ScrollY float64 `json:"scrollY"`
	Marker  bool    `json:"marker"`
	URL     string  `json:"url"`
}

const placeJS = `({scrollY: scrollY, marker: window.readerTestMarker === true, url: location.href})`

func place(t *testing.T, ctx context.Context) readerPlace {
	t.Helper()
	p, err := chromedp.Run(ctx, chromedp.Evaluate[readerPlace](placeJS))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// goDeep scrolls the paragraph of field s, paragraph p into the middle of
// the window and leaves a marker on the page.
func goDeep(t *testing.T, ctx context.Context, s, p int) readerPlace {
	t.Helper()
	start := "Field " + strconv.Itoa(s) + " paragraph " + strconv.Itoa(p) + " sentence 1"
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const p = [...document.querySelectorAll('#reader-text p')].find(p => p.textContent.startsWith(`+strconv.Quote(start)+`));
		if (!p) return false;
		p.scrollIntoView({block: "center"});
		window.readerTestMarker = true;
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("no paragraph %q (%v)", start, err)
	}
	return place(t, ctx)
}

// selectWords selects the first n characters of the paragraph that starts
// with start, as a mouse would.
func selectWords(t *testing.T, ctx context.Context, start string, n int) {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const p = [...document.querySelectorAll('#reader-text p')].find(p => p.textContent.startsWith(`+strconv.Quote(start)+`));
		if (!p) return false;
		const r = document.createRange();
		r.setStart(p.firstChild, 0); r.setEnd(p.firstChild, `+strconv.Itoa(n)+`);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		p.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("select %q: %v", start, err)
	}
}

// checkSamePlace: no page load happened and the window did not move.
func checkSamePlace(t *testing.T, ctx context.Context, how string, before readerPlace) {
	t.Helper()
	after := place(t, ctx)
	if !after.Marker || after.URL != before.URL || after.ScrollY < before.ScrollY-2 || after.ScrollY > before.ScrollY+2 {
		t.Errorf("%s: the reader moved: before %+v, after %+v", how, before, after)
	}
}

const (
	barShownJS  = `document.getElementById('highlight-button').getClientRects().length > 0 && document.getElementById('note-button').getClientRects().length > 0`
	barHiddenJS = `document.getElementById('selection-actions').getClientRects().length === 0`
	hintShownJS = `document.getElementById('selection-hint').getClientRects().length > 0`
)

// TestBrowserReaderNotesKeepPlace: with JavaScript, deep in a long paper,
// the selection bar appears only while text is selected (the notes panel
// says how to select otherwise); a highlight and a note saved from it and
// a note deleted from the panel are swapped in by htmx — marked in the
// text, listed, announced — while the page neither reloads nor scrolls, at
// 1280 px and on a phone.
func TestBrowserReaderNotesKeepPlace(t *testing.T) {
	r := openLongReader(t, "cecilia", "stellar-atmospheres")
	ctx := r.ctx
	r.load(t, "", true)

	// Nothing selected: no buttons, a hint.
	waitUntil(t, ctx, "the selection hint", hintShownJS+` && `+barHiddenJS)

	before := goDeep(t, ctx, 6, 3)
	if before.ScrollY < 2000 {
		t.Fatalf("the paper is too short to test the place: scrolled to %.0f px", before.ScrollY)
	}
	quote := "Field 6 paragraph 3 sentence 1: the dust"
	selectWords(t, ctx, "Field 6 paragraph 3 sentence 1", len(quote))
	waitUntil(t, ctx, "the selection bar", barShownJS)
	r.screenshot(t, "1280-js-selection")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#highlight-button`)))
	waitUntil(t, ctx, "the highlight marked and listed", `(() => {
		const m = document.querySelector('#reader-text mark.highlight');
		return !!m && m.textContent === `+strconv.Quote(quote)+` &&
			document.querySelectorAll('[data-testid="note"].note-highlight').length === 1 })()`)
	waitUntil(t, ctx, "the status and the bar gone", `document.getElementById('reader-status').textContent === 'Highlight saved.' && `+barHiddenJS)
	checkSamePlace(t, ctx, "after a highlight", before)

	// A note on another passage, written in the selection bar.
	quote2 := "Field 6 paragraph 4 sentence 1: the dust in these galaxies"
	selectWords(t, ctx, "Field 6 paragraph 4 sentence 1", len(quote2))
	waitUntil(t, ctx, "the selection bar", barShownJS)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#note-button`)))
	waitUntil(t, ctx, "the note field", `document.activeElement === document.getElementById('selection-body')`)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#selection-body`), "Stronger than in *field 3*."))
	r.screenshot(t, "1280-js-note")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#selection-save`)))
	waitUntil(t, ctx, "the note marked and listed", `document.querySelectorAll('#reader-text mark.highlight').length === 2 &&
		[...document.querySelectorAll('[data-testid="note"].note-note [data-testid="note-body"] em')].some(e => e.textContent === 'field 3')`)
	waitUntil(t, ctx, "the status", `document.getElementById('reader-status').textContent === 'Note saved.' && `+barHiddenJS)
	checkSamePlace(t, ctx, "after a note", before)

	// Delete the highlight from the panel.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="note"].note-highlight [data-testid="note-delete"]`)))
	waitUntil(t, ctx, "the highlight gone", `document.querySelectorAll('[data-testid="note"]').length === 1 &&
		document.querySelectorAll('#reader-text mark.highlight').length === 1 &&
		document.getElementById('reader-status').textContent === 'Note deleted.'`)
	checkSamePlace(t, ctx, "after deleting a note", before)
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('notes-count').textContent`)); n != "(1)" {
		t.Errorf("the notes panel counts %q after a delete, want (1)", n)
	}
	if f, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id || document.activeElement.tagName : ""`)); f == "BODY" || f == "" {
		t.Errorf("after the delete the focus is on %q, want it kept in the notes panel", f)
	}

	// Selection cleared: the bar goes, the hint stays.
	selectWords(t, ctx, "Field 6 paragraph 5 sentence 1", 20)
	waitUntil(t, ctx, "the selection bar", barShownJS)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(getSelection().removeAllRanges(), true)`)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, ctx, "the bar gone with the selection", barHiddenJS+` && `+hintShownJS)

	// On a phone.
	r.viewport(t, phoneWidth, phoneHeight)
	r.load(t, "", true)
	before = goDeep(t, ctx, 8, 2)
	quote3 := "Field 8 paragraph 2 sentence 1: the dust"
	selectWords(t, ctx, "Field 8 paragraph 2 sentence 1", len(quote3))
	waitUntil(t, ctx, "the selection bar on a phone", barShownJS)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#note-button`)))
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#selection-body`), "Phone note."))
	r.screenshot(t, "390-js-note")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#selection-save`)))
	waitUntil(t, ctx, "the phone note marked", `[...document.querySelectorAll('#reader-text mark.highlight')].some(m => m.textContent === `+strconv.Quote(quote3)+`)`)
	checkSamePlace(t, ctx, "after a note on a phone", before)

	// Dark mode has its own colours for the marks and the panels.
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	r.load(t, "", true)
	waitUntil(t, ctx, "the marks in dark mode", `document.querySelectorAll('#reader-text mark.highlight').length === 2`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('#reader-text mark.highlight').scrollIntoView({block: "center"}), true)`)); err != nil {
		t.Fatal(err)
	}
	r.screenshot(t, "390-js-dark")
	checkA11yWCAG22(t, ctx, "reader with notes in dark mode at 390 px")
	if bad := r.console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
	if strings.Contains(place(t, ctx).URL, "#") {
		t.Errorf("the URL gained a fragment: %s", place(t, ctx).URL)
	}
}
