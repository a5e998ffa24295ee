package triage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

// Digest is a user's ranked papers of one day and what the page should
// say about fetching.
type Digest struct {
	// Date is the submission day shown (YYYY-MM-DD).
	Date string
	// Items are the ranked papers, highest score first, hidden ones left out.
	Items []store.TriageItem
	// Days are the days with a digest, newest first (for navigation).
	Days []string
	// Problems are the category-days of the user's categories that could
	// not be fetched yet, each to be tried again.
	Problems []store.TriageFetch
	// Categories the user follows (none: the digest is empty until set).
	Categories []string
	// Waiting reports that some followed category-day in the catch-up
	// window has not been fetched at all yet.
	Waiting bool
}

// ErrBadDate is returned for a date that is not YYYY-MM-DD.
var ErrBadDate = errors.New("the date must be YYYY-MM-DD")

// Digest returns the user's digest of day ("" for the newest day with
// one). A day whose papers are fetched but not ranked for this user yet
// (new settings) is ranked first.
func (s *Service) Digest(ctx context.Context, userID int64, day string) (Digest, error) {
	if day != "" {
		if _, err := time.Parse(dayLayout, day); err != nil {
			return Digest{}, fmt.Errorf("triage: date %q: %w", day, ErrBadDate)
		}
	}
	set, err := s.Settings(ctx, userID)
	if err != nil {
		return Digest{}, err
	}
	d := Digest{Categories: set.Categories}
	if d.Days, err = s.st.TriageRankedDays(ctx, userID, 31); err != nil {
		return Digest{}, err
	}
	switch {
	case day != "":
		d.Date = day
	case len(d.Days) > 0:
		d.Date = d.Days[0]
	default:
		if due, _ := s.dueDays(false); len(due) > 0 {
			d.Date = due[len(due)-1]
		}
	}
	if d.Date == "" {
		return d, nil
	}
	if d.Items, err = s.st.TriageItems(ctx, userID, d.Date); err != nil {
		return Digest{}, err
	}
	if len(d.Items) == 0 && len(set.Categories) > 0 {
		if err := s.rankDay(ctx, set, d.Date); err != nil {
			return Digest{}, err
		}
		if d.Items, err = s.st.TriageItems(ctx, userID, d.Date); err != nil {
			return Digest{}, err
		}
	}
	return d, s.fetchState(ctx, set, &d)
}

// fetchState fills in the failed and missing fetches of the user's
// categories in the catch-up window.
func (s *Service) fetchState(ctx context.Context, set store.TriageSettings, d *Digest) error {
	days, _ := s.dueDays(false)
	if len(set.Categories) == 0 || len(days) == 0 {
		return nil
	}
	recs, err := s.st.TriageFetches(ctx, set.Categories, days[0], days[len(days)-1])
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Status == store.TriageFetchFailed {
			d.Problems = append(d.Problems, r)
		}
	}
	d.Waiting = len(recs) < len(set.Categories)*len(days)
	return nil
}

// ErrNotFetched means the paper is not one the triage fetched.
var ErrNotFetched = errors.New("not a paper of the triage")

// Hide marks a paper "not interested": it leaves the user's digest and
// papers like it rank lower from the next ranking on (asked for now).
func (s *Service) Hide(ctx context.Context, userID int64, arxivID string) error {
	p, err := s.paper(ctx, arxivID)
	if err != nil {
		return err
	}
	if err := s.st.SetTriageFeedback(ctx, userID, store.TriageFeedback{ArxivID: p.ArxivID, Action: store.TriageHidden,
		Title: p.Title, Abstract: p.Abstract}); err != nil {
		return err
	}
	s.rerank(userID)
	return nil
}

// Add imports a paper into the library ("Add to library"); from the next
// ranking on, papers like it rank higher since they resemble the library.
func (s *Service) Add(ctx context.Context, userID int64, arxivID string) (store.Paper, error) {
	if s.opt.Importer == nil {
		return store.Paper{}, errors.New("triage: no library importer configured")
	}
	p, err := s.paper(ctx, arxivID)
	if err != nil {
		return store.Paper{}, err
	}
	id, err := arxiv.ParseID(p.ArxivID)
	if err != nil {
		return store.Paper{}, fmt.Errorf("triage: add %s: %w", p.ArxivID, err)
	}
	lp, _, err := s.opt.Importer.Import(ctx, userID, library.Ref{Kind: library.RefArxiv, Arxiv: id})
	if err != nil {
		return store.Paper{}, err
	}
	if err := s.st.SetTriageFeedback(ctx, userID, store.TriageFeedback{ArxivID: p.ArxivID, Action: store.TriageAdded,
		Title: p.Title, Abstract: p.Abstract}); err != nil {
		return store.Paper{}, err
	}
	s.rerank(userID)
	return lp, nil
}

// paper returns a fetched paper by any form of its arXiv id.
func (s *Service) paper(ctx context.Context, ref string) (store.TriagePaper, error) {
	id, err := arxiv.ParseID(ref)
	if err != nil {
		return store.TriagePaper{}, fmt.Errorf("triage: %q: %w", ref, ErrNotFetched)
	}
	p, err := s.st.TriagePaper(ctx, id.Base)
	if errors.Is(err, store.ErrNotFound) {
		return store.TriagePaper{}, fmt.Errorf("triage: %s: %w", id.Base, ErrNotFetched)
	}
	return p, err
}

// FeedToken returns the user's feed token, making one when there is none
// or reset is set (the old feed URL then stops working).
func (s *Service) FeedToken(ctx context.Context, userID int64, reset bool) (string, error) {
	set, err := s.Settings(ctx, userID)
	if err != nil {
		return "", err
	}
	if set.FeedToken != "" && !reset {
		return set.FeedToken, nil
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("triage: feed token: %w", err)
	}
	tok := hex.EncodeToString(b)
	if err := s.st.SetTriageFeedToken(ctx, userID, tok); err != nil {
		return "", err
	}
	return tok, nil
}
