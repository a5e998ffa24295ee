package astro

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

type fakeImporter struct{}

func (fakeImporter) Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error) {
	if ref.Kind != library.RefArxiv {
		return store.Paper{}, false, library.ErrNotFound
	}
	return store.Paper{ID: 3, Title: "A preprint"}, true, nil
}

type fakeFetcher struct{ fail bool }

func (f fakeFetcher) Download(ctx context.Context, id int64, progress library.Progress) (store.PaperFile, error) {
	if f.fail {
		return store.PaperFile{}, fmt.Errorf("%w: arXiv: HTTP 404", library.ErrNoPDF)
	}
	for i := int64(0); i <= 10; i++ {
		progress("arXiv", i*100_000, 1_000_000)
	}
	return store.PaperFile{Bytes: 1_000_000, SourceURL: "https://arxiv.org/pdf/2401.00001", Path: "library/pdf/abc.pdf"}, nil
}

func TestDownloadPaperTool(t *testing.T) {
	var reports []string
	tc := &tools.Context{Progress: func(s string) { reports = append(reports, s) }}
	run := func(tool tools.Tool, id string) tools.Result {
		args, _ := json.Marshal(DownloadArgs{ID: id})
		res, err := tool.Execute(context.Background(), tc, args)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(DownloadPaper(fakeImporter{}, fakeFetcher{}), "2401.00001")
	if res.IsError || !strings.Contains(res.Output, "library #3") || !strings.Contains(res.Output, "1.0 MB PDF") {
		t.Fatalf("%+v", res)
	}
	if len(reports) != 11 || reports[10] != "arXiv: 100% of 1.0 MB" {
		t.Fatalf("progress %q", reports)
	}
	if res := run(DownloadPaper(fakeImporter{}, fakeFetcher{fail: true}), "2401.00001"); !res.IsError || !strings.Contains(res.Output, "No PDF could be downloaded") {
		t.Fatalf("failure: %+v", res)
	}
	c := tools.Caps(DownloadPaper(fakeImporter{}, fakeFetcher{}))
	if !c.Deferred || !c.SiblingAbort || c.ReadOnly {
		t.Fatalf("capabilities %+v (docs/features.md: deferred, sibling abort)", c)
	}
}
