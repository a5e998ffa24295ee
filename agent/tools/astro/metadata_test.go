package astro

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

type fakeLibrary struct{}

func (fakeLibrary) Lookup(ctx context.Context, ref library.Ref) (store.Paper, bool, error) {
	if ref.Kind != library.RefBibcode {
		return store.Paper{}, false, library.ErrNotFound
	}
	b, y, n := ref.Value, 2019, 812
	return store.Paper{ID: 7, Title: "First M87 EHT Results. I.", Authors: []string{"EHT Collaboration"}, Journal: "ApJL", Year: &y,
		Bibcode: &b, CitationCount: &n, Refereed: true, DownloadStatus: "downloaded", ParseStatus: "none", Tags: []string{"m87"},
		Abstract: "The shadow..."}, true, nil
}

func TestGetPaperMetadata(t *testing.T) {
	tool := GetPaperMetadata(fakeLibrary{})
	run := func(id string) tools.Result {
		args, _ := json.Marshal(MetadataArgs{ID: id})
		res, err := tool.Execute(context.Background(), &tools.Context{}, args)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run("2019ApJ...875L...1E")
	for _, want := range []string{"First M87 EHT Results. I.", "ApJL, 2019", "bibcode 2019ApJ...875L...1E", "Citations: 812 · refereed",
		"In the library (#7): download downloaded, parse none, tags m87", "Abstract: The shadow"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if res := run("not an id"); !res.IsError || !strings.Contains(res.Output, "not an arXiv id") {
		t.Fatalf("bad id: %+v", res)
	}
	if res := run("2401.99999"); !res.IsError || !strings.Contains(res.Output, "No paper") {
		t.Fatalf("unknown: %+v", res)
	}
}
