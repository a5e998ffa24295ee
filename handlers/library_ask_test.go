package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

const askPaperMD = `# Jets from M87

## 1 Introduction

The giant elliptical galaxy M87 hosts a relativistic jet observed from radio to gamma rays.

## 2 Black hole mass

From the diameter of the ring we infer a black hole mass of 6.5 billion solar masses.
`

// indexedPaper adds a paper and indexes askPaperMD as its text.
func indexedPaper(t *testing.T, a *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	id, year := "1906.11238", 2019
	p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "First M87 EHT Results", ArxivID: &id, Year: &year})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.rag.IndexPaper(ctx, p.ID, askPaperMD); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func TestAskLibrary(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()

	page := c.get("/library")
	expectStatus(t, "library", page, http.StatusOK)
	expectContains(t, "library", page.body, `data-testid="ask-form"`, `action="/library/ask"`, `hx-post="/library/ask"`,
		`data-testid="keyword-only"`, "no embedding model configured", "No paper is indexed yet")

	paper := indexedPaper(t, a)
	page = c.get("/library")
	expectLacks(t, "library after indexing", page.body, "No paper is indexed yet")

	// htmx: the answer fragment, each citation linking to its passage.
	a.fake.Enqueue(llmtest.Text("M87's black hole has a mass of 6.5 billion solar masses [1]. It is 55 million light years away."))
	frag := c.postForm("/library/ask", url.Values{"question": {"What is the black hole mass of M87?"}}, "HX-Request", "true")
	expectStatus(t, "ask (htmx)", frag, http.StatusOK)
	var passage int64
	storetest.Get(t, a.store, &passage, `SELECT id FROM rag_chunks WHERE paper_id = ? AND section_path LIKE '%Black hole mass'`, paper)
	link := "/library/" + strconv.FormatInt(paper, 10) + "/read?passage=" + strconv.FormatInt(passage, 10) + "#passage-" + strconv.FormatInt(passage, 10)
	expectContains(t, "answer", frag.body, `data-testid="answer-text"`, "M87&#39;s black hole has a mass of 6.5 billion solar masses.",
		`href="`+link+`"`, `data-testid="citation"`, "[1]", `data-testid="removed-note"`, "1 sentence of the model",
		`data-testid="passage"`, "First M87 EHT Results", "2 Black hole mass", `data-testid="ask-note"`)
	expectLacks(t, "answer", frag.body, "light years", "<html")
	if !strings.Contains(a.fake.Requests()[0].LastMessage().Content, "6.5 billion solar masses") {
		t.Errorf("the model did not get the passage")
	}

	// Without JavaScript: the whole page with the answer and the question kept.
	a.fake.Enqueue(llmtest.Text("It is 6.5 billion solar masses [1]."))
	full := c.postForm("/library/ask", url.Values{"question": {"black hole mass of M87"}})
	expectStatus(t, "ask (no JS)", full, http.StatusOK)
	expectContains(t, "page", full.body, "<html", `data-testid="library-results"`, "It is 6.5 billion solar masses.",
		`href="`+link+`"`, "black hole mass of M87</textarea>")

	// Nothing in the library: said plainly, and the model is not asked.
	before := len(a.fake.Requests())
	none := c.postForm("/library/ask", url.Values{"question": {"What is the rotation curve of Andromeda?"}}, "HX-Request", "true")
	expectContains(t, "no support", none.body, `data-testid="no-support"`, "holds no passage")
	if len(a.fake.Requests()) != before {
		t.Errorf("the model was asked without supporting passages")
	}

	// Filters: another year holds nothing; the paper's tag finds it.
	year := c.postForm("/library/ask", url.Values{"question": {"black hole mass of M87"}, "year": {"2020"}}, "HX-Request", "true")
	expectContains(t, "other year", year.body, `data-testid="no-support"`)
	storetest.Exec(t, a.store, `INSERT INTO paper_tags (paper_id, tag) VALUES (?, 'eht')`, paper)
	a.fake.Enqueue(llmtest.Text("It is 6.5 billion solar masses [1]."))
	tagged := c.postForm("/library/ask", url.Values{"question": {"black hole mass of M87"}, "tag": {"EHT"}, "year": {"2019"}})
	expectContains(t, "tag and year", tagged.body, `href="`+link+`"`, `name="tag" maxlength="100" autocomplete="off" value="EHT"`, `value="2019"`)
	bad := c.postForm("/library/ask", url.Values{"question": {"mass"}, "year": {"19x"}}, "HX-Request", "true")
	expectContains(t, "bad year", bad.body, `role="alert"`, "four-digit year")

	// A refused question.
	empty := c.postForm("/library/ask", url.Values{"question": {"  "}})
	expectStatus(t, "empty question", empty, http.StatusBadRequest)
	expectContains(t, "empty question", empty.body, "Type a question.")
	long := c.postForm("/library/ask", url.Values{"question": {strings.Repeat("x", 1001)}}, "HX-Request", "true")
	expectContains(t, "long question", long.body, `role="alert"`, "longer than 1000")
}

func TestAskLibraryAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	paper := indexedPaper(t, a)
	a.fake.Enqueue(llmtest.Text("The mass is 6.5 billion solar masses [1]."))
	res := c.postJSON("/api/library/ask", `{"question": "black hole mass of M87", "year": 2019}`)
	expectStatus(t, "api ask", res, http.StatusOK)
	var out AskResponse
	res.json(t, &out)
	if out.Text != "The mass is 6.5 billion solar masses. [1]" || len(out.Links) == 0 || out.Answer.Mode != "keyword" ||
		!strings.HasPrefix(out.Links[0], "/library/"+strconv.FormatInt(paper, 10)+"/read?passage=") || out.Answer.NoSupport {
		t.Fatalf("answer %+v", out)
	}
	none := c.postJSON("/api/library/ask", `{"question": "black hole mass of M87", "year": 2020}`)
	expectStatus(t, "api ask filtered out", none, http.StatusOK)
	res = none
	out = AskResponse{}
	res.json(t, &out)
	if !out.Answer.NoSupport || len(out.Links) != 0 {
		t.Errorf("filtered answer %+v", out)
	}
	expectAPIError(t, "empty", c.postJSON("/api/library/ask", `{"question": ""}`), http.StatusBadRequest, "invalid_question")
	expectAPIError(t, "limit", c.postJSON("/api/library/ask", `{"question": "mass", "limit": 99}`), http.StatusBadRequest, "invalid_filter")
}

// TestReaderPassageLink follows a citation's link: the reader highlights
// the passage with the id the fragment scrolls to.
func TestReaderPassageLink(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	ctx := context.Background()
	paper := indexedPaper(t, a)
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: paper, Markdown: askPaperMD, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	var passage int64
	storetest.Get(t, a.store, &passage, `SELECT id FROM rag_chunks WHERE paper_id = ? AND section_path LIKE '%Black hole mass'`, paper)
	base := "/library/" + strconv.FormatInt(paper, 10) + "/read"
	pid := strconv.FormatInt(passage, 10)
	res := c.get(base + "?passage=" + pid)
	expectStatus(t, "reader at passage", res, http.StatusOK)
	expectContains(t, "reader", res.body, `<div class="passage" id="passage-`+pid+`" tabindex="-1">`,
		`data-testid="passage-note"`, `href="#passage-`+pid+`"`, "Jets from M87 &gt; 2 Black hole mass")
	body := res.body[strings.Index(res.body, `id="passage-`+pid+`"`):]
	body = body[:strings.Index(body, "</div>")]
	if !strings.Contains(body, "6.5 billion solar masses") || strings.Contains(body, "relativistic jet") {
		t.Errorf("highlighted block:\n%s", body)
	}

	// The text was parsed again differently: the passage is gone, said so.
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: paper, Markdown: "# Other text\n\nNew words.\n", Engine: "pdf"}); err != nil {
		t.Fatal(err)
	}
	res = c.get(base + "?passage=" + pid)
	expectContains(t, "stale passage", res.body, `data-testid="passage-missing"`)
	expectLacks(t, "stale passage", res.body, `class="passage"`)
	// Unknown ids and junk are not errors.
	expectContains(t, "unknown passage", c.get(base+"?passage=999999").body, `data-testid="passage-missing"`)
	expectLacks(t, "junk passage", c.get(base+"?passage=x").body, "passage-missing", "passage-note")
}

// TestAskPaperFromReader: the reader's "Ask this paper" searches that
// paper's passages only, with and without htmx.
func TestAskPaperFromReader(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	ctx := context.Background()
	paper := indexedPaper(t, a)
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: paper, Markdown: askPaperMD, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	otherID := "2205.00001"
	other, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "Sgr A*", ArxivID: &otherID})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.rag.IndexPaper(ctx, other.ID, "# Sgr A*\n\n## 1 Mass\n\nThe black hole mass of Sgr A* is 4 million solar masses.\n"); err != nil {
		t.Fatal(err)
	}
	base := "/library/" + strconv.FormatInt(paper, 10)
	reader := c.get(base + "/read")
	expectContains(t, "reader", reader.body, `data-testid="paper-ask-form"`, `action="`+base+`/ask"`, `hx-post="`+base+`/ask"`)
	expectLacks(t, "reader of an indexed paper", reader.body, `data-testid="paper-ask-note"`)

	// A paper parsed but not indexed yet says so beside the form.
	fresh := "2205.00002"
	unindexed, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "Fresh", ArxivID: &fresh})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: unindexed.ID, Markdown: "# Fresh\n\nText.\n", Engine: "pdf"}); err != nil {
		t.Fatal(err)
	}
	freshReader := "/library/" + strconv.FormatInt(unindexed.ID, 10) + "/read"
	expectContains(t, "unindexed", c.get(freshReader).body, `data-testid="paper-ask-note"`, "not indexed yet")
	if err := a.rag.Enqueue(ctx, unindexed.ID); err != nil {
		t.Fatal(err)
	}
	expectContains(t, "queued", c.get(freshReader).body, "still being indexed")
	// Without JavaScript, a paper with no text has no reader: 404 before any work.
	bare := "2205.00003"
	unparsed, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "Bare", ArxivID: &bare})
	if err != nil {
		t.Fatal(err)
	}
	before := len(a.fake.Requests())
	expectStatus(t, "unparsed (no JS)", c.postForm("/library/"+strconv.FormatInt(unparsed.ID, 10)+"/ask", url.Values{"question": {"mass"}}), http.StatusNotFound)
	if len(a.fake.Requests()) != before {
		t.Error("the model was asked about a paper without text")
	}

	a.fake.Enqueue(llmtest.Text("It is 6.5 billion solar masses [1]."))
	frag := c.postForm(base+"/ask", url.Values{"question": {"What is the black hole mass?"}}, "HX-Request", "true")
	expectStatus(t, "ask paper (htmx)", frag, http.StatusOK)
	expectContains(t, "answer", frag.body, "It is 6.5 billion solar masses.", `href="`+base+`/read?passage=`, "First M87 EHT Results")
	expectLacks(t, "answer", frag.body, "Sgr A*", "<html")
	if prompt := a.fake.Requests()[0].LastMessage().Content; strings.Contains(prompt, "4 million") {
		t.Errorf("another paper's passage reached the model:\n%s", prompt)
	}

	// Without JavaScript: the reader again, with the answer and the question.
	a.fake.Enqueue(llmtest.Text("It is 6.5 billion solar masses [1]."))
	full := c.postForm(base+"/ask", url.Values{"question": {"black hole mass"}})
	expectStatus(t, "ask paper (no JS)", full, http.StatusOK)
	expectContains(t, "reader with answer", full.body, `data-testid="reader-text"`, "It is 6.5 billion solar masses.", "black hole mass</textarea>")

	// Only the other paper answers this: said plainly, the model not asked.
	before = len(a.fake.Requests())
	none := c.postForm(base+"/ask", url.Values{"question": {"Sgr A* 4 million"}}, "HX-Request", "true")
	expectContains(t, "no support", none.body, `data-testid="no-support"`)
	if len(a.fake.Requests()) != before {
		t.Errorf("the model was asked without supporting passages")
	}
	empty := c.postForm(base+"/ask", url.Values{"question": {" "}})
	expectStatus(t, "empty question", empty, http.StatusBadRequest)
	expectContains(t, "empty question", empty.body, "Type a question.", `data-testid="reader-text"`)
	expectStatus(t, "unknown paper", c.postForm("/library/999999/ask", url.Values{"question": {"mass"}}), http.StatusNotFound)
}

func TestProgressText(t *testing.T) {
	for _, tc := range []struct {
		p    rag.Progress
		want string
	}{
		{rag.Progress{}, "No paper is indexed yet"},
		{rag.Progress{Indexed: 3}, ""},
		{rag.Progress{Indexed: 3, Queued: 1, Indexing: 1, Passages: 80, Embedded: 20, VectorSearch: true},
			"Indexing 2 of 5 papers (20 of 80 passages embedded); answers cover the papers indexed so far."},
		{rag.Progress{Indexed: 3, Queued: 1, Passages: 80}, "Indexing 1 of 4 papers; answers"},
		{rag.Progress{Indexed: 1, Failed: 2}, "Indexing failed for 2 paper(s)"},
	} {
		got := progressText(tc.p)
		if (tc.want == "" && got != "") || !strings.Contains(got, tc.want) {
			t.Errorf("progressText(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
