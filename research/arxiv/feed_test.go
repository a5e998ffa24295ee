package arxiv

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestParseFeedSearch(t *testing.T) {
	res, err := ParseFeed(readFixture(t, "search_astroph.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1523 || res.Start != 0 || res.PerPage != 2 || len(res.Entries) != 2 {
		t.Fatalf("result = total %d start %d per page %d, %d entries", res.Total, res.Start, res.PerPage, len(res.Entries))
	}
	want := Entry{
		ID:    ID{"2401.01234", 2},
		Title: `Cold gas in ultra-faint dwarf galaxies at $z\sim6$: constraints from stacked [CII] observations`,
		Summary: "We present a stacking analysis of [CII] 158 micron emission towards 32 ultra-faint dwarf " +
			"galaxy candidates at redshifts 5.5 < z < 6.5. No individual source is detected, but the stack " +
			"yields a 4 sigma detection implying a mean cold gas mass of about 10^8 solar masses. The gas " +
			"fractions we infer exceed those of local dwarfs by a factor of three, in line with models in " +
			"which reionization suppresses star formation but not gas accretion.",
		Authors: []Author{
			{Name: "Maria J. Fernández", Affiliations: []string{"Instituto de Astrofísica de Canarias", "Universidad de La Laguna"}},
			{Name: "Tomasz Nowak"},
			{Name: "A. B. Okafor", Affiliations: []string{"Kavli IPMU"}},
		},
		Published:       mustTime(t, "2024-01-03T18:59:59Z"),
		Updated:         mustTime(t, "2024-02-14T09:12:45Z"),
		PrimaryCategory: "astro-ph.GA",
		Categories:      []string{"astro-ph.GA", "astro-ph.CO"},
		DOI:             "10.3847/1538-4357/ad1234",
		JournalRef:      "ApJ 962 (2024) 101",
		Comment:         "14 pages, 9 figures, accepted for publication in ApJ",
		AbsURL:          "http://arxiv.org/abs/2401.01234v2",
		PDFURL:          "http://arxiv.org/pdf/2401.01234v2",
		DOIURL:          "http://dx.doi.org/10.3847/1538-4357/ad1234",
	}
	if !reflect.DeepEqual(res.Entries[0], want) {
		t.Errorf("entry 0 =\n%+v\nwant\n%+v", res.Entries[0], want)
	}
	old := res.Entries[1]
	if old.ID != (ID{"astro-ph/0601001", 1}) || !old.ID.OldStyle() {
		t.Errorf("entry 1 id = %+v", old.ID)
	}
	if old.Title != "The Luminosity Function of Dwarf Spheroidal Satellites of the Milky Way" {
		t.Errorf("entry 1 title = %q", old.Title)
	}
	if old.DOI != "" || old.JournalRef != "" || old.DOIURL != "" {
		t.Errorf("entry 1 has DOI %q, journal %q, DOI URL %q; want none", old.DOI, old.JournalRef, old.DOIURL)
	}
	if !old.Published.Equal(mustTime(t, "2006-01-01T17:00:01Z")) {
		t.Errorf("entry 1 published = %v", old.Published)
	}
	if old.PrimaryCategory != "astro-ph" || !reflect.DeepEqual(old.Categories, []string{"astro-ph"}) {
		t.Errorf("entry 1 categories = %q %q", old.PrimaryCategory, old.Categories)
	}
	if got := old.AuthorNames(); !reflect.DeepEqual(got, []string{"R. Lindqvist"}) {
		t.Errorf("entry 1 authors = %q", got)
	}
}

func TestParseFeedIDList(t *testing.T) {
	res, err := ParseFeed(readFixture(t, "idlist.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range res.Entries {
		ids = append(ids, e.ID.String())
	}
	if want := []string{"2401.01234v2", "math/0309136v1", "1501.00001v3"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids = %q, want %q", ids, want)
	}
	e := res.Entries[0]
	if e.DOI != "10.3847/1538-4357/ad1234" || e.DOIURL != "https://doi.org/10.3847/1538-4357/ad1234" ||
		e.PDFURL != "https://arxiv.org/pdf/2401.01234v2" || e.AbsURL != "https://arxiv.org/abs/2401.01234v2" {
		t.Errorf("links = %q %q %q %q", e.DOI, e.DOIURL, e.PDFURL, e.AbsURL)
	}
	if e.PrimaryCategory != "astro-ph.GA" || e.JournalRef != "ApJ 962 (2024) 101" {
		t.Errorf("primary %q journal %q", e.PrimaryCategory, e.JournalRef)
	}
	if got := e.Authors[0].Affiliations; !reflect.DeepEqual(got, []string{"Instituto de Astrofísica de Canarias"}) {
		t.Errorf("affiliations = %q", got)
	}
	if res.Total != 3 || res.PerPage != 4 {
		t.Errorf("total %d per page %d", res.Total, res.PerPage)
	}
}

func TestParseFeedEmpty(t *testing.T) {
	res, err := ParseFeed(readFixture(t, "empty.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 0 || len(res.Entries) != 0 || res.PerPage != 10 {
		t.Fatalf("result = %+v", res)
	}
}

func TestParseFeedAPIError(t *testing.T) {
	_, err := ParseFeed(readFixture(t, "error.xml"))
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error = %v, want *APIError", err)
	}
	if apiErr.Message != "incorrect id format for 1234.12345" || apiErr.Code != "incorrect_id_format_for_1234.12345" {
		t.Fatalf("API error = %+v", apiErr)
	}
	if !strings.Contains(err.Error(), "incorrect id format for 1234.12345") {
		t.Fatalf("message %q does not carry the API's words", err)
	}
}

func TestParseFeedNotAtom(t *testing.T) {
	tests := []struct {
		name, body, why string
	}{
		{"proxy HTML page", string(readFixture(t, "proxy_error.html")), "HTML page"},
		{"bare html", "<html><body>oops</body></html>", "HTML page"},
		{"plain text throttle", "Rate exceeded.", "Rate exceeded."},
		{"empty body", "", "empty body"},
		{"whitespace", " \n\t", "empty body"},
		{"other XML", `<?xml version="1.0"?><rss version="2.0"><channel/></rss>`, "<rss>"},
		{"feed without namespace", `<feed><entry><id>http://arxiv.org/abs/2401.01234v1</id></entry></feed>`, "<feed>"},
		{"JSON", `{"error":"bad gateway"}`, `{\"error\"`},
		{"binary", "\x00\x01\x02", "XML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFeed([]byte(tt.body))
			if !errors.Is(err, ErrNotAtom) {
				t.Fatalf("error = %v, want ErrNotAtom", err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("error %q does not mention %q", err, tt.why)
			}
		})
	}
}

func TestParseFeedEdgeCases(t *testing.T) {
	const head = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">`
	tests := []struct {
		name    string
		body    string
		wantErr string // "" means success
		check   func(t *testing.T, r Result)
	}{
		{
			name: "truncated body", body: head + `<entry><id>http://arxiv.org/abs/2401.01234v1</id><title>Cut`,
			wantErr: "malformed feed",
		},
		{
			name: "bad total", body: head + `<opensearch:totalResults>many</opensearch:totalResults></feed>`,
			wantErr: "totalResults",
		},
		{
			name: "negative start", body: head + `<opensearch:startIndex>-1</opensearch:startIndex></feed>`,
			wantErr: "startIndex",
		},
		{
			name: "entry without usable id is skipped",
			body: head + `<entry><id>http://example.org/x</id><title>Ghost</title></entry>` +
				`<entry><title>No id</title></entry>` +
				`<entry><id>https://arxiv.org/abs/2401.01234v1</id><title> Real </title></entry></feed>`,
			check: func(t *testing.T, r Result) {
				if len(r.Entries) != 1 || r.Entries[0].Title != "Real" {
					t.Fatalf("entries = %+v", r.Entries)
				}
				if len(r.Skipped) != 2 || !strings.Contains(r.Skipped[0], "entry 1") || !strings.Contains(r.Skipped[0], "example.org/x") ||
					!strings.Contains(r.Skipped[1], "entry 2") {
					t.Fatalf("skipped = %q, want entries 1 and 2 named", r.Skipped)
				}
			},
		},
		{
			name: "bad dates stay zero, no primary category falls back to first",
			body: head + `<entry><id>http://arxiv.org/abs/2401.01234v1</id><published>yesterday</published>` +
				`<category term="astro-ph.SR"/><category term="astro-ph.SR"/><category term="astro-ph.EP"/></entry></feed>`,
			check: func(t *testing.T, r Result) {
				e := r.Entries[0]
				if !e.Published.IsZero() || !e.Updated.IsZero() {
					t.Errorf("times = %v %v", e.Published, e.Updated)
				}
				if e.PrimaryCategory != "astro-ph.SR" || !reflect.DeepEqual(e.Categories, []string{"astro-ph.SR", "astro-ph.EP"}) {
					t.Errorf("categories = %q %q", e.PrimaryCategory, e.Categories)
				}
				if e.AbsURL != "http://arxiv.org/abs/2401.01234v1" {
					t.Errorf("abs URL fallback = %q", e.AbsURL)
				}
			},
		},
		{
			name: "primary category missing from the list is put first",
			body: head + `<entry><id>http://arxiv.org/abs/2401.01234v1</id><arxiv:primary_category term="astro-ph.HE"/>` +
				`<category term="gr-qc"/><author><name>  </name></author><author><name>Solo</name><arxiv:affiliation> </arxiv:affiliation></author></entry></feed>`,
			check: func(t *testing.T, r Result) {
				e := r.Entries[0]
				if !reflect.DeepEqual(e.Categories, []string{"astro-ph.HE", "gr-qc"}) {
					t.Errorf("categories = %q", e.Categories)
				}
				if len(e.Authors) != 1 || e.Authors[0].Name != "Solo" || e.Authors[0].Affiliations != nil {
					t.Errorf("authors = %+v", e.Authors)
				}
			},
		},
		{
			name:    "error entry without summary uses title",
			body:    head + `<entry><id>https://arxiv.org/api/errors#max_results_must_be_an_integer</id><title>Error</title></entry></feed>`,
			wantErr: "arXiv API error: Error",
		},
		{
			name: "entities and CDATA", body: head + `<entry><id>http://arxiv.org/abs/2401.01234v1</id>` +
				`<title>M&#252;ller &amp; <![CDATA[<Smith>]]></title></entry></feed>`,
			check: func(t *testing.T, r Result) {
				if got := r.Entries[0].Title; got != "Müller & <Smith>" {
					t.Errorf("title = %q", got)
				}
			},
		},
		{
			name: "undefined entity", body: head + `<entry><title>&bogus;</title></entry></feed>`,
			wantErr: "malformed feed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseFeed([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

// FuzzParseFeed checks that ParseFeed never panics and that what it returns
// is consistent: either an error or entries with valid identifiers.
func FuzzParseFeed(f *testing.F) {
	for _, name := range []string{"search_astroph.xml", "idlist.xml", "empty.xml", "error.xml", "proxy_error.html"} {
		f.Add(readFixture(f, name))
	}
	f.Add([]byte("Rate exceeded."))
	// Small seeds mutate more productively than whole fixtures.
	const ns = `xmlns="http://www.w3.org/2005/Atom" xmlns:a="http://arxiv.org/schemas/atom" xmlns:o="http://a9.com/-/spec/opensearch/1.1/"`
	f.Add([]byte(`<feed ` + ns + `><o:totalResults>1</o:totalResults><entry><id>2401.01234</id></entry></feed>`))
	f.Add([]byte(`<feed ` + ns + `><entry><id>http://arxiv.org/abs/astro-ph/0601001v1</id><title>T</title>` +
		`<published>2006-01-01T12:00:01-05:00</published><author><name>N</name><a:affiliation>X</a:affiliation></author>` +
		`<link title="pdf" href="p"/><link title="doi" href="d"/><link rel="alternate" href="a"/>` +
		`<a:primary_category term="astro-ph"/><category term="gr-qc"/><a:doi>10.1/x</a:doi></entry></feed>`))
	f.Add([]byte(`<feed ` + ns + `><entry><id>http://arxiv.org/api/errors#x</id><summary>bad</summary></entry></feed>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseFeed(data)
		if err != nil {
			if len(res.Entries) != 0 {
				t.Fatalf("error %v with %d entries", err, len(res.Entries))
			}
			return
		}
		for _, e := range res.Entries {
			if !e.ID.valid() {
				t.Fatalf("entry with invalid id %+v", e.ID)
			}
		}
		if res.Total < 0 || res.Start < 0 || res.PerPage < 0 {
			t.Fatalf("negative counts %+v", res)
		}
	})
}
