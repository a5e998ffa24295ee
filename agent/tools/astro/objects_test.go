package astro

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
)

// TestObjectAndMeasurementTools: object_literature reports the object
// with the library's passages; compare_measurements lists the values with
// their sentences, searching the object's aliases; unknown names and
// empty tables are clear results, not failures.
func TestObjectAndMeasurementTools(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateFirstUser(ctx, "vera", "h")
	if err != nil {
		t.Fatal(err)
	}
	arxiv, year := "1908.05625", 2019
	p, _, _ := st.UpsertPaper(ctx, store.Paper{Title: "An improved distance to NGC 4258", ArxivID: &arxiv, Year: &year})
	md := "# Distance\n\n## 3 Results\n\nThe maser distance to M 106 is $D = 7.576 \\pm 0.082$ Mpc.\n"
	if err := rag.New(st, rag.Options{}).IndexPaper(ctx, p.ID, md); err != nil {
		t.Fatal(err)
	}
	if err := measure.NewService(st, func(context.Context, int64) (string, error) { return md, nil }, nil).ExtractPaper(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	res := fakeResolver{"NGC 4258": {Name: "M 106", Type: "LIN", RADeg: 184.74008, DecDeg: 47.30372, RADegText: "184.74008", DecDegText: "47.30372",
		Aliases: []string{"NGC 4258", "UGC 7353"}, Resolver: "Simbad", Resolvers: []string{"Simbad", "NED"}}}
	run := func(tool tools.Tool, args any) tools.Result {
		b, _ := json.Marshal(args)
		r, err := tool.Execute(ctx, &tools.Context{UserID: u.ID}, b)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	lit := ObjectLiterature(objects.New(st, res, nil), "/base")
	out := run(lit, ObjectLiteratureArgs{Name: "NGC 4258"})
	for _, want := range []string{"M 106 (type LIN)", "184.74008 deg", "Set ADS_API_TOKEN", "In the library: 1 papers", "The maser distance to M 106",
		"/base/library/", "Known to Simbad, NED"} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("object_literature lacks %q:\n%s", want, out.Output)
		}
	}
	if bad := run(lit, ObjectLiteratureArgs{Name: "Xyzzy 1"}); !bad.IsError || !strings.Contains(bad.Output, "names tried: Xyzzy 1, Xyzzy1") {
		t.Errorf("unknown object: %+v", bad)
	}

	cmp := CompareMeasurements(measure.NewTables(st, res), "")
	out = run(cmp, CompareArgs{Quantity: "distance", Object: "NGC 4258"})
	ms, err := st.Measurements(ctx, store.MeasurementFilter{Quantity: "distance"})
	if err != nil || len(ms) != 1 {
		t.Fatalf("measurements: %v %+v", err, ms)
	}
	// the link narrows the highlight to the value's sentence, as the page's does
	link := rag.SentenceURL("", p.ID, ms[0].ChunkID, ms[0].StartByte, ms[0].EndByte)
	for _, want := range []string{"1 values for distance NGC 4258", "2019 | 7.576 ± 0.082 | Mpc | distance | M 106", link} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("compare_measurements lacks %q:\n%s", want, out.Output)
		}
	}
	if !strings.Contains(link, "sentence=") {
		t.Errorf("link %q does not name the sentence", link)
	}
	none := run(cmp, CompareArgs{Quantity: "H0", Object: "NGC 4258"})
	if none.IsError || !strings.Contains(none.Output, "no reported value") || !strings.Contains(none.Output, `object:"NGC 4258"`) {
		t.Errorf("empty table: %+v", none)
	}
	if bad := run(cmp, CompareArgs{}); !bad.IsError {
		t.Errorf("no arguments accepted: %+v", bad)
	}
}
