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

// Catalog lists the library (the store).
type Catalog interface {
	ListPapers(ctx context.Context, f store.PaperFilter) ([]store.Paper, int, error)
}

// LibrarySearchArgs are library_search's arguments.
type LibrarySearchArgs struct {
	Query  string `json:"query,omitempty" desc:"Words to find; omit to list the library" maxLength:"500"`
	Tag    string `json:"tag,omitempty" desc:"Only papers with this tag" maxLength:"100"`
	Year   int    `json:"year,omitempty" min:"1000" max:"9999" desc:"Only papers from this year"`
	Sort   string `json:"sort,omitempty" enum:"relevance,newest,year,title,cited" desc:"Default: relevance with a query, else newest added"`
	Limit  int    `json:"limit,omitempty" min:"1" max:"100" desc:"Papers per page (default 20)"`
	Offset int    `json:"offset,omitempty" min:"0" desc:"Papers to skip"`
}

// LibrarySearch returns the library_search tool: the papers already in
// the user's library (full text over title, abstract, authors and
// keywords), a page at a time, with their library numbers and status.
func LibrarySearch(c Catalog) tools.Tool {
	return tools.New("library_search",
		"Search or page through the user's saved papers (title, abstract, authors, keywords); each hit "+
			"gives its library number (#N) for get_paper_content, rag_search and save_note.",
		func(ctx context.Context, tc *tools.Context, args LibrarySearchArgs) (tools.Result, error) {
			limit := args.Limit
			if limit <= 0 {
				limit = 20
			}
			f := store.PaperFilter{Query: strings.TrimSpace(args.Query), Tag: strings.TrimSpace(args.Tag), Year: args.Year,
				Sort: store.PaperSort(args.Sort), Limit: limit, Offset: args.Offset}
			papers, total, err := c.ListPapers(ctx, f)
			if err != nil {
				return tools.Result{}, err
			}
			if papers == nil {
				papers = []store.Paper{}
			}
			return tools.Result{Output: describeShelf(f, papers, total),
				Metadata: map[string]any{"papers": papers, "total": total, "offset": f.Offset, "limit": limit}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

func describeShelf(f store.PaperFilter, papers []store.Paper, total int) string {
	var b strings.Builder
	what := "The library holds"
	if f.Query != "" || f.Tag != "" || f.Year != 0 {
		what = "Matching papers in the library:"
	}
	fmt.Fprintf(&b, "%s %d papers", what, total)
	if len(papers) > 0 {
		fmt.Fprintf(&b, "; %d–%d shown", f.Offset+1, f.Offset+len(papers))
	}
	b.WriteString(".\n")
	for _, p := range papers {
		fmt.Fprintf(&b, "#%d %s\n   %s", p.ID, p.Title, authorLine(p.Authors))
		if p.Year != nil {
			fmt.Fprintf(&b, " (%d)", *p.Year)
		}
		if p.Journal != "" {
			fmt.Fprintf(&b, ", %s", p.Journal)
		}
		fmt.Fprintf(&b, "\n   PDF %s, text %s", p.DownloadStatus, p.ParseStatus)
		if len(p.Tags) > 0 {
			fmt.Fprintf(&b, ", tags %s", strings.Join(p.Tags, ", "))
		}
		b.WriteString("\n")
	}
	if next := f.Offset + len(papers); next < total && len(papers) > 0 {
		fmt.Fprintf(&b, "[%d more; continue with offset=%d.]\n", total-next, next)
	}
	return b.String()
}

// ImportArgs are import_paper's arguments.
type ImportArgs struct {
	Ref string `json:"ref" desc:"arXiv id (2305.01234), bibcode (2019ApJ...875L...1E), DOI or a paper URL (arXiv, ADS, doi.org, IOP, A&A)" minLength:"1" maxLength:"500"`
}

// ImportPaper returns the import_paper tool: adds a paper to the library by
// reference, with its metadata from ADS or arXiv. Importing a paper that is
// already there changes nothing and says so. Deferred for the agent (its
// download_paper imports too).
func ImportPaper(imp Importer) tools.Tool {
	return tools.New("import_paper",
		"Add a paper to the user's library by arXiv id, bibcode, DOI or URL, with its metadata from ADS or arXiv. "+
			"It does not download the PDF (download_paper does).",
		func(ctx context.Context, tc *tools.Context, args ImportArgs) (tools.Result, error) {
			ref, err := library.ParseRef(args.Ref)
			if err != nil {
				return tools.Errorf("%q is not an arXiv id, bibcode, DOI or paper URL.", args.Ref), nil
			}
			p, created, err := imp.Import(ctx, tc.UserID, ref)
			switch {
			case errors.Is(err, library.ErrNotFound):
				return tools.Errorf("No paper %q in ADS or arXiv.", args.Ref), nil
			case errors.Is(err, ads.ErrNoToken):
				return tools.Errorf("Finding %q needs NASA ADS, and no ADS_API_TOKEN is set. Try its arXiv id.", args.Ref), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Could not add %q to the library: %v", args.Ref, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			verb := "Added"
			if !created {
				verb = "Already in the library:"
			}
			return tools.Result{Output: fmt.Sprintf("%s %q (library #%d).\n%s", verb, p.Title, p.ID, describePaper(p, true)),
				Metadata: map[string]any{"paper": p, "created": created}}, nil
		},
		tools.WithDeferred(),
	)
}
