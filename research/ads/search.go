package ads

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// Search paging limits.
const (
	// DefaultRows is used when Query.Rows is zero or negative.
	DefaultRows = 20
	// MaxRows is the most records one Search returns; larger Rows are
	// reduced to it.
	MaxRows = 200
	// maxQueryLen bounds Q so the request line stays well under server limits.
	maxQueryLen = 4000
)

// fieldList is the fl parameter: the fields the library stores. "aff" is
// added only on request because large collaborations have hundreds.
const fieldList = "bibcode,title,author,pub,pubdate,year,volume,page,doi,identifier," +
	"abstract,keyword,citation_count,doctype,property,esources"

// Query is one ADS search.
type Query struct {
	// Q is the ADS query, e.g. `abs:"M87" year:2019` or a builder's output
	// (ByBibcode, CitationsOf, ...). It must not be empty.
	Q string
	// Sort is ADS's sort, e.g. "citation_count desc", "date desc",
	// "score desc" or "date desc, bibcode asc"; empty means ADS's default
	// (relevance).
	Sort string
	// Rows is the page size: DefaultRows when <= 0, at most MaxRows.
	Rows int
	// Start is the offset of the first record (0-based); it must not be
	// negative.
	Start int
	// Affiliations adds author affiliations (the "aff" field) to the
	// results.
	Affiliations bool
}

// Result is one page of search results.
type Result struct {
	// NumFound is the total number of matching records.
	NumFound int
	// Start is the offset of Docs[0] within all matches.
	Start int
	// Docs are the records of this page, in ADS's order.
	Docs []Doc
}

// NextStart returns the Start of the following page and whether there is
// one.
func (r Result) NextStart() (int, bool) {
	next := r.Start + len(r.Docs)
	return next, len(r.Docs) > 0 && next < r.NumFound
}

// sortRe accepts ADS sort clauses: field and direction, comma-separated.
var sortRe = regexp.MustCompile(`^[a-z_]+ (asc|desc)(, ?[a-z_]+ (asc|desc))*$`)

// searchResponse is the Solr envelope.
type searchResponse struct {
	Response *struct {
		NumFound int      `json:"numFound"`
		Start    int      `json:"start"`
		Docs     []rawDoc `json:"docs"`
	} `json:"response"`
}

// Search runs q against /search/query. Answers are cached for 10 minutes
// (per query and token) in the fetch client. It fails with ErrNoToken,
// ErrBadQuery (empty or over-long Q, malformed Sort, negative Start — no
// request made — or ADS's 400), ErrUnauthorized, *RateLimitError, ErrServer,
// ErrMalformedResponse, or a transport error (timeouts wrap
// context.DeadlineExceeded).
func (c *Client) Search(ctx context.Context, q Query) (Result, error) {
	res, err := c.search(ctx, q)
	if err != nil {
		return Result{}, fmt.Errorf("ads: search %q: %w", shorten(q.Q), err)
	}
	return res, nil
}

// search is Search with errors not yet prefixed, for callers that add
// their own context.
func (c *Client) search(ctx context.Context, q Query) (Result, error) {
	if c.token == "" {
		return Result{}, ErrNoToken
	}
	params, err := q.values()
	if err != nil {
		return Result{}, err
	}
	var sr searchResponse
	err = c.call(ctx, "/search/query", params.Encode(), nil, &sr,
		fetch.WithCache(searchCacheTTL), fetch.WithMaxBytes(searchMaxBytes))
	if err != nil {
		return Result{}, err
	}
	if sr.Response == nil {
		return Result{}, fmt.Errorf("%w: no \"response\" object", ErrMalformedResponse)
	}
	res := Result{NumFound: sr.Response.NumFound, Start: sr.Response.Start, Docs: make([]Doc, 0, len(sr.Response.Docs))}
	for _, d := range sr.Response.Docs {
		res.Docs = append(res.Docs, d.doc())
	}
	return res, nil
}

// values validates q and returns the request parameters.
func (q Query) values() (url.Values, error) {
	text := strings.TrimSpace(q.Q)
	switch {
	case text == "":
		return nil, fmt.Errorf("%w: the query is empty", ErrBadQuery)
	case len(text) > maxQueryLen:
		return nil, fmt.Errorf("%w: the query is longer than %d bytes", ErrBadQuery, maxQueryLen)
	case q.Sort != "" && !sortRe.MatchString(q.Sort):
		return nil, fmt.Errorf("%w: sort %q is not like \"citation_count desc\"", ErrBadQuery, q.Sort)
	case q.Start < 0:
		return nil, fmt.Errorf("%w: negative start %d", ErrBadQuery, q.Start)
	}
	rows := q.Rows
	if rows <= 0 {
		rows = DefaultRows
	}
	rows = min(rows, MaxRows)
	fl := fieldList
	if q.Affiliations {
		fl += ",aff"
	}
	v := url.Values{"q": {text}, "fl": {fl}, "rows": {strconv.Itoa(rows)}, "start": {strconv.Itoa(q.Start)}}
	if q.Sort != "" {
		v.Set("sort", q.Sort)
	}
	return v, nil
}
