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
	"github.com/astroresearch/astroresearch/store/storetest"
)

func newLibraryStore(t *testing.T) *store.Store {
	t.Helper()
	return storetest.New(t)
}

// TestLibrarySearch: full text over the library, pages with a continuation
// hint, and the structured metadata external clients get.
func TestLibrarySearch(t *testing.T) {
	ctx := context.Background()
	st := newLibraryStore(t)
	for i := range 5 {
		id, year := fmt.Sprintf("2401.0000%d", i), 2020+i
		title := fmt.Sprintf("Dust lanes in galaxy %d", i)
		if i == 4 {
			title = "Cooling flows in Perseus"
		}
		if _, _, err := st.UpsertPaper(ctx, store.Paper{Title: title, ArxivID: &id, Year: &year, Authors: []string{"Fabian, A."}}); err != nil {
			t.Fatal(err)
		}
	}
	tool := LibrarySearch(st)
	if c := tools.Caps(tool); !c.ReadOnly || c.Deferred {
		t.Fatal("library_search is read-only and resident")
	}
	tests := []struct {
		name      string
		args      string
		want      []string
		wantTotal int
		wantShown int
	}{
		{"everything", `{}`, []string{"The library holds 5 papers; 1–5 shown.", "Fabian, A. (2024)", "PDF none, text none"}, 5, 5},
		{"query", `{"query":"perseus"}`, []string{"Matching papers in the library: 1 papers", "Cooling flows in Perseus"}, 1, 1},
		{"page", `{"query":"dust","limit":2}`, []string{"4 papers; 1–2 shown", "[2 more; continue with offset=2.]"}, 4, 2},
		{"last page", `{"query":"dust","limit":2,"offset":2}`, []string{"3–4 shown"}, 4, 2},
		{"nothing", `{"query":"quasar"}`, []string{"0 papers."}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tool.Execute(ctx, &tools.Context{}, json.RawMessage(tt.args))
			if err != nil || res.IsError {
				t.Fatalf("%+v %v", res, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output lacks %q:\n%s", w, res.Output)
				}
			}
			if strings.Contains(res.Output, "more; continue") != (tt.name == "page") {
				t.Errorf("continuation hint wrong:\n%s", res.Output)
			}
			papers, _ := res.Metadata["papers"].([]store.Paper)
			if res.Metadata["total"] != tt.wantTotal || len(papers) != tt.wantShown || papers == nil {
				t.Errorf("metadata %+v", res.Metadata)
			}
		})
	}
	if res, _ := tool.Execute(ctx, &tools.Context{}, json.RawMessage(`{"limit":1000}`)); !res.IsError {
		t.Fatalf("limit above 100 accepted: %+v", res)
	}
}

// TestImportPaper: a new paper, one already there, an unknown one and a
// reference that is none.
func TestImportPaper(t *testing.T) {
	ctx := context.Background()
	st := newLibraryStore(t)
	arx := "2401.00001"
	if _, _, err := st.UpsertPaper(ctx, store.Paper{Title: "Already here", ArxivID: &arx}); err != nil {
		t.Fatal(err)
	}
	tool := ImportPaper(fakeImporter{})
	if c := tools.Caps(tool); c.ReadOnly || !c.Deferred {
		t.Fatal("import_paper writes and is deferred for the agent")
	}
	tests := []struct {
		ref, want string
		isErr     bool
	}{
		{"2402.00002", `Added "A preprint" (library #3).`, false},
		{"10.1093/mnras/stab123", `No paper "10.1093/mnras/stab123" in ADS or arXiv.`, true},
		{"../../etc/passwd", "is not an arXiv id, bibcode, DOI or paper URL", true},
	}
	for _, tt := range tests {
		raw, _ := json.Marshal(ImportArgs{Ref: tt.ref})
		res, err := tool.Execute(ctx, &tools.Context{UserID: 1}, raw)
		if err != nil || res.IsError != tt.isErr || !strings.Contains(res.Output, tt.want) {
			t.Errorf("%s: %+v %v", tt.ref, res, err)
		}
		if !tt.isErr && (res.Metadata["created"] != true || res.Metadata["paper"].(store.Paper).ID != 3) {
			t.Errorf("%s: metadata %+v", tt.ref, res.Metadata)
		}
	}
	again := ImportPaper(existingImporter{})
	res, err := again.Execute(ctx, &tools.Context{UserID: 1}, json.RawMessage(`{"ref":"2401.00001"}`))
	if err != nil || res.IsError || !strings.HasPrefix(res.Output, `Already in the library: "Already here"`) {
		t.Fatalf("%+v %v", res, err)
	}
}

type existingImporter struct{}

func (existingImporter) Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error) {
	return store.Paper{ID: 1, Title: "Already here"}, false, nil
}
