package triage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

var day30 = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// fixturePapers are a day of submissions: a few that match what the test
// user follows, fillers enough to need two pages, one malformed entry,
// and a paper of another category.
func fixturePapers() []fakePaper {
	at := func(h int) time.Time { return day30.Add(time.Duration(h) * time.Minute) }
	ps := []fakePaper{
		{id: "2611.10001", title: "Bar-driven gas inflow fuels central starbursts in barred spiral galaxies",
			abstract: "We simulate barred spiral galaxies and measure the bar-driven gas inflow rate onto the nuclear ring.",
			authors:  []string{"Ana Silva"}, cats: []string{"astro-ph.GA"}, submitted: at(10)},
		{id: "2611.10002", title: "A warped maser disc", abstract: "VLBI observations of water masers in M106 constrain the disc warp.",
			authors: []string{"B. Chen"}, cats: []string{"astro-ph.GA", "astro-ph.CO"}, submitted: at(20)},
		{id: "2611.10003", title: "Pseudobulges revisited", abstract: "Secular evolution of disc galaxies.",
			authors: []string{"C. Doe", "John Kormendy"}, cats: []string{"astro-ph.GA"}, submitted: at(30)},
		{id: "2611.10004", title: "A tidal disruption event in a dwarf galaxy", abstract: "We report a flare.",
			authors: []string{"D. Roe"}, cats: []string{"astro-ph.HE", "astro-ph.GA"}, submitted: at(40)},
		{id: "2611.20001", title: "Cosmic shear from a new survey", abstract: "Weak lensing constraints.",
			authors: []string{"E. Poe"}, cats: []string{"astro-ph.CO"}, submitted: at(50)},
		{id: "2611.99999", title: "Broken entry", abstract: "x", authors: []string{"X"}, cats: []string{"astro-ph.GA"}, submitted: at(55), malformed: true},
	}
	for i := range 110 {
		ps = append(ps, fakePaper{id: fmt.Sprintf("2611.3%04d", i), title: fmt.Sprintf("Filler study number %d of quasar absorption lines", i),
			abstract: "Quasar absorption line statistics in a large spectroscopic sample.", authors: []string{"F. Filler"},
			cats: []string{"astro-ph.GA"}, submitted: at(60 + i)})
	}
	return ps
}

type harness struct {
	st    *store.Store
	svc   *Service
	fake  *arxivFake
	clock *clock
	logs  *logBuffer
	user  int64
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	st := newTestStore(t)
	fake := &arxivFake{papers: fixturePapers()}
	h := &harness{st: st, fake: fake, clock: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}, logs: &logBuffer{}}
	svc, err := New(st, Options{Arxiv: fake.serve(t), Resolver: fakeResolver{}, Importer: fakeImporter{st},
		Log: h.logs.logger(), Now: h.clock.Now, Pace: time.Millisecond, CatchUpDays: 2, Settle: -1})
	if err != nil {
		t.Fatal(err)
	}
	h.svc = svc
	h.user = newUser(t, st, "ana")
	ctx := context.Background()
	year := 2024
	for _, p := range []store.Paper{
		{Title: "Bar-driven gas inflow and nuclear rings in barred spiral galaxies", Abstract: "Simulations of gas inflow driven by bars in spiral galaxies feeding nuclear rings.", Year: &year},
		{Title: "Barred spiral galaxies: gas inflow rates", Abstract: "Measured bar-driven inflow rates in barred galaxies."},
		{Title: "The cosmic microwave background", Abstract: "Anisotropies of the CMB."},
	} {
		bib := fmt.Sprintf("2024ApJ...%03d..%03dX", len(p.Title), len(p.Abstract))
		p.Bibcode = &bib
		if _, _, err := st.UpsertPaper(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *harness) follow(t *testing.T, user int64, in SettingsInput) {
	t.Helper()
	if _, _, err := h.svc.SaveSettings(context.Background(), user, in); err != nil {
		t.Fatal(err)
	}
}

func TestFetchRankAndReasons(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.GA"}, Keywords: []string{"tidal disruption"},
		Objects: []string{"NGC 4258"}, Authors: []string{"Kormendy, J."}})
	bob := newUser(t, h.st, "bob")
	h.follow(t, bob, SettingsInput{Categories: []string{"astro-ph.GA", "astro-ph.CO"}})
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	// Two days × two categories; astro-ph.GA on the 30th needs two pages.
	reqs := h.fake.requests()
	if len(reqs) != 5 {
		t.Fatalf("requests = %d, want 5 (one per category page per day):\n%s", len(reqs), strings.Join(reqs, "\n"))
	}
	if !slices.Contains(reqs, "cat:astro-ph.GA AND submittedDate:[202611300000 TO 202611302359] start=100") {
		t.Fatalf("no second page asked for:\n%s", strings.Join(reqs, "\n"))
	}
	d, err := h.svc.Digest(ctx, h.user, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Items) != 114 { // 4 matching + 110 fillers; not the CO-only paper nor the malformed one
		t.Fatalf("items = %d, want 114", len(d.Items))
	}
	for i := 1; i < len(d.Items); i++ {
		if d.Items[i].Score > d.Items[i-1].Score {
			t.Fatalf("items not sorted by score at %d", i)
		}
	}
	want := map[string]string{
		"2611.10001": "similar to 2 papers in your library",
		"2611.10002": "mentions M 106",
		"2611.10003": "by John Kormendy, an author you follow",
		"2611.10004": `"tidal disruption" in the title`,
	}
	top := map[string]bool{}
	for _, it := range d.Items[:4] {
		top[it.ArxivID] = true
	}
	for id, reason := range want {
		if !top[id] {
			t.Errorf("%s is not among the top 4", id)
		}
		it := findItem(d.Items, id)
		if !strings.Contains(strings.Join(it.Reasons, " | "), reason) {
			t.Errorf("%s reasons = %q, want one containing %q", id, it.Reasons, reason)
		}
	}
	if !strings.Contains(h.logs.String(), "skipped a malformed arXiv entry") || !strings.Contains(h.logs.String(), "not-an-id") {
		t.Errorf("malformed entry not logged:\n%s", h.logs.String())
	}
	bd, err := h.svc.Digest(ctx, bob, "2026-11-30")
	if err != nil || findItem(bd.Items, "2611.20001").ArxivID == "" {
		t.Fatalf("bob follows astro-ph.CO but lacks its paper: %v", err)
	}
	// A second run fetches nothing: each category-day is fetched once.
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(h.fake.requests()); n != 5 {
		t.Fatalf("second run sent %d more requests", n-5)
	}
}

func findItem(items []store.TriageItem, id string) store.TriageItem {
	for _, it := range items {
		if it.ArxivID == id {
			return it
		}
	}
	return store.TriageItem{}
}

func TestArxivDownIsRetriedLater(t *testing.T) {
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			h := newHarness(t)
			ctx := context.Background()
			h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.GA"}})
			h.fake.fail, h.fake.retryHdr = []int{status, status}, "3600"
			if err := h.svc.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			d, err := h.svc.Digest(ctx, h.user, "2026-11-30")
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Problems) != 2 || d.Problems[0].NextAttempt == nil {
				t.Fatalf("problems = %+v, want both days failed with a retry time", d.Problems)
			}
			if got := d.Problems[0].NextAttempt.Sub(h.clock.Now()); got != time.Hour {
				t.Errorf("retry in %s, want Retry-After's hour", got)
			}
			if !strings.Contains(d.Problems[0].Error, fmt.Sprint(status)) {
				t.Errorf("error %q does not name HTTP %d", d.Problems[0].Error, status)
			}
			// Not retried before its time.
			if err := h.svc.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			if n := len(h.fake.requests()); n != 2 {
				t.Fatalf("retried too early: %d requests", n)
			}
			h.clock.Add(time.Hour)
			if err := h.svc.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			d, err = h.svc.Digest(ctx, h.user, "2026-11-30")
			if err != nil || len(d.Problems) != 0 || len(d.Items) != 114 {
				t.Fatalf("after the retry: problems %+v, %d items, %v", d.Problems, len(d.Items), err)
			}
		})
	}
}

func TestCatchUpAfterDowntime(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.svc.opt.CatchUpDays = 7
	h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.CO"}})
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(h.fake.requests()); n != 7 {
		t.Fatalf("first run: %d requests, want the 7 missed days", n)
	}
	h.clock.Add(3 * 24 * time.Hour) // the server was down for three days
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := h.fake.requests()[7:]
	if len(reqs) != 3 || !strings.Contains(reqs[0], "202612010000") || !strings.Contains(reqs[2], "202612030000") {
		t.Fatalf("catch-up requests = %q, want Dec 1–3 once each", reqs)
	}
}

func TestSettingsValidation(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	_, _, err := h.svc.SaveSettings(ctx, h.user, SettingsInput{Categories: []string{"astro-ph.GA", "astro-ph.XX"}})
	var ce *CategoryError
	if !errors.As(err, &ce) || ce.Category != "astro-ph.XX" {
		t.Fatalf("unknown category: %v, want a CategoryError", err)
	}
	_, _, err = h.svc.SaveSettings(ctx, h.user, SettingsInput{Categories: []string{"astro-ph.ga"}})
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "did you mean astro-ph.GA") {
		t.Fatalf("lower-case category: %v", err)
	}
	var ie *InputError
	if _, _, err := h.svc.SaveSettings(ctx, h.user, SettingsInput{Keywords: []string{strings.Repeat("x", 200)}}); !errors.As(err, &ie) {
		t.Fatalf("overlong keyword: %v", err)
	}
	set, notes, err := h.svc.SaveSettings(ctx, h.user, SettingsInput{Categories: []string{" astro-ph.GA ", "astro-ph.GA"},
		Keywords: []string{"bars", "Bars", ""}, Objects: []string{"M106", "Nowhere X-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Categories, []string{"astro-ph.GA"}) || !slices.Equal(set.Keywords, []string{"bars"}) {
		t.Fatalf("settings not cleaned: %+v", set)
	}
	if !set.Objects[0].Resolved || set.Objects[0].Canonical != "M 106" || !slices.Contains(set.Objects[0].Aliases, "NGC 4258") {
		t.Fatalf("M106 not resolved: %+v", set.Objects[0])
	}
	if set.Objects[1].Resolved || len(notes) != 1 || !strings.Contains(notes[0], "Nowhere X-1") {
		t.Fatalf("unknown object: %+v, notes %q", set.Objects[1], notes)
	}
}

func TestFeedbackHidesAndAdds(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.GA"}})
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := h.svc.Digest(ctx, h.user, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	filler := findItem(before.Items, "2611.30001")
	if err := h.svc.Hide(ctx, h.user, "arXiv:2611.30000v1"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.svc.Add(ctx, h.user, "2611.10003"); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.Hide(ctx, h.user, "2611.00000"); !errors.Is(err, ErrNotFetched) {
		t.Fatalf("hiding an unknown paper: %v", err)
	}
	if err := h.svc.RunOnce(ctx); err != nil { // feedback asked for a new ranking
		t.Fatal(err)
	}
	after, err := h.svc.Digest(ctx, h.user, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if findItem(after.Items, "2611.30000").ArxivID != "" {
		t.Fatal("hidden paper still listed")
	}
	if it := findItem(after.Items, "2611.10003"); !it.InLibrary {
		t.Fatalf("added paper not marked in the library: %+v", it)
	}
	// Papers like the hidden one (the other fillers) rank lower now.
	if f := findItem(after.Items, "2611.30001"); f.Score >= filler.Score ||
		!strings.Contains(strings.Join(f.Reasons, " "), "marked not interested") {
		t.Fatalf("similar filler: score %v (was %v), reasons %q", f.Score, filler.Score, f.Reasons)
	}
}

func TestFeedIsAtom(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.follow(t, h.user, SettingsInput{Categories: []string{"astro-ph.GA"}, Keywords: []string{"tidal disruption"}})
	if err := h.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	body, err := h.svc.Feed(ctx, h.user, "https://astro.example/triage/feed/x", "https://astro.example/triage")
	if err != nil {
		t.Fatal(err)
	}
	s := string(body)
	for _, want := range []string{`<feed xmlns="http://www.w3.org/2005/Atom">`, `<id>https://arxiv.org/abs/2611.10004</id>`,
		`&#34;tidal disruption&#34; in the title`, `rel="self"`} {
		if !strings.Contains(s, want) {
			t.Errorf("feed lacks %s", want)
		}
	}
	tok, err := h.svc.FeedToken(ctx, h.user, false)
	if err != nil || len(tok) != 48 {
		t.Fatalf("token %q, %v", tok, err)
	}
	again, _ := h.svc.FeedToken(ctx, h.user, false)
	reset, _ := h.svc.FeedToken(ctx, h.user, true)
	if again != tok || reset == tok {
		t.Fatalf("token stable %v, reset changes it %v", again == tok, reset != tok)
	}
}
