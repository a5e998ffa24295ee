package record

import (
	"context"
	"errors"
	"strings"

	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
)

// Searcher reruns literature searches (ADS and arXiv merged).
type Searcher interface {
	Search(ctx context.Context, q literature.Query) (literature.Result, error)
}

// Shelf tells which papers the library holds.
type Shelf interface {
	PaperStatuses(ctx context.Context, ids []store.PaperIDs) ([]store.PaperStatus, error)
}

// NewPaper is a paper a rerun search found that appeared after the
// session searched.
type NewPaper struct {
	literature.Paper
	// LibraryID is the paper's library id when the library holds it.
	LibraryID int64 `json:"library_id,omitempty"`
}

// Rerun is one of the session's searches run again.
type Rerun struct {
	Query string `json:"query"`
	// RanAt is when the session first ran it (YYYY-MM-DD).
	RanAt string     `json:"ran_at"`
	New   []NewPaper `json:"new"`
	Notes []string   `json:"notes,omitempty"`
	// Error says why the search could not be run again ("" when it ran).
	Error string `json:"error,omitempty"`
}

// NewSince reruns the record's literature searches (each query once, the
// first time it ran counting), newest first and with as many rows as
// before, and lists the papers that appeared since: not among that
// search's results, and dated on or after the day it ran (month for
// papers ADS dates by month only). No model is involved.
func NewSince(ctx context.Context, r Record, s Searcher, shelf Shelf) ([]Rerun, error) {
	out := []Rerun{}
	seen := map[string]bool{}
	for _, t := range r.Turns {
		for _, search := range t.Searches {
			q := strings.TrimSpace(search.Query)
			if search.Tool != "search_papers" || q == "" || seen[strings.ToLower(q)] {
				continue
			}
			seen[strings.ToLower(q)] = true
			rr, err := rerun(ctx, search, s, shelf)
			if err != nil {
				return nil, err
			}
			out = append(out, rr)
		}
	}
	return out, nil
}

func rerun(ctx context.Context, search Search, s Searcher, shelf Shelf) (Rerun, error) {
	day := search.At.UTC().Format("2006-01-02")
	rr := Rerun{Query: search.Query, RanAt: day, New: []NewPaper{}}
	res, err := s.Search(ctx, literature.Query{Text: search.Query, Rows: max(search.Rows, 10), Sort: literature.ByDate})
	switch {
	case errors.Is(err, literature.ErrNoSource):
		rr.Error = err.Error()
		return rr, nil
	case err != nil && ctx.Err() != nil:
		return Rerun{}, err
	case err != nil:
		rr.Error = err.Error()
		return rr, nil
	}
	rr.Notes = res.Notes
	before := map[string]bool{}
	for _, f := range search.Found {
		for _, k := range foundKeys(f.ArxivID, f.Bibcode, f.DOI) {
			before[k] = true
		}
	}
	var fresh []literature.Paper
	for _, p := range res.Papers {
		known := false
		for _, k := range foundKeys(p.ArxivID, p.Bibcode, p.DOI) {
			known = known || before[k]
		}
		if !known && appearedSince(p.Date, day) {
			fresh = append(fresh, p)
		}
	}
	status := libraryIDs(ctx, shelf, fresh)
	for i, p := range fresh {
		rr.New = append(rr.New, NewPaper{Paper: p, LibraryID: status[i]})
	}
	return rr, nil
}

// appearedSince reports whether a paper dated date appeared on or after
// day; ADS's month-only dates ("2026-11-00") count from their month.
func appearedSince(date, day string) bool {
	switch {
	case len(date) < 7:
		return false
	case strings.HasSuffix(date, "-00") || len(date) == 7:
		return date[:7] >= day[:7]
	}
	return date >= day
}

func foundKeys(arxivID, bibcode, doi string) []string {
	var k []string
	if arxivID != "" {
		k = append(k, "arxiv:"+strings.ToLower(arxivID))
	}
	if bibcode != "" {
		k = append(k, "bibcode:"+bibcode)
	}
	if doi != "" {
		k = append(k, "doi:"+strings.ToLower(doi))
	}
	return k
}

// libraryIDs returns the library id of each paper (0: not in the library).
func libraryIDs(ctx context.Context, shelf Shelf, papers []literature.Paper) []int64 {
	out := make([]int64, len(papers))
	if shelf == nil || len(papers) == 0 {
		return out
	}
	ids := make([]store.PaperIDs, len(papers))
	for i, p := range papers {
		ids[i] = store.PaperIDs{ArxivID: p.ArxivID, Bibcode: p.Bibcode, DOI: p.DOI}
	}
	found, err := shelf.PaperStatuses(ctx, ids)
	if err != nil {
		return out // the papers are still worth listing
	}
	for i := range found {
		if i < len(out) {
			out[i] = found[i].ID
		}
	}
	return out
}
