package library

import (
	"context"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

// TestCiteKeysMatchBibTeX: the keys a table cites are the keys of the
// BibTeX export of the same papers, duplicates' suffixes included.
func TestCiteKeysMatchBibTeX(t *testing.T) {
	y := 2019
	papers := []store.Paper{
		{ID: 1, Title: "The maser distance to NGC 4258", Authors: []string{"Reid, M. J."}, Year: &y},
		{ID: 2, Title: "The maser distance revisited", Authors: []string{"Reid, M. J."}, Year: &y},
		{ID: 3, Title: "A Hubble constant", Authors: []string{"Adam Riess"}, Year: &y},
	}
	keys := CiteKeys(papers, nil)
	bib := BibTeX(context.Background(), papers, nil)
	for _, p := range papers {
		if k := keys[p.ID]; k == "" || !strings.Contains(bib, "{"+k+",\n") {
			t.Errorf("paper %d: key %q not in the export:\n%s", p.ID, k, bib)
		}
	}
	if keys[1] == keys[2] {
		t.Errorf("duplicate keys %q", keys[1])
	}
}
