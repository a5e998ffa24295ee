package ads

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestRawDocShapes(t *testing.T) {
	tests := []struct {
		name string
		json string
		want Doc
	}{
		{"scalars where lists are usual, numeric year",
			`{"bibcode":"1978ApJ...219..748Y","title":"A  Title","author":"Young, P.","year":1978,"page":"748","doi":"10.1086/155833","citation_count":"12"}`,
			Doc{Bibcode: "1978ApJ...219..748Y", Title: "A Title", Authors: []string{"Young, P."}, Year: 1978, Page: "748",
				DOI: "10.1086/155833", DOIs: []string{"10.1086/155833"}, CitationCount: new(12)}},
		{"nulls and empties",
			`{"bibcode":"1978ApJ...219..748Y","title":null,"author":[],"doi":[""],"year":null,"pubdate":"1978-03-00"}`,
			Doc{Bibcode: "1978ApJ...219..748Y", PubDate: "1978-03-00", Year: 1978}},
		{"a count of zero is a count; no count is nil (above)",
			`{"bibcode":"2024arXiv240101234X","citation_count":0}`,
			Doc{Bibcode: "2024arXiv240101234X", CitationCount: new(0)}},
		{"affiliations keep positions",
			`{"author":["A, B","C, D","E, F"],"aff":["Uni A","","-"]}`,
			Doc{Authors: []string{"A, B", "C, D", "E, F"}, Affiliations: []string{"Uni A", "-", "-"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r rawDoc
			if err := json.Unmarshal([]byte(tt.json), &r); err != nil {
				t.Fatal(err)
			}
			if got := r.doc(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestArxivFromIdentifiers(t *testing.T) {
	tests := []struct {
		ids  []string
		want string
	}{
		{[]string{"2019arXiv190611238E", "arXiv:1906.11238"}, "1906.11238"},
		{[]string{"2019arXiv190600001X", "arXiv:1906.11238"}, "1906.11238"}, // explicit form preferred
		{[]string{"2012arXiv1201.1234X"}, "1201.1234"},
		{[]string{"10.48550/arXiv.2105.01169"}, "2105.01169"},
		{[]string{"arXiv:astro-ph/0601001"}, "astro-ph/0601001"},
		{[]string{"2006astro.ph..1001X", "10.1086/500000"}, ""},
		{[]string{"arXiv:", "2019arXivABCDEFGHIX"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := arxivFromIdentifiers(tt.ids); got != tt.want {
			t.Errorf("arxivFromIdentifiers(%q) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}

// FuzzDecodeSearch feeds arbitrary bodies through the search decoding path:
// it must never panic, and every decoded doc must satisfy the invariants the
// library relies on.
func FuzzDecodeSearch(f *testing.F) {
	for _, s := range []string{
		`{"response":{"numFound":1,"start":0,"docs":[{"bibcode":"2019ApJ...875L...1E","title":["T"],"year":"2019","identifier":["arXiv:1906.11238"]}]}}`,
		`{"response":{"docs":[{"title":"x","year":2019.5,"page":[1,2],"doi":null}]}}`,
		`{"response":{"docs":[{"identifier":["2019arXiv1906.1123X"],"aff":["",""]}]}}`,
		`{"response":null}`, `[]`, `{"response":{"docs":[{"year":"20"}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var sr searchResponse
		if json.Unmarshal(body, &sr) != nil || sr.Response == nil {
			return
		}
		for _, r := range sr.Response.Docs {
			d := r.doc()
			if d.ArxivID != "" {
				if _, err := normalizeArxiv(d.ArxivID); err != nil {
					t.Fatalf("ArxivID %q is not a normalized arXiv id", d.ArxivID)
				}
			}
			if (d.DOI == "") != (len(d.DOIs) == 0) {
				t.Fatalf("DOI %q vs DOIs %q", d.DOI, d.DOIs)
			}
			if len(r.Aff) > 0 && len(d.Affiliations) != len(r.Aff) {
				t.Fatalf("affiliations lost positions: %d → %d", len(r.Aff), len(d.Affiliations))
			}
		}
	})
}
