package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The reader's viewports: a laptop window and a phone.
const (
	wideWidth, wideHeight     = 1280, 800
	phoneWidth, phoneHeight   = 390, 844
	longSections, longParas   = 8, 6
	sentencesPerLongParagraph = 7
)

// longPaperHTML is the parse fixture made as long as a real paper: more
// sections, each of several paragraphs of plain sentences (distinct, so a
// quote is found once).
func longPaperHTML(t *testing.T) []byte {
	t.Helper()
	page, err := os.ReadFile("../research/parse/testdata/arxiv_2401.01234.html")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for s := 3; s < 3+longSections; s++ {
		fmt.Fprintf(&b, `<section class="ltx_section" id="S%d"><h2 class="ltx_title ltx_title_section"><span class="ltx_tag ltx_tag_section">%d </span>Observations of field %d</h2>`, s, s, s)
		for p := 1; p <= longParas; p++ {
			fmt.Fprintf(&b, `<div class="ltx_para" id="S%d.p%d"><p class="ltx_p">`, s, p)
			for k := 1; k <= sentencesPerLongParagraph; k++ {
				fmt.Fprintf(&b, "Field %d paragraph %d sentence %d: the dust in these galaxies reddens their ultraviolet light more than the local law predicts, and the scatter between objects is large. ", s, p, k)
			}
			b.WriteString("</p></div>")
		}
		b.WriteString("</section>\n")
	}
	b.WriteString(wideSectionHTML())
	return []byte(strings.Replace(string(page), `<section class="ltx_bibliography" id="bib">`, b.String()+`<section class="ltx_bibliography" id="bib">`, 1))
}

// wideSectionHTML is a last section with what is wider than the text
// column — a table of many columns and a long display formula — and a
// sentence with an inline formula in it.
func wideSectionHTML() string {
	var b strings.Builder
	s := 3 + longSections
	fmt.Fprintf(&b, `<section class="ltx_section" id="S%d"><h2 class="ltx_title ltx_title_section"><span class="ltx_tag ltx_tag_section">%d </span>Wide material</h2>`, s, s)
	fmt.Fprintf(&b, `<div class="ltx_para" id="S%d.p1"><p class="ltx_p">The slope <math alttext="\beta_{\rm UV}" class="ltx_Math" display="inline"><semantics><mi>β</mi><annotation encoding="application/x-tex">\beta_{\rm UV}</annotation></semantics></math> of the wide sample is steeper than in the local galaxies.</p></div>`, s)
	b.WriteString(`<table class="ltx_tabular ltx_centering ltx_align_middle" id="SW.T1"><tbody class="ltx_tbody"><tr class="ltx_tr">`)
	for c := 1; c <= 16; c++ {
		fmt.Fprintf(&b, `<td class="ltx_td">Wavelength%02d</td>`, c)
	}
	b.WriteString(`</tr><tr class="ltx_tr">`)
	for c := 1; c <= 16; c++ {
		fmt.Fprintf(&b, `<td class="ltx_td">%d.%03d</td>`, c, c*37)
	}
	b.WriteString(`</tr></tbody></table>`)
	var tex strings.Builder
	tex.WriteString(`F_{\rm total}=`)
	for k := 1; k <= 24; k++ {
		if k > 1 {
			tex.WriteString("+")
		}
		fmt.Fprintf(&tex, `a_{%d}\,x^{%d}`, k, k)
	}
	fmt.Fprintf(&b, `<table class="ltx_equation ltx_eqn_table" id="SW.E1"><tbody><tr class="ltx_equation ltx_eqn_row ltx_align_baseline"><td class="ltx_eqn_cell ltx_align_center"><math alttext="%s" class="ltx_Math" display="block"><semantics><mi>F</mi><annotation encoding="application/x-tex">%s</annotation></semantics></math></td><td class="ltx_eqn_cell ltx_eqn_eqno ltx_align_middle ltx_align_right" rowspan="1"><span class="ltx_tag ltx_tag_equation ltx_align_right">(9)</span></td></tr></tbody></table>`, tex.String(), tex.String())
	fmt.Fprintf(&b, `<div class="ltx_para" id="S%d.p2"><p class="ltx_p">The wide section ends here.</p></div></section>`+"\n", s)
	return b.String()
}

// reader is a browser signed in, on the reader of a long parsed paper.
type reader struct {
	app     *app
	ctx     context.Context
	console *consoleLog
	url     string // the reader's URL
}

// openLongReader imports the long paper through a fake arXiv, parses it
// and opens its reader in a fresh browser.
func openLongReader(t *testing.T, user, password string) *reader {
	t.Helper()
	idlist, err := os.ReadFile("../research/arxiv/testdata/idlist.xml")
	if err != nil {
		t.Fatal(err)
	}
	page := longPaperHTML(t)
	ax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/html/"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		case r.URL.Query().Get("id_list") != "":
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write(idlist)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ax.Close)
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password,
		"ARXIV_API_URL": ax.URL + "/api/query", "ARXIV_HTML_URL": ax.URL + "/html", "AR5IV_URL": ax.URL + "/ar5iv"})
	r := &reader{app: a, console: &consoleLog{}}
	r.ctx = newBrowser(t, r.console)
	do(t, r.ctx, chromedp.EmulateViewport(wideWidth, wideHeight))
	do(t, r.ctx, chromedp.Navigate(a.URL+"/login"))
	submitCredentials(t, r.ctx, `[data-testid="login-form"]`, user, password)
	do(t, r.ctx, chromedp.Navigate(a.URL+"/library"))
	do(t, r.ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`), "2401.01234"))
	navigateBy(t, r.ctx, chromedp.Submit(chromedp.CSS(`[data-testid="import-form"] input[name="ref"]`)))
	navigateBy(t, r.ctx, chromedp.Click(chromedp.CSS(`[data-testid="parse-form"] button`)))
	waitUntil(t, r.ctx, "the paper to be parsed", `!!document.querySelector('[data-testid="read-link"]')`)
	navigateBy(t, r.ctx, chromedp.Click(chromedp.CSS(`[data-testid="read-link"]`)))
	p := readPage(t, r.ctx)
	if !strings.HasSuffix(p.Path, "/read") {
		t.Fatalf("not on the reader: %+v", p)
	}
	r.url = a.URL + strings.TrimPrefix(p.Path, a.BasePath)
	return r
}

// viewport resizes the tab; phone sizes are emulated as a mobile device.
func (r *reader) viewport(t *testing.T, width, height int64) {
	t.Helper()
	if width < 600 {
		do(t, r.ctx, chromedp.EmulateViewport(width, height, chromedp.EmulatePortrait, chromedp.EmulateMobile))
	} else {
		do(t, r.ctx, chromedp.EmulateViewport(width, height))
	}
}

// scripts turns JavaScript on or off for the pages loaded from now on.
func (r *reader) scripts(t *testing.T, on bool) {
	t.Helper()
	do(t, r.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	}))
}

// load opens the reader (suffix: a query or fragment) and waits for it;
// with scripts, until the highlights are marked and math is rendered.
func (r *reader) load(t *testing.T, suffix string, scripts bool) {
	t.Helper()
	do(t, r.ctx, chromedp.Navigate(r.url+suffix))
	waitUntil(t, r.ctx, "the reader to load", `document.readyState === "complete"`)
	if scripts {
		waitUntil(t, r.ctx, "KaTeX", `document.querySelectorAll('#reader-text .katex').length >= 3`)
	}
}

// screenshot saves the visible window as a PNG under the temporary
// directory, for a person to look at; its path is logged.
func (r *reader) screenshot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(r.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := os.TempDir() + "/reader-" + name + ".png"
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// rect is an element's box in CSS pixels (the viewport's coordinates).
type rect struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// readerGeometry is the reader's layout as the browser computed it.
type readerGeometry struct {
	Text       rect    `json:"text"`
	TOC        rect    `json:"toc"`
	Notes      rect    `json:"notes"`
	TOCOpen    bool    `json:"tocOpen"`
	NotesOpen  bool    `json:"notesOpen"`
	LineChars  int     `json:"lineChars"`
	PageWidth  float64 `json:"pageWidth"`
	ClientWide float64 `json:"clientWidth"`
}

// geometryJS measures the panels and the text column, and counts the
// characters on the first line of a long paragraph of plain text.
const geometryJS = `(() => {
	const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY, width: r.width, height: r.height}; };
	const p = [...document.querySelectorAll('#reader-text p')].find(p => p.textContent.startsWith('Field 3 paragraph 1 sentence 1'));
	const node = p.firstChild, range = document.createRange();
	let chars = 0, top = null;
	for (let i = 0; i < node.data.length; i++) {
		range.setStart(node, i); range.setEnd(node, i + 1);
		const rs = range.getClientRects();
		if (!rs.length) continue;
		if (top === null) top = rs[0].top;
		if (rs[0].top > top + 2) break;
		chars++;
	}
	return {
		text: box(document.getElementById('reader-text')),
		toc: box(document.getElementById('toc-panel')),
		notes: box(document.getElementById('notes-panel')),
		tocOpen: document.getElementById('toc-panel').open,
		notesOpen: document.getElementById('notes-panel').open,
		lineChars: chars,
		pageWidth: document.documentElement.scrollWidth,
		clientWidth: document.documentElement.clientWidth,
	};
})()`

func (r *reader) geometry(t *testing.T) readerGeometry {
	t.Helper()
	g, err := chromedp.Run(r.ctx, chromedp.Evaluate[readerGeometry](geometryJS))
	if err != nil {
		t.Fatalf("measure the reader: %v", err)
	}
	return g
}

// checkWideLayout: at 1280 px the text column holds about 70 characters a
// line, with the open contents and notes panels beside it, not over it.
func checkWideLayout(t *testing.T, g readerGeometry, how string) {
	t.Helper()
	t.Logf("%s at %d px: text column %.0f px wide, %d characters on a line; contents %.0f px, notes %.0f px",
		how, wideWidth, g.Text.Width, g.LineChars, g.TOC.Width, g.Notes.Width)
	if g.LineChars < 60 || g.LineChars > 80 {
		t.Errorf("%s: %d characters on a line of the text, want about 70 (60–80)", how, g.LineChars)
	}
	if g.Text.Width < 560 {
		t.Errorf("%s: the text column is %.0f px wide, want at least 560", how, g.Text.Width)
	}
	if !g.TOCOpen || !g.NotesOpen {
		t.Errorf("%s: contents open %v, notes open %v; want both open beside the text", how, g.TOCOpen, g.NotesOpen)
	}
	if g.TOC.Right > g.Text.Left || g.Notes.Left < g.Text.Right {
		t.Errorf("%s: panels not beside the text: contents %+v, text %+v, notes %+v", how, g.TOC, g.Text, g.Notes)
	}
	if g.PageWidth > g.ClientWide {
		t.Errorf("%s: the page is %.0f px wide in a %.0f px window", how, g.PageWidth, g.ClientWide)
	}
}

// checkPhoneLayout: at 390 px the panels are stacked above the text (open
// as wanted) and nothing is wider than the window.
func checkPhoneLayout(t *testing.T, g readerGeometry, how string, open bool) {
	t.Helper()
	t.Logf("%s at %d px: text column %.0f px wide, %d characters on a line; contents %.0f×%.0f, notes %.0f×%.0f",
		how, phoneWidth, g.Text.Width, g.LineChars, g.TOC.Width, g.TOC.Height, g.Notes.Width, g.Notes.Height)
	if g.TOCOpen != open || g.NotesOpen != open {
		t.Errorf("%s: contents open %v, notes open %v; want %v", how, g.TOCOpen, g.NotesOpen, open)
	}
	if !(g.TOC.Bottom <= g.Notes.Top && g.Notes.Bottom <= g.Text.Top) {
		t.Errorf("%s: want contents, then notes, then the text: contents %+v, notes %+v, text %+v", how, g.TOC, g.Notes, g.Text)
	}
	if g.Text.Width < float64(phoneWidth)-60 || g.TOC.Width < float64(phoneWidth)-60 {
		t.Errorf("%s: text %.0f px and panels %.0f px wide in a %d px window", how, g.Text.Width, g.TOC.Width, phoneWidth)
	}
	if g.PageWidth > g.ClientWide {
		t.Errorf("%s: the page is %.0f px wide in a %.0f px window", how, g.PageWidth, g.ClientWide)
	}
}

// checkTargetSizes: every contents link is at least 24 × 24 px (WCAG 2.2,
// 2.5.8 Target Size (Minimum)).
func checkTargetSizes(t *testing.T, ctx context.Context, how string) {
	t.Helper()
	small, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-testid="reader-toc"] a')]
		.map(a => [a, a.getBoundingClientRect()]).filter(([a, r]) => r.width < 24 || r.height < 24)
		.map(([a, r]) => a.textContent + ": " + r.width.toFixed(1) + "×" + r.height.toFixed(1))`))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="reader-toc"] a').length`))
	if n < longSections+3 {
		t.Fatalf("%s: %d contents links, want at least %d", how, n, longSections+3)
	}
	if len(small) > 0 {
		t.Errorf("%s: contents links smaller than 24 × 24 px: %v", how, small)
	}
}

// axeWCAG22JS runs axe's WCAG 2.2 A/AA rules (target size among them),
// the 2.0/2.1 ones and the best practices.
const axeWCAG22JS = `axe.run(document, {
	resultTypes: ["violations"],
	runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]},
}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || "", help: v.help,
	nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ")),
})))`

// checkA11yWCAG22 is checkA11y with the WCAG 2.2 AA rules: every serious
// or critical violation, and every target-size one, fails the test.
func checkA11yWCAG22(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	src, err := axeSource()
	if err != nil {
		t.Fatalf("axe-core is missing (run make vendor / npm ci): %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.axe ? true : (() => { `+src+`; return true; })()`)); err != nil {
		t.Fatalf("inject axe-core into %s: %v", page, err)
	}
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](axeWCAG22JS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", page, err)
	}
	t.Logf("axe (WCAG 2.2 AA) on %s: %d violation(s)", page, len(vs))
	for _, v := range vs {
		msg := page + ": " + v.Impact + " " + v.ID + " (" + v.Help + "): " + strings.Join(v.Nodes, " | ")
		if v.Impact == "serious" || v.Impact == "critical" || v.ID == "target-size" {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
}

// TestBrowserReaderLayout measures the reader with JavaScript: at 1280 px
// a text column of about 70 characters between the open panels, which
// collapse without moving the text; at 390 px the panels closed and
// stacked above the text; contents links of at least 24 × 24 px; axe with
// the WCAG 2.2 AA rules at both sizes. Screenshots go to the temporary
// directory.
func TestBrowserReaderLayout(t *testing.T) {
	r := openLongReader(t, "henrietta", "period-luminosity")
	r.load(t, "", true)
	g := r.geometry(t)
	checkWideLayout(t, g, "with JavaScript")
	checkTargetSizes(t, r.ctx, "1280 px")
	r.screenshot(t, "1280-js")
	checkA11yWCAG22(t, r.ctx, "reader at 1280 px")

	// Collapsing both panels leaves the text where it was.
	do(t, r.ctx, chromedp.Click(chromedp.CSS(`#toc-panel > summary`)), chromedp.Click(chromedp.CSS(`#notes-panel > summary`)))
	closed := r.geometry(t)
	if closed.TOCOpen || closed.NotesOpen || closed.Text.Width != g.Text.Width || closed.LineChars != g.LineChars {
		t.Errorf("with the panels collapsed (open: %v, %v) the text is %.0f px wide with %d characters a line, want it as before (%.0f px, %d)",
			closed.TOCOpen, closed.NotesOpen, closed.Text.Width, closed.LineChars, g.Text.Width, g.LineChars)
	}
	r.screenshot(t, "1280-js-collapsed")

	r.viewport(t, phoneWidth, phoneHeight)
	r.load(t, "", true)
	checkPhoneLayout(t, r.geometry(t), "with JavaScript", false)
	r.screenshot(t, "390-js")
	do(t, r.ctx, chromedp.Click(chromedp.CSS(`#toc-panel > summary`)))
	checkTargetSizes(t, r.ctx, "390 px")
	r.screenshot(t, "390-js-contents")
	checkA11yWCAG22(t, r.ctx, "reader at 390 px")
	if bad := r.console.problems(); len(bad) > 0 {
		t.Errorf("console problems: %v", bad)
	}
}

// TestBrowserReaderWithoutJavaScript: the same layout without scripts —
// both panels open (beside the text at 1280 px, stacked above it at 390),
// no selection buttons or selection hint, which could not work, every
// control reached by Tab with a visible focus — and the note form's
// redirects return to the section of the quoted passage.
func TestBrowserReaderWithoutJavaScript(t *testing.T) {
	r := openLongReader(t, "annie", "spectral-classes")
	r.scripts(t, false)
	r.load(t, "", false)
	checkWideLayout(t, r.geometry(t), "without JavaScript")
	hidden, err := chromedp.Run(r.ctx, chromedp.Evaluate[bool](`['selection-actions', 'highlight-button', 'note-button', 'selection-hint']
		.every(id => document.getElementById(id).getClientRects().length === 0)`))
	if err != nil || !hidden {
		t.Errorf("without JavaScript the selection bar or hint is shown (%v)", err)
	}
	r.screenshot(t, "1280-nojs") // (axe needs scripts: the JavaScript runs check the same markup)
	checkKeyboard(t, r.ctx, "reader without JavaScript")

	// A note on a passage of section 7: back at that section's heading.
	quote := "Field 7 paragraph 4 sentence 2: the dust in these galaxies"
	do(t, r.ctx, chromedp.SendKeys(chromedp.CSS(`#note-quote`), quote), chromedp.SendKeys(chromedp.CSS(`#note-body`), "Compare with field 3."))
	navigateBy(t, r.ctx, chromedp.Click(chromedp.CSS(`[data-testid="note-save"]`)))
	checkAtSection(t, r.ctx, "after saving a note without JavaScript", "Observations of field 7")
	navigateBy(t, r.ctx, chromedp.Click(chromedp.CSS(`[data-testid="note-delete"]`)))
	checkAtSection(t, r.ctx, "after deleting it without JavaScript", "Observations of field 7")
	if n, _ := chromedp.Run(r.ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="note"]').length`)); n != 0 {
		t.Errorf("%d notes after deleting the only one", n)
	}

	r.viewport(t, phoneWidth, phoneHeight)
	r.load(t, "", false)
	checkPhoneLayout(t, r.geometry(t), "without JavaScript", true)
	r.screenshot(t, "390-nojs")

	// A refused note (nothing written) comes back at the form, its
	// message in view, not at the top of the page.
	resp, err := chromedp.RunResponse(r.ctx, chromedp.Click(chromedp.CSS(`[data-testid="note-save"]`)))
	if err != nil || resp.Status != http.StatusUnprocessableEntity {
		t.Fatalf("an empty note without JavaScript: %v, %+v; want 422", err, resp)
	}
	at, err := chromedp.Run(r.ctx, chromedp.Evaluate[sectionPlace](`(() => { const e = document.querySelector('[data-testid="note-error"]');
		return {hash: location.hash, text: e ? e.textContent : "", top: e ? e.getBoundingClientRect().top : -1}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if at.Hash != "#note-form" || at.Text == "" || at.Top < 0 || at.Top > phoneHeight-40 {
		t.Errorf("a refused note without JavaScript: at %q, message %q %.0f px from the top; want it in view at #note-form", at.Hash, at.Text, at.Top)
	}
}

// sectionPlace is the URL's fragment and where its element is.
type sectionPlace struct {
	Hash string  `json:"hash"`
	Text string  `json:"text"`
	Top  float64 `json:"top"`
}

// checkAtSection: the URL's fragment is the id of the heading whose text
// ends with title, and that heading is at the top of the window.
func checkAtSection(t *testing.T, ctx context.Context, how, title string) {
	t.Helper()
	at, err := chromedp.Run(ctx, chromedp.Evaluate[sectionPlace](`(() => { const h = document.getElementById(decodeURIComponent(location.hash.slice(1)));
		return {hash: location.hash, text: h ? h.textContent.trim() : "", top: h ? h.getBoundingClientRect().top : -1}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(at.Text, title) || at.Top < 0 || at.Top > 100 {
		t.Errorf("%s: at %q (heading %q, %.0f px from the top), want the heading %q at the top", how, at.Hash, at.Text, at.Top, title)
	}
}
