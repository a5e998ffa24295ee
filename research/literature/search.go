package literature

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
)

// ADS and Arxiv are what the searcher needs from the two clients.
type (
	ADS interface {
		Search(ctx context.Context, q ads.Query) (ads.Result, error)
	}
	Arxiv interface {
		Search(ctx context.Context, q arxiv.Query) (arxiv.Result, error)
	}
)

// Sort orders results.
type Sort string

// Sort orders.
const (
	ByRelevance Sort = "relevance"
	ByDate      Sort = "date"
	ByCitations Sort = "citations" // ADS only; arXiv results follow by relevance
)

// Query is a literature search.
type Query struct {
	Text string
	Rows int  // per source; default 10, at most 50
	Sort Sort // default relevance
}

// Result is a merged search with a note per source that failed.
type Result struct {
	Papers []Paper
	Notes  []string // e.g. "ADS: no API token is set, so only arXiv was searched"
	ADS    int      // how many ADS records matched in total (numFound), -1 when not searched
	Arxiv  int      // arXiv's totalResults, -1 when not searched
}

// Searcher runs ADS and arXiv concurrently. Safe for concurrent use.
type Searcher struct {
	ads     ADS
	arxiv   Arxiv
	timeout time.Duration
}

// NewSearcher returns a searcher; either client may be nil (that source is
// then skipped with a note).
func NewSearcher(a ADS, x Arxiv) *Searcher {
	return &Searcher{ads: a, arxiv: x, timeout: 40 * time.Second}
}

// ErrNoSource means neither source could answer.
var ErrNoSource = errors.New("neither ADS nor arXiv could be searched")

// Search queries both sources at once and merges. One source failing still
// returns the other's results, with a note; both failing is an error
// carrying both notes.
func (s *Searcher) Search(ctx context.Context, q Query) (Result, error) {
	rows := q.Rows
	if rows <= 0 {
		rows = 10
	}
	rows = min(rows, 50)
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res := Result{ADS: -1, Arxiv: -1}
	var (
		wg            sync.WaitGroup
		docs          []ads.Doc
		entries       []arxiv.Entry
		adsErr, axErr error
	)
	if s.ads != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := s.ads.Search(ctx, ads.Query{Q: q.Text, Rows: rows, Sort: adsSort(q.Sort)})
			docs, adsErr, res.ADS = r.Docs, err, r.NumFound
		}()
	} else {
		adsErr = errors.New("not configured")
	}
	if s.arxiv != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := s.arxiv.Search(ctx, arxiv.Query{Terms: q.Text, Max: rows, SortBy: arxivSort(q.Sort), SortOrder: arxiv.Descending})
			entries, axErr, res.Arxiv = r.Entries, err, r.Total
		}()
	} else {
		axErr = errors.New("not configured")
	}
	wg.Wait()
	if adsErr != nil {
		res.ADS = -1
		res.Notes = append(res.Notes, "ADS: "+describe(adsErr))
	}
	if axErr != nil {
		res.Arxiv = -1
		res.Notes = append(res.Notes, "arXiv: "+describe(axErr))
	}
	if adsErr != nil && axErr != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			return res, ctx.Err()
		}
		return res, fmt.Errorf("%w (%v; %v)", ErrNoSource, res.Notes[0], res.Notes[1])
	}
	res.Papers = Merge(docs, entries)
	return res, nil
}

func describe(err error) string {
	switch {
	case errors.Is(err, ads.ErrNoToken):
		return "no ADS_API_TOKEN is set, so only arXiv was searched (get a token at https://ui.adsabs.harvard.edu/user/settings/token)"
	case errors.Is(err, ads.ErrRateLimited):
		return "the daily ADS quota is used up or requests are too fast; try again later (" + err.Error() + ")"
	case errors.Is(err, context.DeadlineExceeded):
		return "did not answer in time"
	}
	return err.Error()
}

func adsSort(s Sort) string {
	switch s {
	case ByDate:
		return "date desc"
	case ByCitations:
		return "citation_count desc"
	}
	return "score desc"
}

func arxivSort(s Sort) arxiv.SortBy {
	if s == ByDate {
		return arxiv.SortSubmitted
	}
	return arxiv.SortRelevance
}
