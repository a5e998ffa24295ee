package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

// addEHT stores the EHT paper (with its bibcode) and returns its id.
func addEHT(t *testing.T, a *testApp) string {
	t.Helper()
	bib := "2019ApJ...875L...1E"
	p, _, err := a.store.UpsertPaper(t.Context(), store.Paper{Title: "First M87 EHT Results. I.", Bibcode: &bib})
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(p.ID, 10)
}

func TestPaperLinksWithoutTokenOrBibcode(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := addEHT(t, a)
	page := c.get("/library/" + id)
	expectContains(t, "no token", page.body, `data-testid="links-unavailable"`, "set ADS_API_TOKEN")
	expectLacks(t, "no token", page.body, `hx-trigger="load"`)
	expectAPIError(t, "API without token", c.get("/api/papers/"+id+"/citations"), http.StatusUnprocessableEntity, "ads_token_missing")

	b := newApp(t, map[string]string{"ADS_API_TOKEN": "tok"})
	bc := b.setupAdmin()
	ax := "2402.00001"
	p, _, err := b.store.UpsertPaper(t.Context(), store.Paper{Title: "Preprint only", ArxivID: &ax})
	if err != nil {
		t.Fatal(err)
	}
	pid := strconv.FormatInt(p.ID, 10)
	// Without a bibcode ADS is asked for one by the arXiv id; it does not
	// know this preprint.
	expectContains(t, "no bibcode", bc.get("/library/"+pid).body, `hx-trigger="load"`)
	frag := bc.get("/library/"+pid+"/links", "HX-Request", "true")
	expectContains(t, "fragment without bibcode", frag.body, `role="alert"`, "does not know this paper yet", "Try again")
	expectAPIError(t, "API without bibcode", bc.get("/api/papers/"+pid+"/references"), http.StatusUnprocessableEntity, "not_in_ads")

	// A paper imported without ADS (no token then) but known to ADS gets
	// its bibcode, and then its lists.
	known := "2401.01234"
	q, _, err := b.store.UpsertPaper(t.Context(), store.Paper{Title: "Cold gas (preprint)", ArxivID: &known})
	if err != nil {
		t.Fatal(err)
	}
	qid := strconv.FormatInt(q.ID, 10)
	frag = bc.get("/library/"+qid+"/links", "HX-Request", "true")
	expectContains(t, "bibcode found", frag.body, "References (3)", `data-testid="links-fetched"`)
	got, err := b.store.PaperByID(t.Context(), q.ID)
	if err != nil || got.Bibcode == nil || *got.Bibcode != "2024ApJ...961...12F" || got.Title != "Cold gas (preprint)" || got.CitationCount == nil {
		t.Fatalf("after finding the bibcode: %+v %v", got, err)
	}
}

func TestPaperLinksFromADS(t *testing.T) {
	a := newApp(t, map[string]string{"ADS_API_TOKEN": "tok"})
	c := a.setupAdmin()
	id := addEHT(t, a)
	// One reference is in the library already (imported by arXiv id; ADS
	// gives it its bibcode), with its PDF.
	cold := importPaper(t, c)
	expectStatus(t, "download", c.postForm("/library/"+cold+"/download", nil), http.StatusSeeOther)
	coldID, _ := strconv.ParseInt(cold, 10, 64)
	waitDownloaded(t, a, coldID, "downloaded")

	page := c.get("/library/" + id)
	expectContains(t, "pending", page.body, `hx-get="/library/`+id+`/links"`, `hx-trigger="load"`,
		`action="/library/`+id+`/links"`, "Load them from ADS")

	frag := c.get("/library/"+id+"/links", "HX-Request", "true")
	expectStatus(t, "links fragment", frag, http.StatusOK)
	expectContains(t, "links fragment", frag.body, `id="paper-links"`, "References (3)", "Citations (2 of 4637, newest first)",
		"Cold gas in ultra-faint dwarf galaxies", `href="/library/`+cold+`"`, `data-testid="in-library"`, "badge on\">PDF",
		"Electromagnetic extraction of energy from Kerr black holes.", `value="1977MNRAS.179..433B"`,
		`name="return" value="/library/`+id+`#paper-links"`, "Blandford, R. D.; Znajek, R. L. · 1977 · Monthly Notices",
		`href="https://ui.adsabs.harvard.edu/abs/2019ApJ...875L...1E/citations"`, "All 4637 citations on ADS",
		`href="https://ui.adsabs.harvard.edu/abs/1977MNRAS.179..433B/abstract"`)
	expectLacks(t, "links fragment", frag.body, "<html")
	if n := strings.Count(frag.body, `data-testid="link-add"`); n != 4 {
		t.Fatalf("%d add buttons, want 4 (every linked paper but the one in the library)", n)
	}
	// Stored: the page shows the lists itself now.
	expectContains(t, "ready", c.get("/library/"+id).body, `data-testid="links-fetched"`, "References (3)")

	// One-click add from the reference list comes back to the list.
	res := c.postForm("/library/import", url.Values{"ref": {"1977MNRAS.179..433B"}, "return": {"/library/" + id + "#paper-links"}})
	expectStatus(t, "add reference", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/library/"+id+"#paper-links" {
		t.Fatalf("add went to %q", loc)
	}
	page = c.get("/library/" + id)
	expectContains(t, "after add", page.body, "Imported “Electromagnetic extraction")
	if n := strings.Count(page.body, `data-testid="in-library"`); n != 2 {
		t.Fatalf("%d linked papers in the library, want 2", n)
	}
	// A return that is not a library page is ignored.
	for _, bad := range []string{"//evil.example/", "https://evil.example/library/1", "/settings", "/library/\\evil"} {
		res := c.postForm("/library/import", url.Values{"ref": {"1977MNRAS.179..433B"}, "return": {bad}})
		if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/library/") || strings.Contains(loc, "evil") {
			t.Fatalf("return %q: went to %q", bad, loc)
		}
	}
	// A failed add comes back with the reason.
	res = c.postForm("/library/import", url.Values{"ref": {"not a paper"}, "return": {"/library/" + id}})
	expectStatus(t, "failed add", res, http.StatusSeeOther)
	expectContains(t, "failed add", c.get("/library/"+id).body, "Could not import not a paper")

	// Without JavaScript the refresh button answers with a redirect.
	res = c.postForm("/library/"+id+"/links", nil)
	expectStatus(t, "refresh", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/library/"+id+"#paper-links" {
		t.Fatalf("refresh went to %q", loc)
	}

	// JSON API.
	var refs struct {
		References []store.LinkedPaper `json:"references"`
		Total      int                 `json:"total"`
		FetchedAt  string              `json:"fetched_at"`
	}
	c.get("/api/papers/"+id+"/references").json(t, &refs)
	if refs.Total != 3 || len(refs.References) != 3 || refs.References[0].LibraryID == nil || *refs.References[0].DownloadStatus != "downloaded" ||
		refs.References[1].LibraryID != nil || refs.References[2].LibraryID == nil || refs.FetchedAt == "" {
		t.Fatalf("references: %+v", refs)
	}
	var cites struct {
		Citations []store.LinkedPaper `json:"citations"`
		Total     int                 `json:"total"`
	}
	c.get("/api/papers/"+id+"/citations?refresh=true").json(t, &cites)
	if cites.Total != 4637 || len(cites.Citations) != 2 || cites.Citations[0].Bibcode != "2024arXiv240112345K" {
		t.Fatalf("citations: %+v", cites)
	}
	expectAPIError(t, "unknown paper", c.get("/api/papers/999/citations"), http.StatusNotFound, "not_found")
	expectStatus(t, "unknown paper page", c.get("/library/999/links"), http.StatusNotFound)
}

func TestPaperLinksWhenADSFails(t *testing.T) {
	a := newApp(t, map[string]string{"ADS_API_TOKEN": "tok"})
	c := a.setupAdmin()
	for _, tc := range []struct {
		bibcode, message, code string
		status                 int
	}{
		{adsFailingBibcode, "NASA ADS could not list them just now", "upstream_error", http.StatusBadGateway},
		{adsLimitedBibcode, "rate-limiting", "upstream_rate_limited", http.StatusServiceUnavailable},
	} {
		bib := tc.bibcode
		p, _, err := a.store.UpsertPaper(t.Context(), store.Paper{Title: "Unlucky " + bib, Bibcode: &bib})
		if err != nil {
			t.Fatal(err)
		}
		id := strconv.FormatInt(p.ID, 10)
		frag := c.get("/library/"+id+"/links", "HX-Request", "true")
		expectStatus(t, bib, frag, http.StatusOK)
		expectContains(t, bib, frag.body, `role="alert"`, tc.message, "Try again", `hx-post="/library/`+id+`/links"`)
		expectLacks(t, bib, frag.body, "java.lang")
		// Nothing was stored: the page still offers to load them.
		expectContains(t, bib+" page", c.get("/library/"+id).body, `hx-trigger="load"`)
		// Without JavaScript the reason comes back as the flash.
		res := c.postForm("/library/"+id+"/links", nil)
		expectStatus(t, bib+" no-JS", res, http.StatusSeeOther)
		expectContains(t, bib+" flash", c.get("/library/"+id).body, tc.message)
		expectAPIError(t, bib+" API", c.get("/api/papers/"+id+"/citations"), tc.status, tc.code)
	}
}
