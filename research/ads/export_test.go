package ads

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestExportBibTeX(t *testing.T) {
	two := exportKey("2019ApJ...875L...1E", "2018ApJ...855..128W")
	f := newFake(t, map[string]reply{two: {file: "export_bibtex.json"}})
	clock := newTestClock()
	c := f.client(testToken, WithClock(clock.Now))
	ctx := context.Background()

	// Duplicates and surrounding space are dropped before sending.
	in := []string{" 2019ApJ...875L...1E", "2018ApJ...855..128W", "2019ApJ...875L...1E"}
	got, err := c.ExportBibTeX(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "@ARTICLE{2019ApJ...875L...1E,\n") || !strings.Contains(got, "\n\n@ARTICLE{2018ApJ...855..128W,") ||
		!strings.Contains(got, `journal = {\apjl}`) || !strings.HasSuffix(got, "}\n") || strings.HasSuffix(got, "\n\n") {
		t.Errorf("export:\n%s", got)
	}

	// Cached for a day: same answer, no new request; then fetched again.
	again, err := c.ExportBibTeX(ctx, in)
	if err != nil || again != got || f.count(two) != 1 {
		t.Errorf("second export: err %v, same %v, hits %d", err, again == got, f.count(two))
	}
	clock.Advance(25 * time.Hour)
	if _, err := c.ExportBibTeX(ctx, in); err != nil || f.count(two) != 2 {
		t.Errorf("after expiry: err %v, hits %d", err, f.count(two))
	}
}

func TestExportBatches(t *testing.T) {
	all := make([]string, ExportBatch+1)
	for i := range all {
		all[i] = fmt.Sprintf("2020MNRAS%04d.%04dA", i/1000+100, i%10000) // 19 chars
	}
	first, second := exportKey(all[:ExportBatch]...), exportKey(all[ExportBatch:]...)
	f := newFake(t, map[string]reply{
		first:  {file: "export_bibtex.json"},
		second: {file: "export_one.json"},
	})
	got, err := f.client(testToken).ExportBibTeX(context.Background(), all)
	if err != nil {
		t.Fatal(err)
	}
	if f.count(first) != 1 || f.count(second) != 1 {
		t.Errorf("hits %d and %d, want one request per batch", f.count(first), f.count(second))
	}
	i, j := strings.Index(got, "2018ApJ...855..128W"), strings.Index(got, "@INPROCEEDINGS{2019AAS...23345602B")
	if i < 0 || j < i || !strings.Contains(got, "}\n\n@INPROCEEDINGS") {
		t.Errorf("batches not joined in order:\n%s", got)
	}
}

func TestExportFaults(t *testing.T) {
	unknown := exportKey("2099ApJ...999L...9Z")
	noExport := exportKey("2019AAS...23345602B")
	f := newFake(t, map[string]reply{
		unknown:  {status: 404, file: "export_notfound.json"},
		noExport: {body: `{"msg": "Retrieved 0 abstracts"}`},
	})
	c := f.client(testToken)
	ctx := context.Background()

	_, err := c.ExportBibTeX(ctx, []string{"2099ApJ...999L...9Z"})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no result from solr") {
		t.Errorf("unknown bibcode: err = %v, want ErrNotFound with ADS's message", err)
	}
	if _, err := c.ExportBibTeX(ctx, []string{"2019AAS...23345602B"}); !errors.Is(err, ErrMalformedResponse) {
		t.Errorf("no export field: err = %v, want ErrMalformedResponse", err)
	}

	before := f.count("")
	_, err = c.ExportBibTeX(ctx, []string{"2019ApJ...875L...1E", `"},"x":{"`})
	if !errors.Is(err, ErrMalformedID) {
		t.Errorf("malformed bibcode: err = %v, want ErrMalformedID", err)
	}
	if got, err := c.ExportBibTeX(ctx, nil); got != "" || err != nil {
		t.Errorf("empty list: %q, %v", got, err)
	}
	if f.count("") != before {
		t.Errorf("requests sent for malformed or empty input")
	}
}
