package arxiv

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestSearchQuery(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"one word", Query{Terms: "quasar"}, `all:quasar`},
		{"words are ANDed", Query{Terms: "dark  matter halo"}, `all:dark AND all:matter AND all:halo`},
		{"quoted phrase kept", Query{Terms: `"cold dark matter" cusp`}, `all:"cold dark matter" AND all:cusp`},
		{"unclosed quote runs to the end", Query{Terms: `cusp "core problem`}, `all:cusp AND all:"core problem"`},
		{"one-word phrase is a word", Query{Terms: `"JWST"`}, `all:JWST`},
		{"field syntax neutralised", Query{Terms: `ti:foo (bar) au:x*`}, `all:ti AND all:foo AND all:bar AND all:au AND all:x`},
		{"operators searched, not obeyed", Query{Terms: "stars AND OR ANDNOT gas"}, `all:stars AND all:and AND all:or AND all:andnot AND all:gas`},
		{"leading minus is no negation", Query{Terms: "-lensing +weak"}, `all:lensing AND all:weak`},
		{"inner punctuation kept", Query{Terms: "H-alpha z~6.5 Hubble's NGC_1275"}, `all:H-alpha AND all:z AND all:6.5 AND all:Hubble's AND all:NGC_1275`},
		{"unicode letters kept", Query{Terms: "Ångström Lyα"}, `all:Ångström AND all:Lyα`},
		{"title", Query{Title: `"tidal disruption" event`}, `ti:"tidal disruption" AND ti:event`},
		{"author surname", Query{Author: "Kormendy"}, `au:Kormendy`},
		{"author phrase", Query{Author: "de Jong"}, `au:"de Jong"`},
		{"author with comma and initial", Query{Author: "Smith, J."}, `au:"Smith J"`},
		{"several authors", Query{Author: "Kormendy; Ho"}, `au:Kormendy AND au:Ho`},
		{"category", Query{Category: "astro-ph.GA"}, `cat:astro-ph.GA`},
		{"categories ORed", Query{Category: "astro-ph.GA, astro-ph.CO gr-qc"}, `(cat:astro-ph.GA OR cat:astro-ph.CO OR cat:gr-qc)`},
		{"submitted day", Query{Category: "astro-ph.GA",
			SubmittedFrom: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), SubmittedTo: time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)},
			`cat:astro-ph.GA AND submittedDate:[202611300000 TO 202611302359]`},
		{"submitted range in UTC", Query{Category: "astro-ph.CO",
			SubmittedFrom: time.Date(2026, 11, 30, 1, 0, 0, 0, time.FixedZone("CET", 3600)), SubmittedTo: time.Date(2026, 12, 1, 0, 59, 0, 0, time.FixedZone("CET", 3600))},
			`cat:astro-ph.CO AND submittedDate:[202611300000 TO 202611302359]`},
		{"everything ANDed in order",
			Query{Terms: "bar", Title: "spiral", Author: "Sellwood", Category: "astro-ph.GA"},
			`all:bar AND ti:spiral AND au:Sellwood AND cat:astro-ph.GA`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.q.searchQuery()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("searchQuery = %s\nwant          %s", got, tt.want)
			}
		})
	}
}

func TestQueryParams(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		want url.Values
	}{
		{"defaults", Query{Terms: "quasar"}, url.Values{
			"search_query": {"all:quasar"}, "start": {"0"}, "max_results": {"10"}}},
		{"paging and sort", Query{Terms: "quasar", Start: 40, Max: 20, SortBy: SortSubmitted, SortOrder: Ascending}, url.Values{
			"search_query": {"all:quasar"}, "start": {"40"}, "max_results": {"20"},
			"sortBy": {"submittedDate"}, "sortOrder": {"ascending"}}},
		{"max capped", Query{Terms: "quasar", Max: 5000, SortBy: SortLastUpdated, SortOrder: Descending}, url.Values{
			"search_query": {"all:quasar"}, "start": {"0"}, "max_results": {"100"},
			"sortBy": {"lastUpdatedDate"}, "sortOrder": {"descending"}}},
		{"relevance", Query{Terms: "quasar", SortBy: SortRelevance}, url.Values{
			"search_query": {"all:quasar"}, "start": {"0"}, "max_results": {"10"}, "sortBy": {"relevance"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.q.params()
			if err != nil {
				t.Fatal(err)
			}
			if got.Encode() != tt.want.Encode() {
				t.Fatalf("params = %s\nwant     %s", got.Encode(), tt.want.Encode())
			}
		})
	}
}

func TestQueryEncoding(t *testing.T) {
	v, err := Query{Terms: `"dark matter"`, Category: "astro-ph.GA,astro-ph.CO"}.params()
	if err != nil {
		t.Fatal(err)
	}
	// The form arXiv's own examples use: + for space, %22 for quotes,
	// %28/%29 for parentheses, %3A for colons.
	want := "max_results=10&search_query=all%3A%22dark+matter%22+AND+%28cat%3Aastro-ph.GA+OR+cat%3Aastro-ph.CO%29&start=0"
	if got := v.Encode(); got != want {
		t.Fatalf("encoded = %s\nwant      %s", got, want)
	}
}

func TestQueryRejects(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		why  string
	}{
		{"nothing", Query{}, "empty query"},
		{"only punctuation", Query{Terms: `"" () : *`, Author: " ; ", Title: "-"}, "empty query"},
		{"bad category", Query{Terms: "x", Category: "astro-ph.GA OR 1=1"}, "category"},
		{"category with field syntax", Query{Category: "cat:astro-ph"}, "category"},
		{"negative start", Query{Terms: "x", Start: -1}, "negative"},
		{"bad sort", Query{Terms: "x", SortBy: "citations"}, "sort field"},
		{"bad order", Query{Terms: "x", SortOrder: "up"}, "sort order"},
		{"too long", Query{Terms: strings.Repeat("word ", 500)}, "too long"},
		{"submitted range backwards", Query{Category: "astro-ph.GA",
			SubmittedFrom: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), SubmittedTo: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}, "before it starts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.q.params()
			if err == nil || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("error = %v, want one mentioning %q", err, tt.why)
			}
		})
	}
	if _, err := (Query{}).params(); !errors.Is(err, ErrEmptyQuery) {
		t.Fatalf("empty query error %v does not wrap ErrEmptyQuery", err)
	}
}

func TestValidCategory(t *testing.T) {
	tests := []struct {
		term string
		ok   bool
	}{
		{"astro-ph", true}, {"astro-ph.GA", true}, {"gr-qc", true}, {"cs.LG", true},
		{"physics.space-ph", true}, {"cond-mat.stat-mech", true}, {"q-bio.PE", true},
		{"", false}, {"Astro-ph", false}, {"astro-ph.", false}, {".GA", false},
		{"astro--ph", false}, {"-astro", false}, {"astro-ph.G1", false}, {"astro-ph*", false},
		{"a.b.c", false}, {"cat:astro-ph", false}, {strings.Repeat("a", 41), false},
	}
	for _, tt := range tests {
		if got := ValidCategory(tt.term); got != tt.ok {
			t.Errorf("ValidCategory(%q) = %v, want %v", tt.term, got, tt.ok)
		}
	}
}

func TestCategoryName(t *testing.T) {
	for _, c := range AstroCategories() {
		if CategoryName(c) == "" || !ValidCategory(c) {
			t.Errorf("astro category %q has no name or is invalid", c)
		}
	}
	if got := CategoryName("astro-ph.GA"); got != "Astrophysics of Galaxies" {
		t.Errorf("CategoryName(astro-ph.GA) = %q", got)
	}
	if got := CategoryName("math.GT"); got != "" {
		t.Errorf("CategoryName(math.GT) = %q, want empty", got)
	}
}

func TestKnownCategory(t *testing.T) {
	tests := []struct {
		term string
		ok   bool
	}{
		{"astro-ph", true}, {"astro-ph.GA", true}, {"astro-ph.CO", true}, {"gr-qc", true},
		{"physics.space-ph", true}, {"cond-mat.stat-mech", true}, {"q-bio.PE", true}, {"cs.LG", true},
		{"astro-ph.XX", false}, {"astro-ph.ga", false}, {"astro-ph.GAL", false}, {"foo-ph", false},
		{"physics.space", false}, {"", false}, {"astro-ph.GA astro-ph.CO", false},
	}
	for _, tt := range tests {
		if got := KnownCategory(tt.term); got != tt.ok {
			t.Errorf("KnownCategory(%q) = %v, want %v", tt.term, got, tt.ok)
		}
	}
	for _, c := range KnownCategories() {
		if !ValidCategory(c) {
			t.Errorf("taxonomy entry %q does not have a category's shape", c)
		}
	}
	for _, c := range AstroCategories() {
		if !KnownCategory(c) {
			t.Errorf("astro category %q is not in the taxonomy", c)
		}
	}
	if got := SuggestCategory("astro-ph.ga"); got != "astro-ph.GA" {
		t.Errorf("SuggestCategory(astro-ph.ga) = %q", got)
	}
	if got := SuggestCategory("astro-ph.XX"); got != "" {
		t.Errorf("SuggestCategory(astro-ph.XX) = %q, want none", got)
	}
}
