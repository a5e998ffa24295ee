package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

const perseusMarkdown = "# Cavities\n\n## 1 Introduction\n\nPerseus A hosts X-ray cavities <img src=x onerror=alert(1)>.\n\n## 2 Unrelated\n\nAbell 2029 is another cluster.\n"

func TestObjectPageAndAPI(t *testing.T) {
	a := newApp(t, map[string]string{"ADS_API_TOKEN": "tok"})
	c := a.setupAdmin()
	ctx := context.Background()
	id := "2201.00001"
	p, _, _ := a.store.UpsertPaper(ctx, store.Paper{Title: "Cavities in <i>Perseus</i>", ArxivID: &id})
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: p.ID, Markdown: perseusMarkdown, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	if err := a.rag.IndexPaper(ctx, p.ID, perseusMarkdown); err != nil {
		t.Fatal(err)
	}
	pid := strconv.FormatInt(p.ID, 10)
	c.postForm("/library/"+pid+"/notes", map[string][]string{"body": {"Compare with 3C 84 radio maps"}})

	res := c.get("/objects/NGC%201275")
	expectStatus(t, "object page", res, http.StatusOK)
	expectContains(t, "object page", res.body, `data-testid="object-name"`, `NGC 1275`, `Perseus A`, `data-testid="object-chart"`,
		`role="img"`, `<title id="chart-title">Refereed papers about NGC 1275 per year</title>`, `<desc id="chart-desc">`,
		`data-testid="object-top"`, `name="ref" value="2019ApJ...886L..27R"`, `data-testid="object-chart-data"`, `<th scope="col">Refereed papers</th>`, `href="/library/`+pid+`/read?passage=`,
		`Compare with 3C 84 radio maps`, `/measurements?object=NGC+1275`)
	for _, bad := range []string{"<img src=x", "<i>Perseus</i>"} {
		if strings.Contains(res.body, bad) {
			t.Errorf("hostile text %q shown unescaped", bad)
		}
	}

	var out struct {
		Object struct {
			Name      string   `json:"name"`
			Type      string   `json:"type"`
			RADeg     float64  `json:"ra_deg"`
			DecDeg    float64  `json:"dec_deg"`
			Aliases   []string `json:"aliases"`
			Redshift  *float64 `json:"redshift"`
			Velocity  *float64 `json:"velocity_kms"`
			Resolvers []string `json:"resolvers"`
		} `json:"object"`
		Literature struct {
			Total  int `json:"total"`
			ByYear []struct {
				Year, Count int
			} `json:"by_year"`
			Top []json.RawMessage `json:"top"`
		} `json:"literature"`
		Library struct {
			Papers   []json.RawMessage `json:"papers"`
			Passages []struct {
				Link string `json:"link"`
			} `json:"passages"`
		} `json:"library"`
		Notes []json.RawMessage `json:"notes"`
	}
	api := c.get("/api/objects/NGC%201275")
	expectStatus(t, "api", api, http.StatusOK)
	api.json(t, &out)
	if out.Object.Name != "NGC 1275" || out.Object.Type != "SyG" || out.Object.RADeg != 49.9506671 || out.Object.Redshift == nil ||
		len(out.Object.Aliases) != 2 || out.Literature.Total != 1843 || len(out.Literature.ByYear) != 5 || len(out.Literature.Top) != 3 ||
		len(out.Library.Papers) != 1 || len(out.Library.Passages) != 1 || len(out.Notes) != 1 {
		t.Fatalf("API answer %s", api.body)
	}
	for _, key := range []string{`"velocity_kms"`, `"morphology"`, `"resolvers"`} {
		if !strings.Contains(api.body, key) {
			t.Errorf("API answer lacks %s", key)
		}
	}

	nf := c.get("/objects/Xyzzy%20123")
	expectStatus(t, "unknown", nf, http.StatusNotFound)
	expectContains(t, "unknown", nf.body, `data-testid="object-not-resolved"`, "Names tried: Xyzzy 123, Xyzzy123.")
	expectAPIError(t, "unknown api", c.get("/api/objects/Xyzzy"), http.StatusNotFound, "not_resolved")
	expectAPIError(t, "down api", c.get("/api/objects/down"), http.StatusServiceUnavailable, "unavailable")

	tg := c.get("/targets?name=NGC+1275")
	expectContains(t, "targets page links the object page", tg.body, `href="/objects/NGC%201275"`)
}

func TestObjectPageWithoutADSToken(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.get("/objects/NGC%201275")
	expectStatus(t, "no token", res, http.StatusOK)
	expectContains(t, "no token", res.body, "Set ADS_API_TOKEN", "No parsed paper in your library names NGC 1275")
}
