package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestPaperTagsEditing(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := importPaper(t, c)
	page := c.get("/library/" + id)
	expectContains(t, "no tags", page.body, `data-testid="no-tags"`, `action="/library/`+id+`/tags"`, `hx-post="/library/`+id+`/tags"`,
		`<label for="add-tags">`)

	// Without JavaScript: 303 back to the page, which shows the tags.
	res := c.postForm("/library/"+id+"/tags", url.Values{"tags": {"perseus, AGN feedback, Perseus"}})
	expectStatus(t, "add", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/library/"+id {
		t.Fatalf("add went to %q", loc)
	}
	page = c.get("/library/" + id)
	expectContains(t, "tagged", page.body, "Tags added.", `href="/library?tag=perseus"`, `href="/library?tag=AGN+feedback"`,
		`aria-label="Remove the tag perseus"`, `<option value="perseus">`)
	if n := strings.Count(page.body, `data-testid="tag"`); n != 2 {
		t.Fatalf("%d tags shown, want 2", n)
	}
	// The list shows the tags and filters by them (the version-keyed cache
	// sees the edit).
	list := c.get("/library?tag=PERSEUS")
	if n := rows(list.body); n != 1 {
		t.Fatalf("tag filter: %d rows", n)
	}
	expectContains(t, "row tags", list.body, `data-testid="row-tags"`, `<a href="/library?tag=AGN+feedback" class="tag">AGN feedback</a>`)

	// htmx: the block comes back alone.
	frag := c.postForm("/library/"+id+"/tags/remove", url.Values{"tag": {"perseus"}}, "HX-Request", "true")
	expectStatus(t, "remove (htmx)", frag, http.StatusOK)
	expectContains(t, "remove fragment", frag.body, `id="paper-tags"`, "AGN feedback")
	expectLacks(t, "remove fragment", frag.body, "<html", `href="/library?tag=perseus"`)
	if n := rows(c.get("/library?tag=perseus").body); n != 0 {
		t.Fatalf("removed tag still filters: %d rows", n)
	}

	// Refusals: a tag too long, no tag at all; nothing changes.
	long := strings.Repeat("x", 51)
	bad := c.postForm("/library/"+id+"/tags", url.Values{"tags": {"ok, " + long}})
	expectStatus(t, "too long", bad, http.StatusBadRequest)
	expectContains(t, "too long", bad.body, `role="alert"`, "A tag is at most 50 characters long.", `value="ok, `+long+`"`, `aria-invalid="true"`)
	badFrag := c.postForm("/library/"+id+"/tags", url.Values{"tags": {" , "}}, "HX-Request", "true")
	expectStatus(t, "empty (htmx)", badFrag, http.StatusOK)
	expectContains(t, "empty (htmx)", badFrag.body, `role="alert"`, "Type at least one tag.")
	expectLacks(t, "refused add", c.get("/library/"+id).body, `href="/library?tag=ok"`)

	for _, path := range []string{"/library/999/tags", "/library/abc/tags", "/library/999/tags/remove"} {
		expectStatus(t, path, c.postForm(path, url.Values{"tags": {"x"}, "tag": {"x"}}), http.StatusNotFound)
	}
}

func TestPaperTagsAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := importPaper(t, c)
	put := func(path, body string) response {
		req, _ := http.NewRequest(http.MethodPut, c.a.url(path), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return c.do(req)
	}
	res := put("/api/papers/"+id+"/tags", `{"tags": ["b", " a ", "B"]}`)
	expectStatus(t, "put", res, http.StatusOK)
	var got TagsResponse
	res.json(t, &got)
	if strings.Join(got.Tags, ",") != "a,b" {
		t.Fatalf("tags %q", got.Tags)
	}
	var paper PaperResponse
	c.get("/api/papers/"+id).json(t, &paper)
	if strings.Join(paper.Paper.Tags, ",") != "a,b" {
		t.Fatalf("paper tags %q", paper.Paper.Tags)
	}
	expectAPIError(t, "long tag", put("/api/papers/"+id+"/tags", `{"tags": ["`+strings.Repeat("y", 51)+`"]}`), http.StatusBadRequest, "invalid_tag")
	expectAPIError(t, "not JSON", put("/api/papers/"+id+"/tags", `{"tags": "a"}`), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "unknown paper", put("/api/papers/999/tags", `{"tags": []}`), http.StatusNotFound, "not_found")
	res = put("/api/papers/"+id+"/tags", `{"tags": []}`)
	res.json(t, &got)
	if got.Tags == nil || len(got.Tags) != 0 {
		t.Fatalf("cleared tags %q (%s)", got.Tags, res.body)
	}
}

// The bookmarklet's landing recognises IOP and A&A article pages by the
// DOI in (or behind) their addresses.
func TestBookmarkletRecognisesPublisherPages(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	for page, want := range map[string]string{
		"https://www.aanda.org/articles/aa/full_html/2018/08/aa33051-18/aa33051-18.html": "DOI 10.1051/0004-6361/201833051",
		"https://iopscience.iop.org/article/10.3847/1538-4357/ad1234":                    "DOI 10.3847/1538-4357/ad1234",
		"https://www.example.org/some/blog/post":                                         "not a paper page I know",
	} {
		res := c.get("/import?url=" + url.QueryEscape(page))
		expectStatus(t, page, res, http.StatusOK)
		expectContains(t, page, res.body, want)
	}
}
