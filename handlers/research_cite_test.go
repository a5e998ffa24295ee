package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/store"
)

func TestFindCitations(t *testing.T) {
	got := map[string]string{}
	for _, c := range findCitations("Bondi (arXiv:2401.01234v2), astro-ph/0601001, 2019ApJ...882L..12A, " +
		"2019A&A...622A.147S and doi:10.1093/mnras/stz123. Not 2401.9999 (month 01, too short), not 1234ABCDEFGHIJKLMNO9, " +
		"(10.3847/1538-4357/ab1234) and 10.1000/x(1)y.") {
		got[c.Text] = c.Href
	}
	want := map[string]string{
		"arXiv:2401.01234v2":       "https://arxiv.org/abs/2401.01234v2",
		"astro-ph/0601001":         "https://arxiv.org/abs/astro-ph/0601001",
		"2019ApJ...882L..12A":      "https://ui.adsabs.harvard.edu/abs/2019ApJ...882L..12A/abstract",
		"2019A&A...622A.147S":      "https://ui.adsabs.harvard.edu/abs/2019A&A...622A.147S/abstract",
		"doi:10.1093/mnras/stz123": "https://doi.org/10.1093/mnras/stz123",
		"10.3847/1538-4357/ab1234": "https://doi.org/10.3847/1538-4357/ab1234",
		"10.1000/x(1)y":            "https://doi.org/10.1000/x%281%29y",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q → %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected citation %q → %q", k, got[k])
		}
	}
}

// TestResearchAnswerCitations: an identifier of a paper in the library
// links to its library page; others link out; a link the model wrote to
// a passage keeps working under the base path.
func TestResearchAnswerCitations(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	c := a.setupAdmin()
	res := c.postForm("/research", url.Values{"title": {"Sources"}})
	s := strings.TrimPrefix(res.Header.Get("Location"), "/astro/research/")
	arxivID := "2401.01234"
	p, _, err := a.store.UpsertPaper(context.Background(), store.Paper{Title: "Cooling flows", ArxivID: &arxivID})
	if err != nil {
		t.Fatal(err)
	}
	a.fake.Enqueue(llmtest.Text("See arXiv:2401.01234 and 2019ApJ...882L..12A; the [key passage](/library/" +
		strconv.FormatInt(p.ID, 10) + "/read?passage=4#passage-4)."))
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"Sources?"}}), http.StatusSeeOther)
	a.waitTurn(t, s)

	doc := parseDoc(t, c.get("/research/"+s).body)
	links := map[string]string{}
	doc.Find(`[data-testid="answer"] a`).Each(func(_ int, a *goquery.Selection) { links[a.Text()] = a.AttrOr("href", "") })
	id := strconv.FormatInt(p.ID, 10)
	want := map[string]string{
		"arXiv:2401.01234":    "/astro/library/" + id,
		"2019ApJ...882L..12A": "https://ui.adsabs.harvard.edu/abs/2019ApJ...882L..12A/abstract",
		"key passage":         "/astro/library/" + id + "/read?passage=4#passage-4",
	}
	for k, v := range want {
		if links[k] != v {
			t.Errorf("link %q → %q, want %q (all: %v)", k, links[k], v, links)
		}
	}
}
