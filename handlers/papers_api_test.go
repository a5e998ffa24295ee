package handlers

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestPapersAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.postJSON("/api/papers/import", `{"ref":"https://arxiv.org/abs/2401.01234v2"}`)
	expectStatus(t, "import", res, http.StatusCreated)
	var body PaperResponse
	res.json(t, &body)
	if !body.Created || body.Paper.ID == 0 || body.Paper.ArxivID == nil || *body.Paper.ArxivID != "2401.01234" || len(body.Paper.Authors) == 0 {
		t.Fatalf("imported %+v", body)
	}
	// Idempotent, also when the same paper is imported many times at once.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := c.postJSON("/api/papers/import", `{"ref":"arXiv:2401.01234"}`)
			var b PaperResponse
			r.json(t, &b)
			if r.StatusCode != http.StatusOK || b.Paper.ID != body.Paper.ID {
				t.Errorf("re-import: %d %+v", r.StatusCode, b.Paper.ID)
			}
		}()
	}
	wg.Wait()
	res = c.get("/api/papers/" + strconv.FormatInt(body.Paper.ID, 10))
	expectStatus(t, "get", res, http.StatusOK)
	var list struct {
		Papers []map[string]any `json:"papers"`
		Total  int              `json:"total"`
	}
	c.get("/api/papers").json(t, &list)
	if list.Total != 1 || len(list.Papers) != 1 {
		t.Fatalf("list %+v", list)
	}
	words := body.Paper.Title
	c.get("/api/papers?q="+urlQueryEscape(words)).json(t, &list)
	if list.Total != 1 {
		t.Fatalf("full-text search for the title found %d", list.Total)
	}
	c.get("/api/papers?q=zzzqqq").json(t, &list)
	if list.Total != 0 {
		t.Fatalf("nonsense query found %d", list.Total)
	}
	expectAPIError(t, "bad ref", c.postJSON("/api/papers/import", `{"ref":"hello"}`), http.StatusBadRequest, "invalid_ref")
	expectAPIError(t, "unknown arXiv id", c.postJSON("/api/papers/import", `{"ref":"2402.99999"}`), http.StatusNotFound, "not_found")
	expectAPIError(t, "bibcode without ADS token", c.postJSON("/api/papers/import", `{"ref":"2019ApJ...875L...1E"}`), http.StatusUnprocessableEntity, "ads_token_missing")
	expectAPIError(t, "missing paper", c.get("/api/papers/999"), http.StatusNotFound, "not_found")
	expectAPIError(t, "bad year", c.get("/api/papers?year=x"), http.StatusBadRequest, "invalid_request")
}

func TestPapersBibTeX(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.postJSON("/api/papers/import", `{"ref":"2401.01234"}`)
	expectStatus(t, "import", res, http.StatusCreated)
	var body PaperResponse
	res.json(t, &body)
	id := strconv.FormatInt(body.Paper.ID, 10)
	one := c.get("/api/papers/" + id + "/bibtex")
	expectStatus(t, "one", one, http.StatusOK)
	if !strings.HasPrefix(one.Header.Get("Content-Type"), "application/x-bibtex") || !strings.Contains(one.body, "eprint        = {2401.01234}") {
		t.Fatalf("bibtex %q %s", one.Header.Get("Content-Type"), one.body)
	}
	all := c.get("/api/papers/bibtex")
	sel := c.get("/api/papers/bibtex?ids=" + id)
	if all.body != one.body || sel.body != one.body {
		t.Fatalf("selection/all differ from one:\n%s\n%s", all.body, sel.body)
	}
	expectAPIError(t, "bad ids", c.get("/api/papers/bibtex?ids=x"), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "missing", c.get("/api/papers/bibtex?ids=999"), http.StatusNotFound, "not_found")
}
