package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

const readerMarkdown = `# Dust attenuation

## 1 Introduction

Dust shapes what we see ([Calzetti 2000](#ref-1)). The slope $\beta$ is steep.[^1]

<script>alert(1)</script><img src=x onerror=alert(2)> <a hx-get="/admin" href="/x">htmx</a>

A [click](javascript:alert(3)) link.

## 2 Method

$$A_\lambda = k(\lambda) E(B-V) \tag{1}$$

| Name | z |
| --- | --- |
| GN-z11 | 10.6 |

## References

1. <span id="ref-1"></span>Calzetti, D. 2000, ApJ, 533, 682

[^1]: A footnote.
`

func seedParsed(t *testing.T, a *testApp) store.Paper {
	t.Helper()
	ctx := context.Background()
	id := "2401.01234"
	p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "Dust attenuation", ArxivID: &id})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: p.ID, Markdown: readerMarkdown, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReaderPage: contents, math spans, linked references and footnotes
// render; script, event handlers, javascript: URLs and hx-* attributes do
// not (S6); an unparsed paper is a 404.
func TestReaderPage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedParsed(t, a)
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	res := c.get(base + "/read")
	expectStatus(t, "reader", res, http.StatusOK)
	expectContains(t, "reader", res.body, `data-testid="reader-toc"`, `href="#sec-1-introduction"`, `<h3 id="sec-1-introduction">`,
		`<span class="math math-inline">$\beta$</span>`, `<span class="math math-display">$$A_\lambda = k(\lambda) E(B-V) \tag{1}$$</span>`,
		`<a href="#ref-1"`, `<span id="ref-1"></span>`, `<td>GN-z11</td>`, `id="fn:1"`, `/static/js/reader.js`, `/static/js/math.js`,
		`Parsed with the arxiv-html engine`, `data-testid="note-form"`,
		// The panels collapse and are open until reader.js decides; the
		// selection bar and its hint exist for the script only.
		`/static/css/reader.css`, `<details class="reader-panel reader-toc" id="toc-panel" open`,
		`<details class="reader-panel reader-notes" id="notes-panel" open`, `id="selection-hint" data-testid="selection-hint" hidden`,
		`data-testid="selection-actions" hidden`, `hx-post="`+base+`/notes" hx-target="#notes-body" hx-swap="outerHTML"`,
		// A second press while a save runs would save the note twice.
		`hx-disabled-elt="find #highlight-button, find #selection-save"`,
		// Without JavaScript a refused note comes back at the form.
		`action="`+base+`/notes#note-form"`)
	for _, bad := range []string{"<script>alert", "onerror", `href="javascript:`, "hx-get"} {
		if i := strings.Index(res.body, bad); i >= 0 {
			t.Errorf("reader page contains %q: %s", bad, res.body[max(0, i-80):min(len(res.body), i+80)])
		}
	}
	id := "2401.09999"
	other, _, _ := a.store.UpsertPaper(context.Background(), store.Paper{Title: "Unparsed", ArxivID: &id})
	expectAPIError(t, "unparsed reader", c.get("/library/"+strconv.FormatInt(other.ID, 10)+"/read", "Accept", "application/json"),
		http.StatusNotFound, "not_parsed")
}

// TestNotes: the no-JS form and the JSON API store notes and highlights;
// they show beside the text and are searchable, for their owner only (S8).
func TestNotes(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	p := seedParsed(t, a)
	base := "/library/" + strconv.FormatInt(p.ID, 10)

	res := admin.postForm(base+"/notes", url.Values{"quote": {"The slope is steep."}, "body": {"Compare with **SMC** dust."},
		"prefix": {"we see (Calzetti 2000). "}, "suffix": {" A footnote"}, "position": {"57"}})
	expectStatus(t, "note form", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != base+"/read#sec-1-introduction" {
		t.Fatalf("redirect to %q, want the section of the quoted passage", loc)
	}
	expectStatus(t, "empty note", admin.postForm(base+"/notes", url.Values{"body": {"  "}}), http.StatusUnprocessableEntity)

	created := admin.postJSON("/api/papers/"+strconv.FormatInt(p.ID, 10)+"/notes", `{"quote":"Dust shapes what we see","prefix":"","suffix":" (Calzetti","position":0}`)
	expectStatus(t, "API note", created, http.StatusCreated)
	var got struct{ Note store.PaperNote }
	created.json(t, &got)
	if got.Note.Kind != "highlight" || got.Note.Quote != "Dust shapes what we see" || got.Note.Position != 0 {
		t.Fatalf("API note %+v", got.Note)
	}
	expectAPIError(t, "API empty note", admin.postJSON("/api/papers/"+strconv.FormatInt(p.ID, 10)+"/notes", `{}`), http.StatusBadRequest, "invalid_request")

	page := admin.get(base + "/read")
	expectContains(t, "notes beside the text", page.body, `data-quote="The slope is steep."`, `data-prefix="we see (Calzetti 2000). "`,
		`data-position="57"`, `<strong>SMC</strong>`, `data-quote="Dust shapes what we see"`)
	hits := admin.get("/api/notes?q=smc")
	expectContains(t, "notes search", hits.body, `"Compare with **SMC** dust."`, `"paper_title":"Dust attenuation"`)
	expectContains(t, "notes page", admin.get("/library/notes?q=steep").body, "The slope is steep.", base+"/read#note-")

	// Another user sees none of it and cannot delete it.
	vera := a.member("otto", "galaxy-rotation-curves")
	if body := vera.get(base + "/read").body; strings.Contains(body, "The slope is steep.") {
		t.Error("another user's note shown")
	}
	if body := vera.get("/api/notes?q=smc").body; strings.Contains(body, "SMC") {
		t.Error("another user's note found by search")
	}
	expectStatus(t, "delete another's note", vera.postForm(base+"/notes/"+strconv.FormatInt(got.Note.ID, 10)+"/delete", nil), http.StatusNotFound)
	id2 := "2401.09998"
	elsewhere, _, _ := a.store.UpsertPaper(context.Background(), store.Paper{Title: "Another paper", ArxivID: &id2})
	expectStatus(t, "delete own note through another paper's URL",
		admin.postForm("/library/"+strconv.FormatInt(elsewhere.ID, 10)+"/notes/"+strconv.FormatInt(got.Note.ID, 10)+"/delete", nil), http.StatusNotFound)
	expectStatus(t, "delete own note", admin.postForm(base+"/notes/"+strconv.FormatInt(got.Note.ID, 10)+"/delete", nil), http.StatusSeeOther)
	if notes, _ := a.store.PaperNotes(context.Background(), 1, p.ID); len(notes) != 1 {
		t.Errorf("%d notes left, want 1", len(notes))
	}
}

// TestPaperContentAPI: whole text, one section, errors.
func TestPaperContentAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedParsed(t, a)
	path := "/api/papers/" + strconv.FormatInt(p.ID, 10) + "/content"
	var whole ContentResponse
	r := c.get(path)
	expectStatus(t, "content", r, http.StatusOK)
	r.json(t, &whole)
	if whole.Markdown != readerMarkdown || whole.Engine != "arxiv-html" {
		t.Fatalf("content %+v", whole)
	}
	var sec ContentResponse
	c.get(path+"?section=method").json(t, &sec)
	if sec.Section != "2 Method" || !strings.HasPrefix(sec.Markdown, "## 2 Method\n") || strings.Contains(sec.Markdown, "References") {
		t.Fatalf("section %+v", sec)
	}
	expectAPIError(t, "no section", c.get(path+"?section=results"), http.StatusNotFound, "no_section")
	id := "2401.09999"
	other, _, _ := a.store.UpsertPaper(context.Background(), store.Paper{Title: "Unparsed", ArxivID: &id})
	expectAPIError(t, "unparsed", c.get("/api/papers/"+strconv.FormatInt(other.ID, 10)+"/content"), http.StatusNotFound, "not_parsed")
}

// TestParseButton: without a PDF or an HTML version there is nothing to
// parse, so no Parse button is offered and the page asks for the PDF; a
// parse forced anyway fails with one sentence and the detail folded away,
// never repeating itself.
func TestParseButton(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := "2401.05555"
	p, _, _ := a.store.UpsertPaper(context.Background(), store.Paper{Title: "No PDF", ArxivID: &id})
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	page := c.get(base).body
	expectContains(t, "paper page", page, `data-testid="parse-needs-pdf"`, "download its PDF first")
	expectLacks(t, "paper page", page, `data-testid="parse-form"`, "Parse for reading")
	expectStatus(t, "parse", c.postForm(base+"/parse", nil), http.StatusSeeOther)
	expectLacks(t, "after starting", c.get(base).body, "Parsing the paper…")
	a.srv.WaitDownloads()
	body := c.get(base + "/parse-status").body
	expectContains(t, "failed parse", body, `data-testid="parse-error"`, "download the PDF first, then parse the paper",
		`<details class="failure-detail" data-testid="parse-error-detail">`, "no stored PDF")
	if n := strings.Count(body, "parse failed"); n != 1 { // the badge only
		t.Errorf("%q said %d times: %s", "parse failed", n, body)
	}
	jobs := c.get("/jobs").body
	expectContains(t, "jobs page", jobs, `data-testid="job"`, `data-status="failed"`, "Parse", `href="`+base+`"`, "No PDF")
}
