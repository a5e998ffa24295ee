package astro

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

// Library looks papers up (in the library first, then ADS/arXiv).
type Library interface {
	Lookup(ctx context.Context, ref library.Ref) (store.Paper, bool, error)
}

// MetadataArgs are get_paper_metadata's arguments.
type MetadataArgs struct {
	ID string `json:"id" desc:"arXiv id (2305.01234), bibcode (2019ApJ...875L...1E), DOI or a paper URL" maxLength:"500"`
}

// GetPaperMetadata returns the get_paper_metadata tool (T8).
func GetPaperMetadata(l Library) tools.Tool {
	return tools.New("get_paper_metadata",
		"Get a paper's metadata: title, authors, journal, year, identifiers, keywords, citation count, abstract, "+
			"and whether it is in the user's library (with its download and parse status).",
		func(ctx context.Context, tc *tools.Context, args MetadataArgs) (tools.Result, error) {
			ref, err := library.ParseRef(args.ID)
			if err != nil {
				return tools.Errorf("%q is %v.", args.ID, err), nil
			}
			p, inLib, err := l.Lookup(ctx, ref)
			switch {
			case errors.Is(err, library.ErrNotFound):
				return tools.Errorf("No paper %q in ADS or arXiv.", args.ID), nil
			case errors.Is(err, ads.ErrNoToken):
				return tools.Errorf("Looking up %q needs NASA ADS, and no ADS_API_TOKEN is set. Try its arXiv id instead.", args.ID), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Lookup of %q failed: %v", args.ID, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			return tools.Result{Output: describePaper(p, inLib), Metadata: map[string]any{"paper": p, "in_library": inLib}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

func describePaper(p store.Paper, inLib bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%s\n", p.Title, authorLine(p.Authors))
	if p.Journal != "" || p.Year != nil {
		var parts []string
		if p.Journal != "" {
			parts = append(parts, p.Journal)
		}
		if p.Volume != "" {
			parts = append(parts, p.Volume)
		}
		if p.Page != "" {
			parts = append(parts, p.Page)
		}
		if p.Year != nil {
			parts = append(parts, fmt.Sprint(*p.Year))
		}
		fmt.Fprintf(&b, "%s\n", strings.Join(parts, ", "))
	}
	var ids []string
	if p.Bibcode != nil {
		ids = append(ids, "bibcode "+*p.Bibcode)
	}
	if p.ArxivID != nil {
		ids = append(ids, "arXiv:"+*p.ArxivID)
	}
	if p.DOI != nil {
		ids = append(ids, "doi:"+*p.DOI)
	}
	fmt.Fprintf(&b, "%s\n", strings.Join(ids, " · "))
	if p.CitationCount != nil {
		fmt.Fprintf(&b, "Citations: %d", *p.CitationCount)
		if p.Refereed {
			b.WriteString(" · refereed")
		}
		b.WriteString("\n")
	}
	if len(p.Keywords) > 0 {
		fmt.Fprintf(&b, "Keywords: %s\n", strings.Join(p.Keywords, "; "))
	}
	if inLib {
		fmt.Fprintf(&b, "In the library (#%d): download %s, parse %s", p.ID, p.DownloadStatus, p.ParseStatus)
		if len(p.Tags) > 0 {
			fmt.Fprintf(&b, ", tags %s", strings.Join(p.Tags, ", "))
		}
		b.WriteString("\n")
	} else {
		b.WriteString("Not in the library.\n")
	}
	if p.Abstract != "" {
		fmt.Fprintf(&b, "\nAbstract: %s\n", p.Abstract)
	}
	return b.String()
}
