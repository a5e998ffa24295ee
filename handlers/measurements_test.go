package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/store"
)

// valuesMarkdown holds values about NGC 1275 (by an alias, 3C 84) and
// hostile text around them.
const valuesMarkdown = "# Perseus\n\n## 2 Results\n\n" +
	"For 3C 84 we find $M_{\\rm BH} = (8 \\pm 2) \\times 10^{8}\\,M_\\odot$ <script>alert(1)</script>.\n\n" +
	"=HYPERLINK(\"http://evil\") gives a distance of $D = 75 \\pm 5$ Mpc to 3C 84.\n\n" +
	"Section 3.2 and Fig. 4 show nothing measurable.\n"

// seedValues adds a parsed, indexed paper and extracts its values.
func seedValues(t *testing.T, a *testApp) store.Paper {
	t.Helper()
	ctx := context.Background()
	id, year := "2101.00001", 2021
	p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: "The <b>Perseus</b> black hole", ArxivID: &id, Year: &year, Authors: []string{"Fabian, A. C."}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: p.ID, Markdown: valuesMarkdown, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	if err := a.rag.IndexPaper(ctx, p.ID, valuesMarkdown); err != nil {
		t.Fatal(err)
	}
	src := func(context.Context, int64) (string, error) { return valuesMarkdown, nil }
	if err := measure.NewService(a.store, src, nil).ExtractPaper(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMeasurementsEmptyLibrary(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.get("/measurements")
	expectStatus(t, "empty", res, http.StatusOK)
	expectContains(t, "empty", res.body, `data-testid="measurements-empty"`, `data-testid="measurements-form"`)
	res = c.get("/measurements?quantity=H0&object=NGC+4258")
	expectContains(t, "not found", res.body, `data-testid="measurements-not-found"`, `/library/search?q=object%3A%22NGC+4258%22+abs%3A%22Hubble+constant%22`)
	var out apiMeasurementTable
	c.get("/api/measurements?quantity=H0").json(t, &out)
	if !out.NotFound || out.Rows == nil || len(out.Rows) != 0 || out.ADSQuery == "" {
		t.Fatalf("empty API answer %+v", out)
	}
	expectAPIError(t, "no question", c.get("/api/measurements"), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "long", c.get("/api/measurements?quantity="+strings.Repeat("x", 61)), http.StatusBadRequest, "invalid_request")
}

func TestMeasurementsTableAndAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedValues(t, a)
	pid := strconv.FormatInt(p.ID, 10)

	var out apiMeasurementTable
	res := c.get("/api/measurements?quantity=mass&object=NGC+1275")
	expectStatus(t, "api", res, http.StatusOK)
	res.json(t, &out)
	if out.NotFound || len(out.Rows) != 1 || out.Quantity != "mass" || out.Unit != "M☉" {
		t.Fatalf("answer %+v", out)
	}
	r := out.Rows[0]
	if r.Value != 8e8 || r.ErrPlus != 2e8 || r.ErrMinus != 2e8 || r.Unit != "M☉" || r.Object != "3C 84" || r.Year == nil || *r.Year != 2021 || r.PaperID != p.ID {
		t.Fatalf("row %+v", r)
	}
	if !strings.HasPrefix(r.Passage.Link, "/library/"+pid+"/read?passage=") || !strings.Contains(r.Passage.Text, "3C 84") {
		t.Fatalf("passage %+v", r.Passage)
	}
	if !strings.Contains(strings.Join(out.Names, "|"), "3C 84") {
		t.Fatalf("aliases not searched: %v", out.Names)
	}
	// The reader opens at the passage the link names, highlighting only
	// the sentence's paragraph.
	if !strings.Contains(r.Passage.Link, "&sentence=") && !strings.Contains(r.Passage.Link, "sentence=") {
		t.Fatalf("link without the sentence: %s", r.Passage.Link)
	}
	reader := c.get(r.Passage.Link).body
	expectContains(t, "reader", reader, `class="passage"`)
	mark := reader[strings.Index(reader, `class="passage"`):]
	mark = mark[:strings.Index(mark, "</div>")]
	if !strings.Contains(mark, "we find") || strings.Contains(mark, "HYPERLINK") || strings.Contains(mark, "Section 3.2") {
		t.Fatalf("highlight is not the sentence's paragraph: %s", mark)
	}

	page := c.get("/measurements?object=NGC+1275")
	expectStatus(t, "page", page, http.StatusOK)
	expectContains(t, "page", page.body, `data-testid="measurements-table"`, `data-testid="measurements-plot"`, `role="img"`,
		`<title id="plot-title">`, `(8 ± 2) × 10^8`, `href="/library/`+pid+`/read?passage=`, `&amp;sentence=`, `href="/objects/3C%2084"`,
		`/measurements/export.csv?`, `/api/papers/bibtex?ids=`+pid)
	for _, bad := range []string{"<script>alert", "<b>Perseus</b>"} {
		if strings.Contains(page.body, bad) {
			t.Errorf("page shows hostile text %q unescaped", bad)
		}
	}

	csv := c.get("/measurements/export.csv?object=NGC+1275")
	expectStatus(t, "csv", csv, http.StatusOK)
	if !strings.Contains(csv.Header.Get("Content-Type"), "text/csv") || !strings.Contains(csv.body, `"'=HYPERLINK(""http://evil"")`) {
		t.Fatalf("csv:\n%s", csv.body)
	}
	tex := c.get("/measurements/export.tex?object=NGC+1275")
	expectContains(t, "tex", tex.body, `\begin{deluxetable}`, `$(8 \pm 2) \times 10^{8}$`, `$M_\odot$`, `\citet{Fabian2021`)
	key := tex.body[strings.Index(tex.body, `\citet{`)+len(`\citet{`):]
	key = key[:strings.Index(key, "}")]
	bib := c.get("/api/papers/bibtex?ids=" + pid)
	expectContains(t, "bibtex", bib.body, "{"+key+",")
}
