package triage

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestSchedulerRunsByItself runs the scheduler in a synctest bubble: fake
// time, the arXiv stand-in in-process. It fetches each day once it has
// settled, paces requests three seconds apart, wakes on Refresh (which
// also fetches the unsettled yesterday, completed once it settles) — with
// no cron and no test calling RunOnce.
func TestSchedulerRunsByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newTestStore(t)
		fake := &arxivFake{papers: fixturePapers()}
		var mu sync.Mutex
		var at []time.Time
		rec := recordingArxiv{fake: fake, at: func() { mu.Lock(); at = append(at, time.Now()); mu.Unlock() }}
		// The bubble's clock starts at 2000-01-01 00:00 UTC; the fixture's
		// day is far later, which only matters for what is found.
		svc, err := New(st, Options{Arxiv: rec, CatchUpDays: 2, Interval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		user := newUser(t, st, "ana")
		ctx, cancel := context.WithCancel(context.Background())
		if _, _, err := svc.SaveSettings(ctx, user, SettingsInput{Categories: []string{"astro-ph.GA", "astro-ph.CO"}}); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { svc.Run(ctx); close(done) }()
		defer func() { cancel(); <-done }()

		// Jan 1 00:00: no day of the window has settled yet (26 h after its end).
		synctest.Wait()
		if n := len(fake.requests()); n != 0 {
			t.Fatalf("%d requests before any day settled", n)
		}
		// Jan 1 02:00, at the hourly check: Dec 30 has settled; two
		// categories, one request each.
		time.Sleep(2*time.Hour + 10*time.Second) // and room for the paced second request
		synctest.Wait()
		reqs := fake.requests()
		if len(reqs) != 2 || !strings.Contains(reqs[0], "cat:astro-ph.CO AND submittedDate:[199912300000 TO 199912302359]") {
			t.Fatalf("requests = %q", reqs)
		}
		mu.Lock()
		gap := at[1].Sub(at[0])
		mu.Unlock()
		if gap < DefaultPace {
			t.Fatalf("requests %s apart, want at least %s (arXiv's limit)", gap, DefaultPace)
		}
		// Refresh wakes the scheduler at once: the done day is not fetched
		// again, but Dec 31, over and not settled, is fetched early.
		svc.Refresh(user)
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if reqs := fake.requests(); len(reqs) != 4 || !strings.Contains(reqs[2], "submittedDate:[199912310000") {
			t.Fatalf("requests after refresh = %q", reqs)
		}
		if svc.LastRun().IsZero() {
			t.Fatal("no run recorded")
		}
		// Once Dec 31 has settled the hourly check fetches it once more
		// (what arXiv announced late), and never again.
		time.Sleep(24*time.Hour + 10*time.Second)
		synctest.Wait()
		if reqs := fake.requests(); len(reqs) != 6 || !strings.Contains(reqs[5], "cat:astro-ph.GA AND submittedDate:[199912310000") {
			t.Fatalf("requests after a day = %q", reqs)
		}
		time.Sleep(2 * time.Hour)
		synctest.Wait()
		if n := len(fake.requests()); n != 6 {
			t.Fatalf("%d requests: a settled day was fetched again", n)
		}
	})
}

// recordingArxiv notes when each request is sent.
type recordingArxiv struct {
	fake *arxivFake
	at   func()
}

func (r recordingArxiv) Search(ctx context.Context, q arxivQuery) (arxivResult, error) {
	r.at()
	return r.fake.Search(ctx, q)
}

// fakeGenerator answers summaries, or fails.
type fakeGenerator struct {
	mu    sync.Mutex
	calls int
	fail  bool
}

func (g *fakeGenerator) Generate(_ context.Context, system, user string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	if g.fail {
		return "", errors.New("connection refused")
	}
	title, _, _ := strings.Cut(strings.TrimPrefix(user, "Title: "), "\n")
	return "\n\"Summary of " + title + ".\"\nExtra line.", nil
}

func TestSummariesOncePerPaperInTheBackground(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newTestStore(t)
		fake := &arxivFake{papers: fixturePapers()}
		gen := &fakeGenerator{}
		now := func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }
		logs := &logBuffer{}
		svc, err := New(st, Options{Arxiv: fake, Summarizer: gen, Now: now, Pace: time.Millisecond, CatchUpDays: 2, Settle: -1, Log: logs.logger()})
		if err != nil {
			t.Fatal(err)
		}
		user := newUser(t, st, "ana")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if _, _, err := svc.SaveSettings(ctx, user, SettingsInput{Categories: []string{"astro-ph.CO"}}); err != nil {
			t.Fatal(err)
		}
		go svc.Run(ctx)
		time.Sleep(time.Second) // the fetches are paced
		synctest.Wait()
		d, err := svc.Digest(ctx, user, "2026-11-30")
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Items) != 2 || d.Items[0].Summary == "" || !strings.HasPrefix(d.Items[0].Summary, "Summary of ") || strings.Contains(d.Items[0].Summary, "\n") {
			t.Fatalf("items = %+v\n%s", d.Items, logs)
		}
		calls := gen.calls
		svc.Refresh(user) // ranks again: no paper is summarised twice
		time.Sleep(time.Second)
		synctest.Wait()
		if gen.calls != calls {
			t.Fatalf("summaries asked again: %d calls, then %d", calls, gen.calls)
		}
	})
}

func TestSummariesPauseWhenTheModelFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newTestStore(t)
		gen := &fakeGenerator{fail: true}
		now := func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }
		logs := &logBuffer{}
		svc, err := New(st, Options{Arxiv: &arxivFake{papers: fixturePapers()}, Summarizer: gen, Now: now, Pace: time.Millisecond,
			CatchUpDays: 2, Settle: -1, Log: logs.logger()})
		if err != nil {
			t.Fatal(err)
		}
		user := newUser(t, st, "ana")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if _, _, err := svc.SaveSettings(ctx, user, SettingsInput{Categories: []string{"astro-ph.GA"}}); err != nil {
			t.Fatal(err)
		}
		go svc.Run(ctx)
		time.Sleep(time.Second)
		synctest.Wait()
		// Twenty papers were queued; the model was asked once, then paused.
		if gen.calls != 1 || !strings.Contains(logs.String(), "summaries paused") {
			t.Fatalf("%d model calls after a failure\n%s", gen.calls, logs)
		}
		d, err := svc.Digest(ctx, user, "2026-11-30")
		if err != nil || len(d.Items) == 0 || d.Items[0].Summary != "" {
			t.Fatalf("digest = %d items, %v", len(d.Items), err)
		}
	})
}

// TestPaceIsSharedByConcurrentCallers: requests made at once — two runs,
// any categories — still go out one Pace apart (fake time).
func TestPaceIsSharedByConcurrentCallers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc, err := New(newTestStore(t), Options{Arxiv: &arxivFake{}})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var at []time.Time
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if err := svc.pace(context.Background()); err != nil {
					t.Error(err)
				}
				mu.Lock()
				at = append(at, time.Now())
				mu.Unlock()
			})
		}
		wg.Wait()
		slices.SortFunc(at, time.Time.Compare)
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap < DefaultPace {
				t.Fatalf("requests %d and %d went %s apart, want at least %s", i-1, i, gap, DefaultPace)
			}
		}
	})
}
