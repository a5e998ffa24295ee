package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestTriageSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, nil)
	u, err := s.CreateUser(ctx, "ana", "x", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.TriageSettings(ctx, u.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("settings before saving: %v, want ErrNotFound", err)
	}
	want := TriageSettings{UserID: u.ID, Categories: []string{"astro-ph.GA"}, Keywords: []string{"bar"},
		Objects: []TriageObject{{Name: "M106", Canonical: "NGC 4258", Aliases: []string{"M 106"}, Resolved: true}}, Authors: []string{"Kormendy"}}
	if err := s.SaveTriageSettings(ctx, want); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTriageFeedToken(ctx, u.ID, "tok"); err != nil {
		t.Fatal(err)
	}
	want.Keywords = []string{"bar", "spiral"}
	if err := s.SaveTriageSettings(ctx, want); err != nil { // keeps the token
		t.Fatal(err)
	}
	got, err := s.TriageSettings(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.FeedToken != "tok" || !slices.Equal(got.Keywords, want.Keywords) || got.Objects[0].Canonical != "NGC 4258" ||
		!slices.Equal(got.Categories, want.Categories) || !slices.Equal(got.Authors, want.Authors) {
		t.Fatalf("settings = %+v", got)
	}
	if id, err := s.TriageUserByFeedToken(ctx, "tok"); err != nil || id != u.ID {
		t.Fatalf("by token = %d, %v", id, err)
	}
	for _, tok := range []string{"", "other"} {
		if _, err := s.TriageUserByFeedToken(ctx, tok); !errors.Is(err, ErrNotFound) {
			t.Fatalf("token %q: %v, want ErrNotFound", tok, err)
		}
	}
	all, err := s.AllTriageSettings(ctx)
	if err != nil || len(all) != 1 || all[0].UserID != u.ID {
		t.Fatalf("all settings = %+v, %v", all, err)
	}
}

func TestTriageItemsRankHideAndLibrary(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, nil)
	u, err := s.CreateUser(ctx, "ana", "x", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	day := "2026-11-30"
	papers := []TriagePaper{
		{ArxivID: "2611.00001", Version: 1, Day: day, Title: "One", Authors: []string{"A. Author"}, Categories: []string{"astro-ph.GA", "astro-ph.CO"}},
		{ArxivID: "2611.00002", Version: 2, Day: day, Title: "Two"},
		{ArxivID: "2611.00003", Version: 1, Day: day, Title: "Three"},
	}
	if err := s.SaveTriagePapers(ctx, papers); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTriagePapers(ctx, papers[:1]); err != nil { // fetched again for another category
		t.Fatal(err)
	}
	got, err := s.TriagePapersOfDay(ctx, day)
	if err != nil || len(got) != 3 || !slices.Equal(got[0].Categories, papers[0].Categories) || got[0].Authors[0] != "A. Author" {
		t.Fatalf("papers of day = %+v, %v", got, err)
	}
	if err := s.ReplaceTriageScores(ctx, u.ID, day, []TriageScore{
		{ArxivID: "2611.00001", Score: 1, Reasons: []string{"r1"}},
		{ArxivID: "2611.00002", Score: 3, Reasons: []string{"r2"}},
		{ArxivID: "2611.00003", Score: 2}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTriageFeedback(ctx, u.ID, TriageFeedback{ArxivID: "2611.00003", Action: TriageHidden, Title: "Three"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTriageFeedback(ctx, u.ID, TriageFeedback{ArxivID: "x", Action: "liked"}); err == nil {
		t.Fatal("unknown action accepted")
	}
	aid := "2611.00001"
	if _, _, err := s.UpsertPaper(ctx, Paper{Title: "One", ArxivID: &aid}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTriageSummary(ctx, "2611.00002", "first", "m"); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTriageSummary(ctx, "2611.00002", "second", "m"); err != nil {
		t.Fatal(err)
	}
	items, err := s.TriageItems(ctx, u.ID, day)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].ArxivID != "2611.00002" || items[1].ArxivID != "2611.00001" {
		t.Fatalf("items = %+v, want 00002 then 00001 (00003 hidden)", items)
	}
	if items[0].Summary != "first" || items[0].Reasons[0] != "r2" || items[0].InLibrary || !items[1].InLibrary || items[1].LibraryID == 0 {
		t.Fatalf("items = %+v", items)
	}
	days, err := s.TriageRankedDays(ctx, u.ID, 10)
	if err != nil || !slices.Equal(days, []string{day}) {
		t.Fatalf("days = %v, %v", days, err)
	}
	fb, err := s.TriageFeedbackOf(ctx, u.ID)
	if err != nil || len(fb) != 1 || fb[0].Title != "Three" {
		t.Fatalf("feedback = %+v, %v", fb, err)
	}
}

func TestTriageFetchesAndVectors(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, nil)
	next := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, f := range []TriageFetch{
		{Category: "astro-ph.GA", Day: "2026-11-29", Status: TriageFetchDone, Papers: 40, Requests: 1},
		{Category: "astro-ph.GA", Day: "2026-11-30", Status: TriageFetchFailed, Attempts: 1, Error: "HTTP 503", NextAttempt: &next},
		{Category: "astro-ph.CO", Day: "2026-11-30", Status: TriageFetchDone},
	} {
		if err := s.RecordTriageFetch(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.TriageFetches(ctx, []string{"astro-ph.GA"}, "2026-11-30", "2026-11-30")
	if err != nil || len(got) != 1 || got[0].Status != TriageFetchFailed || got[0].NextAttempt == nil || !got[0].NextAttempt.Equal(next) {
		t.Fatalf("fetches = %+v, %v", got, err)
	}
	vecs := map[string][]float32{"2611.00001": {1, -0.5, 3}, LibraryRef(7): {0.25}}
	if err := s.SaveTriageVectors(ctx, TriageVectorNew, "m", vecs); err != nil {
		t.Fatal(err)
	}
	back, err := s.TriageVectors(ctx, TriageVectorNew, "m", []string{"2611.00001", "7", "missing"})
	if err != nil || len(back) != 2 || !slices.Equal(back["2611.00001"], vecs["2611.00001"]) {
		t.Fatalf("vectors = %v, %v", back, err)
	}
	if other, _ := s.TriageVectors(ctx, TriageVectorNew, "other-model", []string{"2611.00001"}); len(other) != 0 {
		t.Fatalf("vectors of another model = %v", other)
	}
}
