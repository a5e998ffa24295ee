package triage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/store"
)

// Fetch limits.
const (
	pageSize = arxiv.MaxPerPage
	// maxPages bounds one category-day (astro-ph has a few hundred papers
	// a day; 50 pages is 5,000).
	maxPages = 50
	// firstRetry and lastRetry bound the wait before a failed day is
	// tried again; it doubles with each attempt.
	firstRetry = 15 * time.Minute
	lastRetry  = 6 * time.Hour
)

// dayLayout is how days are written (UTC dates).
const dayLayout = time.DateOnly

// RunOnce fetches every due category-day of the followed categories and
// ranks the digests that changed. Run calls it; tests call it directly.
func (s *Service) RunOnce(ctx context.Context) error {
	all, err := s.st.AllTriageSettings(ctx)
	if err != nil {
		return err
	}
	pending, early := s.takePending()
	days, settled := s.dueDays(early)
	changed, err := s.fetchDue(ctx, followed(all), days, settled)
	if err != nil {
		return err
	}
	for _, set := range all {
		for _, day := range days {
			if !changed[day] && !pending[set.UserID] {
				continue
			}
			if err := s.rankDay(ctx, set, day); err != nil {
				return err
			}
		}
	}
	s.mu.Lock()
	s.lastRun = s.opt.Now()
	s.mu.Unlock()
	return nil
}

// followed returns the categories anyone follows, sorted, once each.
func followed(all []store.TriageSettings) []string {
	var cats []string
	for _, set := range all {
		cats = append(cats, set.Categories...)
	}
	slices.Sort(cats)
	return slices.Compact(cats)
}

// dueDays returns the days, oldest first, whose submissions may be
// fetched now: the last CatchUpDays days that have settled, and with
// early also those that are over but not settled; settled tells which.
func (s *Service) dueDays(early bool) ([]string, map[string]bool) {
	now := s.opt.Now().UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	var out []string
	settled := map[string]bool{}
	for i := s.opt.CatchUpDays; i >= 1; i-- {
		day := today.AddDate(0, 0, -i)
		ok := !now.Before(s.settledAt(day))
		if ok || early {
			out = append(out, day.Format(dayLayout))
			settled[day.Format(dayLayout)] = ok
		}
	}
	return out, settled
}

// settledAt is when day's submissions are all announced.
func (s *Service) settledAt(day time.Time) time.Time { return day.AddDate(0, 0, 1).Add(s.opt.Settle) }

// fetchDue fetches each category-day not done yet (failed ones once their
// retry time has come; one fetched before it settled once it has) and
// returns the days that got papers.
func (s *Service) fetchDue(ctx context.Context, cats, days []string, settled map[string]bool) (map[string]bool, error) {
	changed := map[string]bool{}
	if len(cats) == 0 || len(days) == 0 {
		return changed, nil
	}
	recs, err := s.st.TriageFetches(ctx, cats, days[0], days[len(days)-1])
	if err != nil {
		return nil, err
	}
	known := map[[2]string]store.TriageFetch{}
	for _, r := range recs {
		known[[2]string{r.Category, r.Day}] = r
	}
	for _, day := range days {
		for _, cat := range cats {
			rec, seen := known[[2]string{cat, day}]
			if seen && (rec.Status == store.TriageFetchDone && rec.NextAttempt == nil ||
				rec.NextAttempt != nil && s.opt.Now().Before(*rec.NextAttempt)) {
				continue
			}
			n, err := s.fetchCategoryDay(ctx, cat, day, rec.Attempts, settled[day])
			if ctx.Err() != nil {
				return changed, ctx.Err()
			}
			if err != nil {
				s.log.Warn("triage: arXiv fetch failed; the day is tried again later", "category", cat, "day", day, "err", err)
			}
			if n > 0 {
				changed[day] = true
			}
		}
	}
	return changed, nil
}

// fetchCategoryDay fetches one category's submissions of day page by page,
// stores them and records the outcome: done, or — for a day that has not
// settled — done until it settles, when it is fetched once more. It
// returns how many papers it stored (also when a later page failed).
func (s *Service) fetchCategoryDay(ctx context.Context, cat, day string, attempts int, settled bool) (int, error) {
	from, err := time.Parse(dayLayout, day)
	if err != nil {
		return 0, fmt.Errorf("triage: day %q: %w", day, err)
	}
	rec := store.TriageFetch{Category: cat, Day: day, Attempts: attempts + 1}
	stored := 0
	for page := 0; page < maxPages; page++ {
		if err := s.pace(ctx); err != nil {
			return stored, err
		}
		res, err := s.opt.Arxiv.Search(ctx, arxiv.Query{Category: cat, SubmittedFrom: from,
			SubmittedTo: from.Add(24*time.Hour - time.Minute), Start: page * pageSize, Max: pageSize,
			SortBy: arxiv.SortSubmitted, SortOrder: arxiv.Ascending})
		rec.Requests++
		if err != nil {
			return stored, s.recordFailure(ctx, rec, stored, err)
		}
		papers := s.papersOf(res, cat, day)
		if err := s.st.SaveTriagePapers(ctx, papers); err != nil {
			return stored, err
		}
		stored += len(papers)
		seen := len(res.Entries) + len(res.Skipped)
		if seen == 0 || page*pageSize+seen >= res.Total {
			break
		}
	}
	rec.Status, rec.Papers, rec.Attempts = store.TriageFetchDone, stored, 0
	if !settled {
		again := s.settledAt(from).UTC()
		rec.NextAttempt = &again
	}
	if err := s.st.RecordTriageFetch(ctx, rec); err != nil {
		return stored, err
	}
	s.log.Info("triage: fetched arXiv submissions", "category", cat, "day", day, "papers", stored, "requests", rec.Requests)
	return stored, nil
}

// recordFailure records a failed fetch with the time to try again: what
// arXiv asked for (Retry-After), else a delay doubling with each attempt.
func (s *Service) recordFailure(ctx context.Context, rec store.TriageFetch, stored int, cause error) error {
	wait := firstRetry << min(rec.Attempts-1, 10)
	var se *arxiv.StatusError
	if errors.As(cause, &se) && se.RetryAfter > wait {
		wait = se.RetryAfter
	}
	next := s.opt.Now().Add(min(wait, lastRetry)).UTC()
	rec.Status, rec.Papers, rec.Error, rec.NextAttempt = store.TriageFetchFailed, stored, describeFetchError(cause), &next
	if err := s.st.RecordTriageFetch(ctx, rec); err != nil {
		return err
	}
	return cause
}

// describeFetchError is what the page says about a failed fetch.
func describeFetchError(err error) string {
	var se *arxiv.StatusError
	switch {
	case errors.As(err, &se) && se.Status == http.StatusTooManyRequests:
		return "arXiv is rate-limiting requests (HTTP 429)"
	case errors.As(err, &se) && se.Status >= 500:
		return fmt.Sprintf("arXiv is unavailable (HTTP %d)", se.Status)
	case errors.As(err, &se):
		return fmt.Sprintf("arXiv answered HTTP %d", se.Status)
	case errors.Is(err, arxiv.ErrNotAtom):
		return "arXiv's answer was not a feed (an error page?)"
	case errors.Is(err, context.DeadlineExceeded):
		return "arXiv did not answer in time"
	}
	return "arXiv could not be reached"
}

// papersOf converts a page's entries, logging the ones arXiv's feed had
// malformed (skipped by the parser or without a title).
func (s *Service) papersOf(res arxiv.Result, cat, day string) []store.TriagePaper {
	for _, why := range res.Skipped {
		s.log.Warn("triage: skipped a malformed arXiv entry", "category", cat, "day", day, "entry", why)
	}
	out := make([]store.TriagePaper, 0, len(res.Entries))
	for _, e := range res.Entries {
		if e.Title == "" {
			s.log.Warn("triage: skipped a malformed arXiv entry", "category", cat, "day", day, "entry", e.ID.String()+": no title")
			continue
		}
		p := store.TriagePaper{ArxivID: e.ID.Base, Version: max(e.ID.Version, 1), Day: day, Title: e.Title,
			Abstract: e.Summary, Authors: e.AuthorNames(), Categories: e.Categories}
		if !e.Published.IsZero() {
			t := e.Published.UTC()
			p.Published = &t
		}
		out = append(out, p)
	}
	return out
}

// pace waits until Pace has passed since the last arXiv request (arXiv's
// limit is one request every three seconds) and notes this one. Callers
// are served one at a time, so that concurrent runs share the one pace.
func (s *Service) pace(ctx context.Context) error {
	select { // one caller at a time (a channel, so waiting honours ctx)
	case s.paceTurn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.paceTurn }()
	if !s.lastRequest.IsZero() {
		if wait := s.opt.Pace - s.opt.Now().Sub(s.lastRequest); wait > 0 {
			t := time.NewTimer(wait)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
			}
		}
	}
	s.lastRequest = s.opt.Now()
	return nil
}
