package parse

import (
	"os"
	"strings"
	"testing"
)

// TestCorpusOrderDebug lists, for the samples named in PARSE_ORDER (a
// development aid), the source passages the engine puts out of order.
func TestCorpusOrderDebug(t *testing.T) {
	want := os.Getenv("PARSE_ORDER")
	if want == "" {
		t.Skip("set PARSE_ORDER to a sample name to list its out-of-order passages")
	}
	all, _ := corpus()
	for _, s := range all {
		if !strings.Contains(s.name, want) {
			continue
		}
		tr, err := loadTruth(s.tex)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := (&PDFEngine{}).Parse(t.Context(), Input{PDFPath: s.pdf}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ow := words(unescape(doc.Markdown))
		pos := map[string][]int{}
		for i := 0; i+6 <= len(ow); i++ {
			k := strings.Join(ow[i:i+6], " ")
			pos[k] = append(pos[k], i)
		}
		last := -1
		for i := 0; i+6 <= len(tr.words); i += 6 {
			k := strings.Join(tr.words[i:i+6], " ")
			if p := pos[k]; len(p) == 1 {
				if p[0] < last {
					t.Logf("%s: source word %d %q comes at %d, before %d", s.name, i, k, p[0], last)
				}
				last = p[0]
			}
		}
	}
}
