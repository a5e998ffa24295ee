package handlers

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/triage"
)

// triageApp is a test app with the triage over a local arXiv stand-in that
// serves the arxiv package's search fixture (real Atom) for every day, or
// fails with 503 while down is set.
type triageApp struct {
	*testApp
	svc  *triage.Service
	down *atomic.Bool
}

func newTriageApp(t *testing.T) *triageApp {
	t.Helper()
	a := newApp(t, nil)
	feed, err := os.ReadFile("../research/arxiv/testdata/search_astroph.xml")
	if err != nil {
		t.Fatal(err)
	}
	// One page; the second entry made a new-style astro-ph.GA submission,
	// as a day's listing of that category has only those.
	feed = bytes.Replace(feed, []byte(">1523<"), []byte(">2<"), 1)
	feed = bytes.ReplaceAll(feed, []byte("astro-ph/0601001"), []byte("2401.05678"))
	feed = bytes.ReplaceAll(feed, []byte(`term="astro-ph"`), []byte(`term="astro-ph.GA"`))
	down := &atomic.Bool{}
	ax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			w.Header().Set("Retry-After", "600")
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
			return
		}
		if !strings.Contains(r.URL.Query().Get("search_query"), "submittedDate:[") {
			http.Error(w, "no date range", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write(feed)
	}))
	t.Cleanup(ax.Close)
	web := fetch.New(fetch.Options{Allow: []string{ax.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	svc, err := triage.New(a.store, triage.Options{Arxiv: arxiv.New(ax.URL+"/api/query", web), Resolver: fakeSesame(t),
		Importer: a.srv.library, Now: a.clock.Now, Pace: time.Millisecond, CatchUpDays: 1, Settle: -1})
	if err != nil {
		t.Fatal(err)
	}
	a.srv.triage = svc
	return &triageApp{testApp: a, svc: svc, down: down}
}

func (a *triageApp) run(t *testing.T) {
	t.Helper()
	if err := a.svc.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (c *client) putJSON(path, body string) response {
	req, _ := http.NewRequest(http.MethodPut, c.a.url(path), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return c.do(req)
}

func TestTriageAPI(t *testing.T) {
	a := newTriageApp(t)
	c := a.setupAdmin()

	res := c.putJSON("/api/triage/settings", `{"categories":["astro-ph.GA","astro-ph.XX"],"keywords":[],"objects":[],"authors":[]}`)
	expectAPIError(t, "unknown category", res, http.StatusBadRequest, "unknown_category")
	if !strings.Contains(res.body, "astro-ph.XX") {
		t.Fatalf("the error does not name the category: %s", res.body)
	}
	res = c.putJSON("/api/triage/settings", `{"categories":["astro-ph.GA"],"keywords":["[CII]","dwarf galaxies"],"objects":["NGC 1275"],"authors":["Nowak"]}`)
	expectStatus(t, "settings", res, http.StatusOK)
	var set struct {
		Categories []string `json:"categories"`
		Objects    []string `json:"objects"`
		Resolved   []struct {
			Canonical string `json:"canonical"`
			Resolved  bool   `json:"resolved"`
		} `json:"resolved_objects"`
	}
	res.json(t, &set)
	if len(set.Categories) != 1 || set.Objects[0] != "NGC 1275" || !set.Resolved[0].Resolved || set.Resolved[0].Canonical != "NGC 1275" {
		t.Fatalf("settings = %s", res.body)
	}
	expectStatus(t, "refresh", c.postJSON("/api/triage/refresh", ``), http.StatusAccepted)
	a.run(t) // what the scheduler does on refresh

	res = c.get("/api/triage?date=2026-11-29")
	expectStatus(t, "digest", res, http.StatusOK)
	var d struct {
		Date  string `json:"date"`
		Items []struct {
			ArxivID    string   `json:"arxiv_id"`
			Title      string   `json:"title"`
			Authors    []string `json:"authors"`
			Categories []string `json:"categories"`
			Score      float64  `json:"score"`
			Reasons    []string `json:"reasons"`
			Summary    *string  `json:"summary"`
			InLibrary  *bool    `json:"in_library"`
		} `json:"items"`
	}
	res.json(t, &d)
	if d.Date != "2026-11-29" || len(d.Items) != 2 {
		t.Fatalf("digest = %s", res.body)
	}
	first := d.Items[0]
	if first.ArxivID != "2401.01234" || first.Score < d.Items[1].Score || len(first.Authors) != 3 || first.Categories[0] != "astro-ph.GA" ||
		first.Summary == nil || first.InLibrary == nil || *first.InLibrary {
		t.Fatalf("first item = %+v", first)
	}
	reasons := strings.Join(first.Reasons, " | ")
	for _, want := range []string{`"[CII]" in the title`, "by Tomasz Nowak, an author you follow"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("reasons %q lack %q", reasons, want)
		}
	}
	// Default date: the newest digest.
	res = c.get("/api/triage")
	res.json(t, &d)
	if d.Date != "2026-11-29" {
		t.Fatalf("default date = %q", d.Date)
	}
	expectAPIError(t, "bad date", c.get("/api/triage?date=yesterday"), http.StatusBadRequest, "invalid_date")

	// Add to library, then hide the other one.
	expectStatus(t, "add", c.postJSON("/api/triage/papers/2401.01234/add", ``), http.StatusCreated)
	expectStatus(t, "hide", c.postJSON("/api/triage/papers/2401.05678/hide", ``), http.StatusNoContent)
	expectAPIError(t, "unknown paper", c.postJSON("/api/triage/papers/2612.99999/hide", ``), http.StatusNotFound, "not_found")
	res = c.get("/api/triage?date=2026-11-29")
	res.json(t, &d)
	if len(d.Items) != 1 || !*d.Items[0].InLibrary {
		t.Fatalf("after add and hide: %s", res.body)
	}
	// Signed out: the API is closed.
	anon := a.client()
	expectStatus(t, "anonymous", anon.get("/api/triage"), http.StatusUnauthorized)
}

func TestTriageArxivDownShownAndRetried(t *testing.T) {
	a := newTriageApp(t)
	c := a.setupAdmin()
	expectStatus(t, "settings", c.putJSON("/api/triage/settings", `{"categories":["astro-ph.GA"]}`), http.StatusOK)
	a.down.Store(true)
	a.run(t)
	res := c.get("/api/triage")
	var d struct {
		Items    []any `json:"items"`
		Problems []struct {
			Category    string `json:"category"`
			Error       string `json:"error"`
			NextAttempt string `json:"next_attempt"`
		} `json:"problems"`
	}
	res.json(t, &d)
	if len(d.Items) != 0 || len(d.Problems) != 1 || d.Problems[0].Category != "astro-ph.GA" || !strings.Contains(d.Problems[0].Error, "503") {
		t.Fatalf("digest while arXiv is down = %s", res.body)
	}
	page := c.get("/triage")
	expectStatus(t, "page", page, http.StatusOK)
	if !strings.Contains(page.body, `data-testid="triage-problem"`) || !strings.Contains(page.body, "arXiv is unavailable (HTTP 503)") ||
		!strings.Contains(page.body, "tried again after") {
		t.Fatalf("the page does not say arXiv is down:\n%s", page.body)
	}
	a.down.Store(false)
	a.clock.Advance(time.Hour)
	a.run(t)
	res = c.get("/api/triage")
	res.json(t, &d)
	if len(d.Items) != 2 || len(d.Problems) != 0 {
		t.Fatalf("after the retry: %s", res.body)
	}
}

func TestTriagePageFormsAndFeed(t *testing.T) {
	a := newTriageApp(t)
	c := a.setupAdmin()
	res := c.postForm("/triage/settings", url.Values{"categories": {"astro-ph.GA, astro-ph.foo"}})
	expectStatus(t, "bad category form", res, http.StatusBadRequest)
	if !strings.Contains(res.body, "is not an arXiv category") || !strings.Contains(res.body, "astro-ph.GA, astro-ph.foo") {
		t.Fatalf("the form does not explain or keep the input:\n%s", res.body)
	}
	res = c.postForm("/triage/settings", url.Values{"categories": {"astro-ph.GA"}, "keywords": {"dwarf\n\nreionization"}})
	expectStatus(t, "settings form", res, http.StatusSeeOther)
	a.run(t)
	page := c.get("/triage")
	expectStatus(t, "page", page, http.StatusOK)
	for _, want := range []string{`href="/triage"`, `data-testid="triage-item" data-arxiv="2401.01234"`, "Cold gas in ultra-faint dwarf galaxies",
		`data-testid="triage-reasons"`, "mentions &#34;reionization&#34;", "Add to library", "Not interested", "https://arxiv.org/abs/2401.01234"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	expectStatus(t, "add form", c.postForm("/triage/papers/2401.01234/add?date=2026-11-29", nil), http.StatusSeeOther)
	expectStatus(t, "hide form", c.postForm("/triage/papers/2401.05678/hide?date=2026-11-29", nil), http.StatusSeeOther)
	page = c.get("/triage?date=2026-11-29")
	if !strings.Contains(page.body, `data-testid="triage-in-library"`) || strings.Contains(page.body, "2401.05678") {
		t.Fatalf("after add and hide the page shows:\n%s", page.body)
	}
	// The Atom feed: made on request, readable with the token alone.
	expectStatus(t, "make feed", c.postForm("/triage/feed", nil), http.StatusSeeOther)
	page = c.get("/triage")
	start := strings.Index(page.body, `data-testid="triage-feed-url">`)
	if start < 0 {
		t.Fatal("no feed URL on the page")
	}
	feedURL := page.body[start+len(`data-testid="triage-feed-url">`):]
	feedURL = feedURL[:strings.Index(feedURL, "<")]
	u, _ := url.Parse(feedURL)
	feed := a.client().get(u.Path)
	expectStatus(t, "feed", feed, http.StatusOK)
	if ct := feed.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/atom+xml") ||
		!strings.Contains(feed.body, "<id>https://arxiv.org/abs/2401.01234</id>") {
		t.Fatalf("feed (%s):\n%s", ct, feed.body)
	}
	expectStatus(t, "wrong token", a.client().get("/triage/feed/nope"), http.StatusNotFound)
}

// TestTriageFormsRefuseCrossSite: the triage's and the record's new POST
// routes sit behind the cross-origin protection like every other form.
func TestTriageFormsRefuseCrossSite(t *testing.T) {
	a := newTriageApp(t)
	c := a.setupAdmin()
	for _, path := range []string{"/triage/settings", "/triage/refresh", "/triage/feed", "/triage/papers/2401.01234/hide",
		"/triage/papers/2401.01234/add", "/research/x/record/add"} {
		expectStatus(t, "cross-site "+path, c.postForm(path, url.Values{"categories": {"astro-ph.GA"}}, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
	}
	for _, path := range []string{"/api/triage/refresh", "/api/triage/papers/2401.01234/hide"} {
		res := c.postForm(path, nil, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site %s: %d", path, res.StatusCode)
		}
	}
	if set := c.get("/api/triage/settings"); strings.Contains(set.body, "astro-ph.GA") {
		t.Fatalf("a cross-site form changed the settings: %s", set.body)
	}
}
