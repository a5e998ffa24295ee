package arxiv

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// submittedLayout is the API's date format in submittedDate ranges
// (YYYYMMDDHHMM, GMT).
const submittedLayout = "200601021504"

// Paging limits for Search.
const (
	// DefaultMax is the page size when Query.Max is 0.
	DefaultMax = 10
	// MaxPerPage is the largest page Search asks for; larger Max values are
	// lowered to it.
	MaxPerPage = 100
	// maxQueryLen bounds the search_query text, far above any real query.
	maxQueryLen = 2000
)

// SortBy is the API's sortBy parameter.
type SortBy string

// Sort fields. The zero value leaves the choice to the API (relevance).
const (
	SortRelevance   SortBy = "relevance"
	SortLastUpdated SortBy = "lastUpdatedDate"
	SortSubmitted   SortBy = "submittedDate"
)

// SortOrder is the API's sortOrder parameter.
type SortOrder string

// Sort orders. The zero value leaves the choice to the API (descending).
const (
	Descending SortOrder = "descending"
	Ascending  SortOrder = "ascending"
)

// Query describes a search. The non-empty text fields are ANDed.
type Query struct {
	// Terms is free text searched in all fields: each word must match, and a
	// "double-quoted phrase" must match as a phrase.
	Terms string
	// Title is searched in titles like Terms.
	Title string
	// Author is one author name ("Kormendy", "de Jong", "Smith, J"), searched
	// as a phrase; separate several authors with ";" to require all of them.
	Author string
	// Category restricts to arXiv categories ("astro-ph.GA"); several,
	// separated by commas or spaces, mean any of them.
	Category string
	// SubmittedFrom and SubmittedTo, when both are set, restrict to papers
	// whose first version was submitted in [SubmittedFrom, SubmittedTo]
	// (a submittedDate:[… TO …] clause, minute precision, UTC).
	SubmittedFrom, SubmittedTo time.Time
	// Start is the 0-based index of the first result (paging); Max the page
	// size: 0 means DefaultMax, more than MaxPerPage means MaxPerPage.
	Start, Max int
	// SortBy and SortOrder are sent when set.
	SortBy    SortBy
	SortOrder SortOrder
}

// params returns the API parameters for q: search_query, start,
// max_results and, when set, sortBy and sortOrder. It fails with
// ErrEmptyQuery when no field has anything to search for, and on a negative
// Start, an invalid category, sort field or order, or an overlong query.
func (q Query) params() (url.Values, error) {
	sq, err := q.searchQuery()
	if err != nil {
		return nil, err
	}
	if q.Start < 0 {
		return nil, fmt.Errorf("start %d is negative", q.Start)
	}
	limit := q.Max
	switch {
	case limit <= 0:
		limit = DefaultMax
	case limit > MaxPerPage:
		limit = MaxPerPage
	}
	v := url.Values{
		"search_query": {sq},
		"start":        {strconv.Itoa(q.Start)},
		"max_results":  {strconv.Itoa(limit)},
	}
	switch q.SortBy {
	case "":
	case SortRelevance, SortLastUpdated, SortSubmitted:
		v.Set("sortBy", string(q.SortBy))
	default:
		return nil, fmt.Errorf("sort field %q is not relevance, lastUpdatedDate or submittedDate", q.SortBy)
	}
	switch q.SortOrder {
	case "":
	case Ascending, Descending:
		v.Set("sortOrder", string(q.SortOrder))
	default:
		return nil, fmt.Errorf("sort order %q is not ascending or descending", q.SortOrder)
	}
	return v, nil
}

// searchQuery builds the search_query text: all:, ti:, au: and cat: clauses
// joined with AND.
func (q Query) searchQuery() (string, error) {
	var clauses []string
	for _, t := range terms(q.Terms) {
		clauses = append(clauses, "all:"+t)
	}
	for _, t := range terms(q.Title) {
		clauses = append(clauses, "ti:"+t)
	}
	for _, name := range strings.Split(q.Author, ";") {
		if p := phrase(words(name)); p != "" {
			clauses = append(clauses, "au:"+p)
		}
	}
	cat, err := categoryClause(q.Category)
	if err != nil {
		return "", err
	}
	if cat != "" {
		clauses = append(clauses, cat)
	}
	if !q.SubmittedFrom.IsZero() && !q.SubmittedTo.IsZero() {
		if q.SubmittedTo.Before(q.SubmittedFrom) {
			return "", fmt.Errorf("submitted date range ends (%s) before it starts (%s)",
				q.SubmittedTo.UTC().Format(time.RFC3339), q.SubmittedFrom.UTC().Format(time.RFC3339))
		}
		clauses = append(clauses, "submittedDate:["+q.SubmittedFrom.UTC().Format(submittedLayout)+
			" TO "+q.SubmittedTo.UTC().Format(submittedLayout)+"]")
	}
	if len(clauses) == 0 {
		return "", ErrEmptyQuery
	}
	sq := strings.Join(clauses, " AND ")
	if len(sq) > maxQueryLen {
		return "", fmt.Errorf("query is too long (%d bytes, at most %d)", len(sq), maxQueryLen)
	}
	return sq, nil
}

// categoryClause returns "cat:X" or "(cat:X OR cat:Y)" for a comma or space
// separated list of categories.
func categoryClause(s string) (string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	var cats []string
	for _, c := range fields {
		if !ValidCategory(c) {
			return "", fmt.Errorf("category %s is not of the form archive or archive.CLASS (e.g. astro-ph.GA)", quoteInput(c))
		}
		cats = append(cats, "cat:"+c)
	}
	switch len(cats) {
	case 0:
		return "", nil
	case 1:
		return cats[0], nil
	}
	return "(" + strings.Join(cats, " OR ") + ")", nil
}

// terms splits free text into search terms: bare words, and "quoted phrases"
// rendered with their quotes. Query syntax in the input (field prefixes,
// parentheses, boolean operators, wildcards, leading -) is neutralised by
// words.
func terms(s string) []string {
	var out []string
	for i, part := range strings.Split(s, `"`) {
		ws := words(part)
		if i%2 == 1 { // inside quotes (an unclosed quote runs to the end)
			if p := phrase(ws); p != "" {
				out = append(out, p)
			}
			continue
		}
		out = append(out, ws...)
	}
	return out
}

// phrase renders words as one term: a bare word, or a quoted phrase.
func phrase(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return `"` + strings.Join(ws, " ") + `"`
}

// words splits s into words safe inside a search_query: letters, digits and
// inner hyphens, dots, underscores and apostrophes survive; every other
// character separates words; the operators AND, OR, ANDNOT and NOT are
// lower-cased so that they are searched for rather than obeyed.
func words(s string) []string {
	keep := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_' || r == '\''
	}
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !keep(r) }) {
		w = strings.Trim(w, "-._'")
		switch w {
		case "":
			continue
		case "AND", "OR", "ANDNOT", "NOT":
			w = strings.ToLower(w)
		}
		out = append(out, w)
	}
	return out
}
