package astro

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/research/rag"
)

// Comparer builds comparison tables of reported values.
type Comparer interface {
	Compare(ctx context.Context, quantity, object string) (measure.Table, error)
}

// CompareArgs are compare_measurements' arguments.
type CompareArgs struct {
	Quantity string `json:"quantity,omitempty" desc:"Quantity key: H0, distance, redshift, mass, luminosity, sfr, temperature, metallicity, age, velocity, velocity_dispersion, sigma_8, Omega_m, ..." maxLength:"60"`
	Object   string `json:"object,omitempty" desc:"Object name; its aliases are searched too (e.g. NGC 4258)" maxLength:"200"`
	Limit    int    `json:"limit,omitempty" min:"1" max:"40" desc:"Rows to return (default 15)"`
}

// CompareMeasurements returns the compare_measurements tool: the values
// the library's papers report, one row per value with its paper and the
// exact sentence, so answers quote numbers with their sources.
func CompareMeasurements(c Comparer, basePath string) tools.Tool {
	return tools.New("compare_measurements",
		"Compare the values reported in the user's library papers for a quantity (and/or an object): one row per value with "+
			"value ± errors, unit, object, year, paper and the exact sentence (a reader link). Quote these values, never invent one.",
		func(ctx context.Context, tc *tools.Context, args CompareArgs) (tools.Result, error) {
			if strings.TrimSpace(args.Quantity) == "" && strings.TrimSpace(args.Object) == "" {
				return tools.Errorf("Give a quantity, an object or both."), nil
			}
			t, err := c.Compare(ctx, args.Quantity, args.Object)
			if err != nil {
				return tools.Result{}, err
			}
			limit := args.Limit
			if limit <= 0 {
				limit = 15
			}
			return tools.Result{Output: describeTable(t, limit, basePath), Metadata: map[string]any{"rows": len(t.Rows), "unit": t.Unit}}, nil
		},
		// Deferred: the lead's fixed prompt stays within its budget (C12);
		// load_tool offers it.
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred(),
	)
}

// describeTable is the table trimmed to limit rows, sentences shortened.
func describeTable(t measure.Table, limit int, basePath string) string {
	var b strings.Builder
	what := strings.TrimSpace(t.Quantity + " " + t.Object)
	if t.NotFound() {
		fmt.Fprintf(&b, "The library holds no reported value for %s. Search ADS (search_papers) with: %s", what, t.ADSQuery())
		return b.String()
	}
	fmt.Fprintf(&b, "%d values for %s in the library, oldest paper first", len(t.Rows), what)
	if len(t.Names) > 1 {
		fmt.Fprintf(&b, " (object searched as %s)", strings.Join(t.Names, ", "))
	}
	b.WriteString(":\nyear | value | unit | quantity | object | paper | sentence\n")
	for i, r := range t.Rows {
		if i == limit {
			fmt.Fprintf(&b, "… %d more rows (raise limit, or open the measurements page).\n", len(t.Rows)-limit)
			break
		}
		year := "?"
		if r.Year != nil {
			year = fmt.Sprint(*r.Year)
		}
		ref := fmt.Sprintf("library #%d", r.PaperID)
		if r.Bibcode != nil {
			ref += " " + *r.Bibcode
		}
		sentence := strings.Join(strings.Fields(r.Sentence), " ")
		if len([]rune(sentence)) > 240 {
			sentence = string([]rune(sentence)[:240]) + "…"
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | %s | %s | %q %s\n", year, measure.FormatValue(r), r.Unit, r.Quantity, r.Object, ref,
			sentence, rag.SentenceURL(basePath, r.PaperID, r.ChunkID, r.StartByte, r.EndByte))
	}
	return b.String()
}
