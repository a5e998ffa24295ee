package measure

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

func exportTable() Table {
	y := 2019
	bib := "2019ApJ...886L..27R"
	return Table{Quantity: "H0", Object: "NGC 4258", Unit: "km s⁻¹ Mpc⁻¹", Rows: []store.Measurement{
		{PaperID: 7, Quantity: "H0", Value: 73.04, ErrPlus: 1.04, ErrMinus: 1.04, Unit: "km s⁻¹ Mpc⁻¹", Object: "=HYPERLINK(\"http://evil\")",
			Sentence: "+cmd|' /C calc'!A0 and $H_0 = 73.04$", Year: &y, Bibcode: &bib, Title: "@SUM(1+1) & {braces}_x"},
		{PaperID: 8, Quantity: "H0", Value: 72.5, ErrPlus: 2.1, ErrMinus: 2.3, Unit: "km s⁻¹ Mpc⁻¹", Object: "-2+3 {x}$", Sentence: "plain"},
	}}
}

func TestCSVDefusesFormulas(t *testing.T) {
	var b strings.Builder
	if err := WriteCSV(&b, exportTable(), map[int64]string{7: "Riess2019maser"}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b.String())
	}
	if len(recs) != 3 || recs[1][1] != "73.04" || recs[1][11] != "Riess2019maser" {
		t.Fatalf("records %q", recs)
	}
	for _, rec := range recs[1:] {
		for i, cell := range rec {
			if i == 1 || i == 2 || i == 3 || i == 5 || i == 8 || i == 9 {
				continue // numbers
			}
			if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
				t.Errorf("cell %d %q would run as a formula", i, cell)
			}
		}
	}
	if !strings.Contains(b.String(), `"'=HYPERLINK(""http://evil"")"`) {
		t.Errorf("formula cell not quoted with an apostrophe:\n%s", b.String())
	}
}

func TestDeluxetable(t *testing.T) {
	tex := Deluxetable(exportTable(), map[int64]string{7: "2019ApJ...886L..27R", 8: "Wong2020h0licow"})
	for _, want := range []string{`\begin{deluxetable}`, `\citet{2019ApJ...886L..27R}`, `\citet{Wong2020h0licow}`,
		`$73.04 \pm 1.04$`, `$72.5^{+2.1}_{-2.3}$`, `km\,s$^{-1}$\,Mpc$^{-1}$`, `\enddata`, `of NGC 4258`} {
		if !strings.Contains(tex, want) {
			t.Errorf("missing %q in\n%s", want, tex)
		}
	}
	if !strings.Contains(tex, `-2+3 \{x\}\$ &`) {
		t.Errorf("object text not escaped for TeX:\n%s", tex)
	}
}

func TestFormatValue(t *testing.T) {
	for _, c := range []struct {
		m    store.Measurement
		want string
	}{
		{store.Measurement{Value: 73.04, ErrPlus: 1.04, ErrMinus: 1.04}, "73.04 ± 1.04"},
		{store.Measurement{Value: 6.8, ErrPlus: 0.4, ErrMinus: 0.3}, "6.8 +0.4/−0.3"},
		{store.Measurement{Value: 3.2, Bound: "<"}, "< 3.2"},
		{store.Measurement{Value: 800, Upper: 1200, Bound: "range"}, "800–1200"},
	} {
		if got := FormatValue(c.m); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
}

func TestCanonicalQuantity(t *testing.T) {
	for in, want := range map[string]string{"h0": "H0", " Hubble constant ": "H0", "sigma8": "sigma_8", "distance": "distance", "mass": "mass", "weird": "weird"} {
		if got := CanonicalQuantity(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestExportsResistInjection: text from papers (object, title, sentence)
// and cite keys from outside cannot run TeX commands or spreadsheet
// formulas.
func TestExportsResistInjection(t *testing.T) {
	tab := exportTable()
	tab.Rows[0].Object = `\input{/etc/passwd}\immediate\write18{rm -rf ~}`
	tab.Rows[1].Object = "  =1+1"
	tex := Deluxetable(tab, map[int64]string{7: `x}\input{/etc/passwd}\citet{y`, 8: "2016A&A...594A..13P"})
	for _, bad := range []string{`\input{`, `\write18{`, `\immediate`, `\citet{x}`} {
		if strings.Contains(tex, bad) {
			t.Errorf("TeX export holds %q:\n%s", bad, tex)
		}
	}
	if !strings.Contains(tex, `& paper 7 \\`) || !strings.Contains(tex, `\citet{2016A&A...594A..13P}`) {
		t.Errorf("unsafe key not replaced by the paper id, or a bibcode key refused:\n%s", tex)
	}
	var b strings.Builder
	if err := WriteCSV(&b, tab, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"'  =1+1"`) {
		t.Errorf("formula behind spaces not defused:\n%s", b.String())
	}
}
