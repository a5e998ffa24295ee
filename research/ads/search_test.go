package ads

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestSearchMapsDocs(t *testing.T) {
	q := `object:"M87" year:2018-2019`
	key := searchKey(q, wantFL, "citation_count desc", 3, 0)
	f := newFake(t, map[string]reply{key: {file: "search_m87.json"}})
	c := f.client(testToken)

	res, err := c.Search(context.Background(), Query{Q: "  " + q + "\n", Sort: "citation_count desc", Rows: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.NumFound != 1284 || res.Start != 0 || len(res.Docs) != 3 {
		t.Fatalf("result %d/%d/%d docs", res.NumFound, res.Start, len(res.Docs))
	}
	if next, ok := res.NextStart(); !ok || next != 3 {
		t.Errorf("NextStart = %d, %v; want 3, true", next, ok)
	}

	eht := Doc{
		Bibcode:     "2019ApJ...875L...1E",
		Title:       "First M87 Event Horizon Telescope Results. I. The Shadow of the Supermassive Black Hole",
		Authors:     []string{"Event Horizon Telescope Collaboration", "Akiyama, Kazunori", "Alberdi, Antxon", "Alef, Walter"},
		Journal:     "The Astrophysical Journal",
		PubDate:     "2019-04-00",
		Year:        2019,
		Volume:      "875",
		Page:        "L1",
		DOI:         "10.3847/2041-8213/ab0ec7",
		DOIs:        []string{"10.3847/2041-8213/ab0ec7"},
		ArxivID:     "1906.11238",
		Identifiers: []string{"2019ApJ...875L...1E", "2019arXiv190611238E", "10.3847/2041-8213/ab0ec7", "arXiv:1906.11238", "10.48550/arXiv.1906.11238"},
		Abstract: "When surrounded by a transparent emission region, black holes are expected to reveal a dark shadow. " +
			"We present images of M87* at 1.3 mm with an angular resolution <25 μas.",
		Keywords:      []string{"accretion, accretion disks", "black hole physics", "galaxies: individual: M87", "galaxies: jets", "gravitation", "techniques: high angular resolution"},
		CitationCount: new(4637),
		DocType:       "article",
		Properties:    []string{"ARTICLE", "DATA", "EPRINT_OPENACCESS", "ESOURCE", "OPENACCESS", "PUB_OPENACCESS", "REFEREED"},
		Refereed:      true,
		OpenAccess:    true,
		ESources:      []string{"EPRINT_HTML", "EPRINT_PDF", "PUB_HTML", "PUB_PDF"},
	}
	if !reflect.DeepEqual(res.Docs[0], eht) {
		t.Errorf("doc 0:\n got %+v\nwant %+v", res.Docs[0], eht)
	}

	walker := res.Docs[1]
	if walker.Title != "The Structure and Dynamics of the Subparsec Jet in M87 Based on 50 VLBA Observations over 17 Years at 43 GHz" {
		t.Errorf("title whitespace not collapsed: %q", walker.Title)
	}
	if walker.ArxivID != "1802.06166" {
		t.Errorf("arXiv id from bibcode-form identifier = %q, want 1802.06166", walker.ArxivID)
	}
	if walker.Year != 2018 || *walker.CitationCount != 251 || !walker.Refereed || walker.Authors[0] != "Walker, R. Craig" {
		t.Errorf("doc 1: %+v", walker)
	}

	abs := res.Docs[2]
	if abs.DOI != "" || abs.DOIs != nil || abs.ArxivID != "" || abs.Refereed || abs.OpenAccess || abs.ESources != nil {
		t.Errorf("doc without DOI/arXiv: %+v", abs)
	}
	if abs.Title != "Monitoring the M87 Jet Base with the & Global mm-VLBI Array" || abs.Page != "456.02" || abs.DocType != "abstract" {
		t.Errorf("doc 2: %+v", abs)
	}
}

func TestSearchParameters(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		key  string
	}{
		{"defaults", Query{Q: "abs:jet"}, searchKey("abs:jet", wantFL, "", DefaultRows, 0)},
		{"rows capped", Query{Q: "abs:jet", Rows: 5000, Start: 400}, searchKey("abs:jet", wantFL, "", MaxRows, 400)},
		{"sort and page", Query{Q: "abs:jet", Sort: "date desc, bibcode asc", Rows: 50, Start: 50}, searchKey("abs:jet", wantFL, "date desc, bibcode asc", 50, 50)},
		{"affiliations", Query{Q: "abs:jet", Sort: "score desc", Affiliations: true}, searchKey("abs:jet", wantFL+",aff", "score desc", DefaultRows, 0)},
		{"user text with operators", Query{Q: `title:"black hole" AND year:2019 & rm -rf`}, searchKey(`title:"black hole" AND year:2019 & rm -rf`, wantFL, "", DefaultRows, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, map[string]reply{tt.key: {file: "empty.json"}})
			res, err := f.client(testToken).Search(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if f.count(tt.key) != 1 || res.NumFound != 0 || len(res.Docs) != 0 {
				t.Errorf("hits %d, result %+v", f.count(tt.key), res)
			}
			if _, ok := res.NextStart(); ok {
				t.Error("NextStart on an empty result reports more")
			}
		})
	}
}

func TestSearchRejectsBeforeSending(t *testing.T) {
	tests := []struct {
		name string
		q    Query
	}{
		{"empty", Query{Q: "  \t"}},
		{"too long", Query{Q: string(make([]byte, maxQueryLen+1))}},
		{"bad sort", Query{Q: "abs:jet", Sort: "citation_count; drop"}},
		{"sort without direction", Query{Q: "abs:jet", Sort: "date"}},
		{"negative start", Query{Q: "abs:jet", Start: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, nil)
			_, err := f.client(testToken).Search(context.Background(), tt.q)
			if !errors.Is(err, ErrBadQuery) {
				t.Errorf("err = %v, want ErrBadQuery", err)
			}
			if f.count("") != 0 {
				t.Errorf("%d requests sent", f.count(""))
			}
		})
	}
}

func TestSearchIsCachedPerToken(t *testing.T) {
	key := searchKey("abs:jet", wantFL, "", DefaultRows, 0)
	f := newFake(t, map[string]reply{key: {file: "empty.json"}})
	c := f.client(testToken)
	ctx := context.Background()
	for range 3 {
		if _, err := c.Search(ctx, Query{Q: "abs:jet"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.count(key); n != 1 {
		t.Errorf("3 identical searches sent %d requests, want 1 (cached)", n)
	}
	// Another token on the same fetch client must not share the answer.
	other := New(f.srv.URL+"/v1", "other-token", c.http)
	if _, err := other.Search(ctx, Query{Q: "abs:jet"}); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("other token: err = %v, want ErrUnauthorized", err)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		id   string
		q    string
	}{
		{"bibcode", " 2019ApJ...875L...1E ", `bibcode:"2019ApJ...875L...1E"`},
		{"doi url", "https://doi.org/10.3847/2041-8213/AB0EC7", `doi:"10.3847/2041-8213/AB0EC7"`},
		{"doi prefix", "doi:10.3847/2041-8213/ab0ec7", `doi:"10.3847/2041-8213/ab0ec7"`},
		{"arxiv versioned", "arXiv:1906.11238v2", `identifier:"arXiv:1906.11238"`},
		{"arxiv bare", "1906.11238", `identifier:"arXiv:1906.11238"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := searchKey(tt.q, wantFL, "", 1, 0)
			f := newFake(t, map[string]reply{key: {file: "lookup_eht.json"}})
			d, err := f.client(testToken).Lookup(context.Background(), tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if d.Bibcode != "2019ApJ...875L...1E" || d.ArxivID != "1906.11238" || f.count(key) != 1 {
				t.Errorf("doc %+v, hits %d", d, f.count(key))
			}
		})
	}
}

func TestLookupFaults(t *testing.T) {
	unknown := searchKey(`bibcode:"2099ApJ...999L...9Z"`, wantFL, "", 1, 0)
	f := newFake(t, map[string]reply{unknown: {file: "empty.json"}})
	c := f.client(testToken)
	ctx := context.Background()

	if _, err := c.Lookup(ctx, "2099ApJ...999L...9Z"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown bibcode: err = %v, want ErrNotFound", err)
	}
	for _, id := range []string{"", "M87", "10.38/x", "doi:", "2019ApJ..875L...1E", "2019 ApJ...875L..1E", `1906.11238" OR *:*`} {
		before := f.count("")
		if _, err := c.Lookup(ctx, id); !errors.Is(err, ErrMalformedID) {
			t.Errorf("Lookup(%q): err = %v, want ErrMalformedID", id, err)
		}
		if f.count("") != before {
			t.Errorf("Lookup(%q) sent a request", id)
		}
	}
}

func TestCitationsAndReferences(t *testing.T) {
	bib := "2019ApJ...875L...1E"
	cit := searchKey(`citations(bibcode:"2019ApJ...875L...1E")`, wantFL, "date desc", 2, 0)
	ref := searchKey(`references(bibcode:"2019ApJ...875L...1E")`, wantFL, "date desc", 25, 25)
	f := newFake(t, map[string]reply{cit: {file: "citations.json"}, ref: {file: "empty.json"}})
	c := f.client(testToken)
	ctx := context.Background()

	res, err := c.Citations(ctx, bib, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.NumFound != 4637 || len(res.Docs) != 2 {
		t.Fatalf("citations: %+v", res)
	}
	eprint := res.Docs[0]
	if eprint.ArxivID != "2401.12345" || eprint.DOI != "" || eprint.Volume != "" || eprint.Refereed || eprint.DocType != "eprint" {
		t.Errorf("eprint citation: %+v", eprint)
	}
	if res.Docs[1].Bibcode != "2021ApJ...910L..12E" || res.Docs[1].ArxivID != "2105.01169" {
		t.Errorf("second citation: %+v", res.Docs[1])
	}

	if _, err := c.References(ctx, bib, 25, 25); err != nil || f.count(ref) != 1 {
		t.Errorf("references: err %v, hits %d", err, f.count(ref))
	}
	if _, err := c.Citations(ctx, `x") OR bibcode:("y`, 10, 0); !errors.Is(err, ErrMalformedID) {
		t.Errorf("malformed bibcode: err = %v, want ErrMalformedID", err)
	}
}
