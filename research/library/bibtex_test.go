package library

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

func strp(s string) *string { return &s }
func intp(i int) *int       { return &i }

func balanced(s string) bool {
	depth := 0
	for i, r := range s {
		if i > 0 && s[i-1] == '\\' {
			continue
		}
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

func TestLocalBibTeX(t *testing.T) {
	keys := map[string]int{}
	p := store.Paper{Title: "The 100% complete & {odd} sample at $z\\sim6$ with 50_000 galaxies", Authors: []string{"Müller, Jörg", "Smith, A."},
		Journal: "Astronomy & Astrophysics", Volume: "650", Page: "A12", Year: intp(2021), DOI: strp("10.1051/0004-6361/202040000"),
		ArxivID: strp("2104.00001"), Categories: "astro-ph.GA astro-ph.CO", Bibcode: strp("2021A&A...650A..12M")}
	out := LocalBibTeX(p, keys)
	for _, want := range []string{"@article{Muller2021100,", `100\% complete \& \{odd\} sample at $z\sim6$ with 50\_000`,
		"journal       = {Astronomy \\& Astrophysics}", "author        = {Müller, Jörg and Smith, A.}", "eprint        = {2104.00001}",
		"primaryClass  = {astro-ph.GA}", "doi           = {10.1051/0004-6361/202040000}"} {
		if !strings.Contains(out, want) {
			t.Errorf("entry lacks %q:\n%s", want, out)
		}
	}
	if !balanced(out) {
		t.Fatalf("unbalanced braces:\n%s", out)
	}
	// Same key again gets a suffix; a preprint is @misc; collaborations are protected.
	second := LocalBibTeX(p, keys)
	if !strings.HasPrefix(second, "@article{Muller2021100a,") {
		t.Fatalf("duplicate key not suffixed: %s", second[:40])
	}
	pre := LocalBibTeX(store.Paper{Title: "A preprint", Authors: []string{"Event Horizon Telescope Collaboration"}, ArxivID: strp("2401.00001"), Year: intp(2024)}, keys)
	if !strings.HasPrefix(pre, "@misc{Collaboration2024preprint,") || !strings.Contains(pre, "{{Event Horizon Telescope Collaboration}}") {
		t.Fatalf("preprint entry:\n%s", pre)
	}
}

type fakeExporter struct {
	token bool
	err   error
	asked []string
}

func (f *fakeExporter) HasToken() bool { return f.token }
func (f *fakeExporter) ExportBibTeX(ctx context.Context, b []string) (string, error) {
	f.asked = b
	return "@ARTICLE{2019ApJ...875L...1E,\n  title = {From ADS}\n}\n", f.err
}

func TestBibTeXUsesADSWhenPossible(t *testing.T) {
	papers := []store.Paper{
		{Title: "Published", Bibcode: strp("2019ApJ...875L...1E"), Year: intp(2019)},
		{Title: "Preprint only", ArxivID: strp("2401.00001"), Year: intp(2024)},
	}
	ads := &fakeExporter{token: true}
	out := BibTeX(context.Background(), papers, ads)
	if !strings.Contains(out, "From ADS") || !strings.Contains(out, "@misc{Anon2024preprint,") || len(ads.asked) != 1 {
		t.Fatalf("mixed export:\n%s", out)
	}
	out = BibTeX(context.Background(), papers, &fakeExporter{token: true, err: errors.New("HTTP 500")})
	if strings.Contains(out, "From ADS") || strings.Count(out, "@") != 2 {
		t.Fatalf("fallback when ADS fails:\n%s", out)
	}
	out = BibTeX(context.Background(), papers, &fakeExporter{token: false})
	if strings.Count(out, "@") != 2 {
		t.Fatalf("no token:\n%s", out)
	}
}

func TestBibTeXWithKeysMatchTheEntries(t *testing.T) {
	year := 2024
	bib := "2024ApJ...962..101F"
	arx := "2401.01234"
	papers := []store.Paper{
		{Title: "Cold gas in dwarfs", Authors: []string{"Fernández, Maria J."}, Year: &year, ArxivID: &arx},
		{Title: "Cold gas again", Authors: []string{"Fernandez, M."}, Year: &year, Bibcode: &bib},
		{Title: "No year", Authors: []string{"Nowak, T."}, DOI: &arx},
	}
	out, keys := BibTeXWithKeys(context.Background(), papers, nil)
	if len(keys) != 3 || keys[0] != "Fernandez2024cold" || keys[1] != "Fernandez2024colda" || keys[2] != "Nowakno" {
		t.Fatalf("keys = %q", keys)
	}
	for _, k := range keys {
		if !strings.Contains(out, "{"+k+",") {
			t.Errorf("key %s is not an entry of\n%s", k, out)
		}
	}
	if out != BibTeX(context.Background(), papers, nil) {
		t.Fatal("BibTeX and BibTeXWithKeys disagree")
	}
}
