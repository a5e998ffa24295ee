package handlers

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
	"github.com/astroresearch/astroresearch/views"
)

// seedPapers adds n papers straight to the store: even ones about cooling
// flows, odd ones about dark matter, years 2020–2022 in turn; the first two
// are tagged "perseus".
func seedPapers(t *testing.T, a *testApp, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("2301.%05d", i)
		year := 2020 + i%3
		title := fmt.Sprintf("Dark matter halo survey %d", i)
		if i%2 == 0 {
			title = fmt.Sprintf("Cooling flow study %d", i)
		}
		p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: title, ArxivID: &id, Year: &year, Journal: "MNRAS",
			Authors: []string{"A. One", "B. Two", "C. Three", "D. Four"}})
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			storetest.Exec(t, a.store, `INSERT INTO paper_tags (paper_id, tag) VALUES (?, 'perseus')`, p.ID)
		}
	}
}

func rows(body string) int { return strings.Count(body, `data-testid="paper-row"`) }

func TestLibraryListSearchFiltersPages(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	empty := c.get("/library")
	expectStatus(t, "empty library", empty, http.StatusOK)
	expectContains(t, "empty library", empty.body, `data-testid="no-papers"`, `data-testid="import-form"`,
		`<a href="/library" aria-current="page">Library</a>`)
	seedPapers(t, a, 55)

	first := c.get("/library")
	expectStatus(t, "list", first, http.StatusOK)
	if n := rows(first.body); n != 50 {
		t.Fatalf("first page has %d rows, want 50", n)
	}
	expectContains(t, "first page", first.body, "55 papers", `data-testid="next-page"`, `href="/library?page=2"`,
		`href="/api/papers/bibtex"`, `data-testid="row-bibtex"`, "A. One et al.", "2022 · MNRAS",
		`href="https://arxiv.org/abs/2301.00054"`, "Dark matter halo survey 53")
	expectLacks(t, "first page", first.body, `data-testid="prev-page"`)
	// Newest first: the last seeded paper leads.
	if strings.Index(first.body, "Cooling flow study 54") > strings.Index(first.body, "Dark matter halo survey 53") {
		t.Fatal("list is not newest first")
	}

	second := c.get("/library?page=2")
	if n := rows(second.body); n != 5 {
		t.Fatalf("second page has %d rows, want 5", n)
	}
	expectContains(t, "second page", second.body, `data-testid="prev-page"`, `href="/library"`, "Page 2")
	expectLacks(t, "second page", second.body, `data-testid="next-page"`)

	search := c.get("/library?q=cooling")
	expectStatus(t, "search", search, http.StatusOK)
	if n := rows(search.body); n != 28 || strings.Contains(search.body, "Dark matter halo survey") {
		t.Fatalf("search found %d rows\n%s", n, search.body)
	}
	expectContains(t, "search keeps the query", search.body, `value="cooling"`)

	year := c.get("/library?year=2021&q=cooling")
	want := 0
	for i := 0; i < 55; i++ {
		if i%2 == 0 && i%3 == 1 {
			want++
		}
	}
	if n := rows(year.body); n != want {
		t.Fatalf("year+query found %d rows, want %d", n, want)
	}
	tag := c.get("/library?tag=perseus")
	if n := rows(tag.body); n != 2 {
		t.Fatalf("tag found %d rows, want 2", n)
	}
	none := c.get("/library?q=zzzqqq")
	expectContains(t, "no match", none.body, "No paper in the library matches.")

	bad := c.get("/library?year=twenty")
	expectStatus(t, "bad year", bad, http.StatusBadRequest)
	expectContains(t, "bad year", bad.body, `role="alert"`, "four-digit year")
	expectStatus(t, "bad page", c.get("/library?page=0"), http.StatusBadRequest)

	// The pager keeps the filters (an author search matches every paper).
	byAuthor := c.get("/library?q=one")
	expectContains(t, "author search pager", byAuthor.body, "55 papers", `href="/library?page=2&amp;q=one"`)
	expectContains(t, "author search page 2", c.get("/library?q=one&page=2").body, `href="/library?q=one"`)

	frag := c.get("/library?q=cooling", "HX-Request", "true", "HX-Target", "library-results")
	expectStatus(t, "fragment", frag, http.StatusOK)
	if strings.Contains(frag.body, "<html") || rows(frag.body) != 28 {
		t.Fatalf("fragment:\n%s", frag.body)
	}
	badFrag := c.get("/library?year=x", "HX-Request", "true", "HX-Target", "library-results")
	expectStatus(t, "refused fragment", badFrag, http.StatusOK)
}

func TestLibraryImportForm(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.postForm("/library/import", url.Values{"ref": {"https://arxiv.org/abs/2401.01234v2"}})
	expectStatus(t, "import", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/library/") {
		t.Fatalf("import went to %q", loc)
	}
	page := c.get(loc)
	expectStatus(t, "detail", page, http.StatusOK)
	expectContains(t, "detail after import", page.body, "Imported “", "Cold gas in ultra-faint dwarf galaxies")

	again := c.postForm("/library/import", url.Values{"ref": {"arXiv:2401.01234"}})
	expectStatus(t, "re-import", again, http.StatusSeeOther)
	if got := again.Header.Get("Location"); got != loc {
		t.Fatalf("re-import went to %q, want %q", got, loc)
	}
	expectContains(t, "re-import flash", c.get(loc).body, "was already in the library")

	bad := c.postForm("/library/import", url.Values{"ref": {"hello"}})
	expectStatus(t, "bad ref", bad, http.StatusBadRequest)
	expectContains(t, "bad ref", bad.body, `role="alert"`, "not an arXiv id, bibcode, DOI", `value="hello"`, `aria-invalid="true"`,
		`data-testid="paper-row"`)
	unknown := c.postForm("/library/import", url.Values{"ref": {"2402.99999"}})
	expectStatus(t, "unknown paper", unknown, http.StatusNotFound)
	expectContains(t, "unknown paper", unknown.body, "Neither ADS nor arXiv knows that paper.")
	noToken := c.postForm("/library/import", url.Values{"ref": {"2019ApJ...875L...1E"}})
	expectStatus(t, "bibcode without token", noToken, http.StatusUnprocessableEntity)
	expectContains(t, "bibcode without token", noToken.body, "ADS_API_TOKEN")

	if rows := rows(c.get("/library").body); rows != 1 {
		t.Fatalf("library has %d rows after the imports, want 1", rows)
	}
}

// importPaper imports the fixture paper through the form and returns its id.
func importPaper(t *testing.T, c *client) string {
	t.Helper()
	res := c.postForm("/library/import", url.Values{"ref": {"2401.01234"}})
	expectStatus(t, "import", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	return loc[strings.LastIndex(loc, "/")+1:]
}

func TestLibraryDetailAndDownload(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	id := importPaper(t, c)
	page := c.get("/library/" + id)
	expectStatus(t, "detail", page, http.StatusOK)
	expectContains(t, "detail", page.body,
		`data-testid="paper-title"`, "Maria J. Fernández; Tomasz Nowak", "stacking analysis",
		`href="https://arxiv.org/abs/2401.01234"`, "arXiv:2401.01234v2",
		`href="https://doi.org/10.3847/1538-4357/ad1234"`,
		`href="/api/papers/`+id+`/bibtex"`, "No PDF has been downloaded yet.",
		`action="/library/`+id+`/download"`)
	expectLacks(t, "detail", page.body, `hx-trigger="every 2s"`)
	expectStatus(t, "no PDF yet", c.get("/library/"+id+"/pdf"), http.StatusNotFound)

	res := c.postForm("/library/"+id+"/download", nil)
	expectStatus(t, "download", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/library/"+id {
		t.Fatalf("download went to %q", loc)
	}
	pid, _ := strconv.ParseInt(id, 10, 64)
	waitDownloaded(t, a, pid, "downloaded")

	page = c.get("/library/" + id)
	expectContains(t, "detail after download", page.body, "The PDF is stored.", `href="/library/`+id+`/pdf"`,
		strconv.Itoa(len(fakePDF))+" B")
	expectLacks(t, "detail after download", page.body, `data-testid="download-form"`, `hx-trigger`)
	pdf := c.get("/library/" + id + "/pdf")
	expectStatus(t, "pdf", pdf, http.StatusOK)
	if pdf.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(pdf.Header.Get("Content-Disposition"), "inline") || pdf.body != fakePDF {
		t.Fatalf("pdf: %q %q %q", pdf.Header.Get("Content-Type"), pdf.Header.Get("Content-Disposition"), pdf.body)
	}
	status := c.get("/library/"+id+"/status", "HX-Request", "true")
	expectStatus(t, "status fragment", status, http.StatusOK)
	expectContains(t, "status fragment", status.body, `id="download-status"`, "downloaded", `href="/library/`+id+`/pdf"`)
	expectLacks(t, "status fragment", status.body, "<html", "hx-trigger")

	// A paper no source has: the failure and its reason are shown.
	other := "2402.00001"
	p, _, err := a.store.UpsertPaper(context.Background(), store.Paper{Title: "No PDF anywhere", ArxivID: &other})
	if err != nil {
		t.Fatal(err)
	}
	oid := strconv.FormatInt(p.ID, 10)
	expectStatus(t, "failing download", c.postForm("/library/"+oid+"/download", nil), http.StatusSeeOther)
	waitDownloaded(t, a, p.ID, "failed")
	failed := c.get("/library/" + oid)
	expectContains(t, "failed download", failed.body, `data-testid="download-error"`, "HTTP 404", `data-testid="download-form"`)

	for _, path := range []string{"/library/999", "/library/abc", "/library/999/pdf", "/library/999/status"} {
		expectStatus(t, path, c.get(path), http.StatusNotFound)
	}
	expectStatus(t, "download unknown", c.postForm("/library/999/download", nil), http.StatusNotFound)
	if err := a.srv.StopDownloads(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// waitDownloaded waits (bounded) for the background downloads to end and
// checks the paper's stored status.
func waitDownloaded(t *testing.T, a *testApp, id int64, want string) {
	t.Helper()
	done := make(chan struct{})
	go func() { a.srv.WaitDownloads(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the download did not finish within 10 s")
	}
	p, err := a.store.PaperByID(context.Background(), id)
	if err != nil || p.DownloadStatus != want {
		t.Fatalf("paper %d status %q (%q), want %q: %v", id, p.DownloadStatus, p.DownloadError, want, err)
	}
}

func TestDownloadStatusPolling(t *testing.T) {
	var buf bytes.Buffer
	d := views.DownloadStatus{BasePath: "/astro", PaperID: 7, Status: "downloading", Running: true}
	if err := views.DownloadStatusView(d).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	expectContains(t, "running", buf.String(), `hx-get="/astro/library/7/status"`, `hx-trigger="every 2s"`,
		`hx-swap="outerHTML"`, `href="/astro/library/7"`, "downloading…")
	expectLacks(t, "running", buf.String(), `data-testid="download-form"`)
	buf.Reset()
	d = views.DownloadStatus{BasePath: "/astro", PaperID: 7, Status: "downloading", Stale: true, CanStart: true}
	if err := views.DownloadStatusView(d).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	expectContains(t, "interrupted", buf.String(), "interrupted", `action="/astro/library/7/download"`)
	expectLacks(t, "interrupted", buf.String(), "hx-trigger")

	buf.Reset()
	d = views.DownloadStatus{BasePath: "/astro", PaperID: 7, Status: "downloading", Running: true, Source: "arXiv", Read: 1536, Total: 4096}
	if err := views.DownloadStatusView(d).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	expectContains(t, "progress", buf.String(), `<progress value="1536" max="4096" aria-label="Download progress">`,
		"from arXiv: 1.5 KiB of 4.0 KiB")
	buf.Reset()
	d.Total = -1
	if err := views.DownloadStatusView(d).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	expectContains(t, "progress without a total", buf.String(), "from arXiv: 1.5 KiB so far")
	expectLacks(t, "progress without a total", buf.String(), "<progress")
}

func TestLibraryBasePath(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	c := a.setupAdmin()
	res := c.postForm("/library/import", url.Values{"ref": {"2401.01234"}})
	expectStatus(t, "import", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/astro/library/") {
		t.Fatalf("import went to %q", loc)
	}
	id := loc[strings.LastIndex(loc, "/")+1:]
	list := c.get("/library")
	expectContains(t, "list", list.body, `action="/astro/library/import"`, `action="/astro/library"`, `hx-get="/astro/library"`,
		`href="/astro/library/`+id+`"`, `href="/astro/api/papers/bibtex"`, `href="/astro/api/papers/`+id+`/bibtex"`,
		`<a href="/astro/library" aria-current="page">Library</a>`)
	detail := c.get("/library/" + id)
	expectContains(t, "detail", detail.body, `action="/astro/library/`+id+`/download"`, `href="/astro/library"`)
	expectStatus(t, "download", c.postForm("/library/"+id+"/download", nil), http.StatusSeeOther)
	pid, _ := strconv.ParseInt(id, 10, 64)
	waitDownloaded(t, a, pid, "downloaded")
	expectContains(t, "detail after download", c.get("/library/"+id).body, `href="/astro/library/`+id+`/pdf"`)
	expectStatus(t, "pdf", c.get("/library/"+id+"/pdf"), http.StatusOK)
}

func TestLibraryStatusFilter(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	seedPapers(t, a, 3)
	ctx := t.Context()
	list, _, err := a.store.ListPapers(ctx, store.PaperFilter{})
	if err != nil || len(list) != 3 {
		t.Fatalf("seeded %d, %v", len(list), err)
	}
	if err := a.store.SetDownloadStatus(ctx, list[0].ID, "failed", "HTTP 404"); err != nil {
		t.Fatal(err)
	}
	res := c.get("/library?status=failed")
	expectStatus(t, "failed filter", res, http.StatusOK)
	if n := strings.Count(res.body, `data-testid="paper-row"`); n != 1 || !strings.Contains(res.body, list[0].Title) {
		t.Fatalf("%d rows for status=failed", n)
	}
	if n := strings.Count(c.get("/library?status=none").body, `data-testid="paper-row"`); n != 2 {
		t.Fatalf("%d rows for status=none, want 2", n)
	}
	expectStatus(t, "bad status", c.get("/library?status=lost"), http.StatusBadRequest)
	var body struct {
		Total int `json:"total"`
	}
	c.get("/api/papers?status=failed").json(t, &body)
	if body.Total != 1 {
		t.Fatalf("API status filter: %d", body.Total)
	}
	expectAPIError(t, "bad API status", c.get("/api/papers?status=lost"), http.StatusBadRequest, "invalid_request")
}

func TestLibrarySorting(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	seedPapers(t, a, 55)
	// Citation counts: paper i gets i, so the most cited is the last seeded.
	storetest.Exec(t, a.store, `UPDATE papers SET citation_count = CAST(substr(arxiv_id, 6) AS INTEGER)`)
	order := func(path string, first, second string) {
		t.Helper()
		res := c.get(path)
		expectStatus(t, path, res, http.StatusOK)
		i, j := strings.Index(res.body, first), strings.Index(res.body, second)
		if i < 0 || j < 0 || i > j {
			t.Fatalf("%s: %q (%d) should come before %q (%d)", path, first, i, second, j)
		}
	}
	order("/library?sort=title", "Cooling flow study 0<", "Dark matter halo survey 1<")
	order("/library?sort=cited", "Cooling flow study 54", "Dark matter halo survey 53")
	order("/library?sort=year", "2022 · MNRAS", "2021 · MNRAS")
	order("/library?sort=newest", "Cooling flow study 54", "Dark matter halo survey 53")
	// A search ordered by title instead of relevance.
	order("/library?q=cooling&sort=title", "Cooling flow study 0<", "Cooling flow study 10<")
	res := c.get("/library?sort=title")
	expectContains(t, "sort kept", res.body, `href="/library?page=2&amp;sort=title"`, `<option value="title" selected>`)
	bad := c.get("/library?sort=random")
	expectStatus(t, "bad sort", bad, http.StatusBadRequest)
	expectContains(t, "bad sort", bad.body, "The order must be")
	var body struct {
		Papers []struct {
			Title string `json:"title"`
		} `json:"papers"`
	}
	c.get("/api/papers?sort=cited&limit=1").json(t, &body)
	if len(body.Papers) != 1 || body.Papers[0].Title != "Cooling flow study 54" {
		t.Fatalf("API sort: %+v", body.Papers)
	}
	expectAPIError(t, "bad API sort", c.get("/api/papers?sort=random"), http.StatusBadRequest, "invalid_request")
}
