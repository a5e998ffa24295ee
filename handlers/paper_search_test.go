package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestPaperSearchPageOneClickAdd(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	page := c.get("/library/search")
	expectStatus(t, "empty", page, http.StatusOK)
	res := c.get("/library/search?q=" + url.QueryEscape("dwarf galaxies") + "&sort=date")
	expectStatus(t, "search", res, http.StatusOK)
	expectContains(t, "results", res.body, `data-testid="paper-hits"`, "arXiv:2401.01234", "arXiv:astro-ph/0601001",
		`name="ref" value="2401.01234"`, "Add to library", "ADS_API_TOKEN",
		// arXiv's title formula is rendered like the reader's.
		`<strong>Cold gas in ultra-faint dwarf galaxies at <span class="math math-inline">$z\sim6$</span>:`, "/static/js/math.js")
	add := c.postForm("/import", url.Values{"ref": {"2401.01234"}})
	if add.StatusCode != http.StatusSeeOther || !strings.HasPrefix(add.Header.Get("Location"), "/library/") {
		t.Fatalf("one-click add: %d %q", add.StatusCode, add.Header.Get("Location"))
	}
	res = c.get("/library/search?q=" + url.QueryEscape("dwarf galaxies"))
	expectContains(t, "marked", res.body, "In your library")
	expectStatus(t, "too long", c.get("/library/search?q="+strings.Repeat("x", 1001)), http.StatusBadRequest)
}
