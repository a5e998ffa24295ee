package astro

import (
	"context"
	"errors"
	"fmt"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

// Importer adds papers to the library.
type Importer interface {
	Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error)
}

// Fetcher downloads a library paper's PDF.
type Fetcher interface {
	Download(ctx context.Context, paperID int64, progress library.Progress) (store.PaperFile, error)
}

// DownloadArgs are download_paper's arguments.
type DownloadArgs struct {
	ID string `json:"id" desc:"arXiv id, bibcode, DOI or paper URL; the paper is added to the library first if needed" maxLength:"500"`
}

// DownloadPaper returns the download_paper tool (T9): it adds the paper to
// the library if needed and fetches its PDF (arXiv → ADS link gateway →
// publisher), stored once by content hash. Deferred; a failure aborts the
// other calls of its batch.
func DownloadPaper(imp Importer, f Fetcher) tools.Tool {
	return tools.New("download_paper",
		"Download a paper's PDF into the library (arXiv first, then the ADS link gateway, then the publisher). "+
			"The paper is added to the library if it is not there yet.",
		func(ctx context.Context, tc *tools.Context, args DownloadArgs) (tools.Result, error) {
			ref, err := library.ParseRef(args.ID)
			if err != nil {
				return tools.Errorf("%q is %v.", args.ID, err), nil
			}
			p, _, err := imp.Import(ctx, tc.UserID, ref)
			switch {
			case errors.Is(err, library.ErrNotFound):
				return tools.Errorf("No paper %q in ADS or arXiv.", args.ID), nil
			case errors.Is(err, ads.ErrNoToken):
				return tools.Errorf("Finding %q needs NASA ADS, and no ADS_API_TOKEN is set. Try its arXiv id.", args.ID), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Could not add %q to the library: %v", args.ID, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			lastTenth := int64(-1)
			file, err := f.Download(ctx, p.ID, func(source string, read, total int64) {
				if total > 0 {
					if tenth := read * 10 / total; tenth != lastTenth {
						lastTenth = tenth
						tc.Report(fmt.Sprintf("%s: %d%% of %.1f MB", source, tenth*10, float64(total)/1e6))
					}
				}
			})
			switch {
			case errors.Is(err, library.ErrNoPDF):
				return tools.Errorf("No PDF could be downloaded for %q: %v", p.Title, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			return tools.Result{
				Output: fmt.Sprintf("Downloaded %q (library #%d): %.1f MB PDF from %s, saved as %s.",
					p.Title, p.ID, float64(file.Bytes)/1e6, file.SourceURL, file.Path),
				Metadata: map[string]any{"paper_id": p.ID, "file": file},
			}, nil
		},
		tools.WithDeferred(), tools.WithSiblingAbort(),
	)
}
