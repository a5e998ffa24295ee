package astro

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
)

// Searcher searches the literature (ADS and arXiv merged).
type Searcher interface {
	Search(ctx context.Context, q literature.Query) (literature.Result, error)
}

// SearchArgs are search_papers' arguments.
type SearchArgs struct {
	Query string `json:"query" desc:"Search terms, e.g. 'Perseus cluster X-ray cavities' (ADS also accepts its field syntax such as author:\"Fabian, A\" year:2010-2020)" maxLength:"1000"`
	Rows  int    `json:"rows,omitempty" min:"1" max:"50" desc:"Results per source (default 10)"`
	Sort  string `json:"sort,omitempty" enum:"relevance,date,citations" desc:"relevance (default), date (newest first) or citations (most cited first, ADS)"`
}

// Shelf tells which papers are already in the library (one lookup for
// all the hits).
type Shelf interface {
	PaperStatuses(ctx context.Context, ids []store.PaperIDs) ([]store.PaperStatus, error)
}

// SearchPapers returns the search_papers tool (T7). shelf (may be nil)
// marks hits already in the library.
func SearchPapers(s Searcher, shelf Shelf) tools.Tool {
	return tools.New("search_papers",
		"Search NASA ADS and arXiv at once for papers. Results are merged and de-duplicated (arXiv id, DOI, "+
			"bibcode), with journal, year, citation count and identifiers to cite.",
		func(ctx context.Context, tc *tools.Context, args SearchArgs) (tools.Result, error) {
			res, err := s.Search(ctx, literature.Query{Text: args.Query, Rows: args.Rows, Sort: literature.Sort(args.Sort)})
			switch {
			case errors.Is(err, literature.ErrNoSource):
				return tools.Errorf("The literature search failed: %v", err), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("The literature search failed: %v", err), nil
			case err != nil:
				return tools.Result{}, err
			}
			status := libraryStatus(ctx, shelf, res.Papers)
			return tools.Result{Output: describePapers(args.Query, res, status),
				Metadata: map[string]any{"papers": res.Papers, "notes": res.Notes, "library": status}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

// libraryStatus returns, per hit index, "library #id (download status)"
// for hits already in the library.
func libraryStatus(ctx context.Context, shelf Shelf, papers []literature.Paper) map[int]string {
	out := map[int]string{}
	if shelf == nil || len(papers) == 0 {
		return out
	}
	ids := make([]store.PaperIDs, len(papers))
	for i, p := range papers {
		ids[i] = store.PaperIDs{ArxivID: p.ArxivID, Bibcode: p.Bibcode, DOI: p.DOI}
	}
	found, err := shelf.PaperStatuses(ctx, ids)
	if err != nil {
		return out // the hits are still worth showing; their status is unknown
	}
	for i, lp := range found {
		if lp.ID != 0 {
			out[i] = fmt.Sprintf("in library #%d, PDF %s", lp.ID, lp.DownloadStatus)
		}
	}
	return out
}

func describePapers(q string, res literature.Result, status map[int]string) string {
	var b strings.Builder
	if len(res.Papers) == 1 {
		fmt.Fprintf(&b, "1 paper for %q", q)
	} else {
		fmt.Fprintf(&b, "%d papers for %q", len(res.Papers), q)
	}
	if res.ADS >= 0 || res.Arxiv >= 0 {
		var totals []string
		if res.ADS >= 0 {
			totals = append(totals, fmt.Sprintf("ADS has %d matches", res.ADS))
		}
		if res.Arxiv >= 0 {
			totals = append(totals, fmt.Sprintf("arXiv has %d", res.Arxiv))
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(totals, ", "))
	}
	b.WriteString(":\n")
	for i, p := range res.Papers {
		fmt.Fprintf(&b, "%d. %s\n   %s", i+1, p.Title, authorLine(p.Authors))
		if p.Year != 0 {
			fmt.Fprintf(&b, " (%d)", p.Year)
		}
		if p.Journal != "" {
			fmt.Fprintf(&b, ", %s", p.Journal)
		}
		b.WriteString("\n   ")
		var ids []string
		if p.Bibcode != "" {
			ids = append(ids, "bibcode "+p.Bibcode)
		}
		if p.ArxivID != "" {
			ids = append(ids, "arXiv:"+p.ArxivID)
		}
		if p.DOI != "" {
			ids = append(ids, "doi:"+p.DOI)
		}
		b.WriteString(strings.Join(ids, " · "))
		if p.CitationCount != nil {
			if *p.CitationCount == 1 {
				b.WriteString(" · 1 citation")
			} else {
				fmt.Fprintf(&b, " · %d citations", *p.CitationCount)
			}
		}
		if p.Refereed {
			b.WriteString(" · refereed")
		}
		if st, ok := status[i]; ok {
			b.WriteString(" · " + st)
		} else {
			b.WriteString(" · not in library")
		}
		b.WriteString("\n")
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "Note — %s\n", n)
	}
	return b.String()
}

func authorLine(authors []string) string {
	switch len(authors) {
	case 0:
		return "(no authors listed)"
	case 1, 2, 3:
		return strings.Join(authors, "; ")
	}
	return strings.Join(authors[:3], "; ") + fmt.Sprintf(" et al. (%d authors)", len(authors))
}
