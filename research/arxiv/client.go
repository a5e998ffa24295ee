package arxiv

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// Getter is what Client needs from research/fetch; *fetch.Client
// implements it. Implementations must be safe for concurrent use.
type Getter interface {
	Get(ctx context.Context, url string, opts ...fetch.Option) (*fetch.Response, error)
}

// Request settings. The timeout includes waiting for the per-host rate limit
// (one request every 3 s to export.arxiv.org), so it leaves room for a queue.
const (
	cacheTTL       = 5 * time.Minute
	maxBodyBytes   = 10 << 20
	requestTimeout = 45 * time.Second
	// BatchSize is how many identifiers Get puts in one id_list request.
	BatchSize = 100
)

// Client queries the arXiv API. Create it with New; it is safe for
// concurrent use and holds no state besides its configuration (caching and
// rate limiting live in the Getter).
type Client struct {
	base string
	get  Getter
	now  func() time.Time
}

// New returns a client for the API endpoint base (ARXIV_API_URL, e.g.
// https://export.arxiv.org/api/query; DefaultAPIURL when empty) using get,
// which must not be nil, for HTTP. A malformed base makes every call fail.
func New(base string, get Getter) *Client {
	base = strings.TrimSpace(base)
	if base == "" {
		base = DefaultAPIURL
	}
	return &Client{base: base, get: get, now: time.Now}
}

// Search runs q and returns one page of results. An empty page is a Result
// with no entries. Errors: invalid queries (ErrEmptyQuery, a bad category,
// sort or negative Start), and the failure modes described in the package
// documentation (*StatusError, *APIError, ErrNotAtom, fetch errors).
func (c *Client) Search(ctx context.Context, q Query) (Result, error) {
	params, err := q.params()
	if err != nil {
		return Result{}, fmt.Errorf("arxiv: search: %w", err)
	}
	res, err := c.query(ctx, params)
	if err != nil {
		return Result{}, fmt.Errorf("arxiv: search: %w", err)
	}
	return res, nil
}

// Get returns the entries for ids, fetched with id_list in batches of
// BatchSize, in the order of ids (duplicates asked once, answered once). An
// unversioned id yields the latest version; a versioned one that version.
// Papers arXiv does not have are left out, not errors: compare lengths, or
// use Lookup for one paper. No ids means no request and no entries. An id
// that ParseID would not produce is an error wrapping ErrInvalidID. When a
// batch fails, Get returns the error and no entries.
func (c *Client) Get(ctx context.Context, ids ...ID) ([]Entry, error) {
	want, err := uniqueIDs(ids)
	if err != nil {
		return nil, fmt.Errorf("arxiv: get: %w", err)
	}
	var got []Entry
	for start := 0; start < len(want); start += BatchSize {
		batch := want[start:min(start+BatchSize, len(want))]
		res, err := c.query(ctx, idListParams(batch))
		if err != nil {
			return nil, fmt.Errorf("arxiv: get %d ids from %s: %w", len(batch), batch[0], err)
		}
		got = append(got, match(batch, res.Entries)...)
	}
	return got, nil
}

// Lookup returns the entry for id, or an error wrapping ErrNotFound when
// arXiv has no such paper (or no such version).
func (c *Client) Lookup(ctx context.Context, id ID) (Entry, error) {
	es, err := c.Get(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	if len(es) == 0 {
		return Entry{}, fmt.Errorf("arxiv: lookup %s: %w", id, ErrNotFound)
	}
	return es[0], nil
}

// uniqueIDs checks ids and drops repeats, keeping the first occurrence.
func uniqueIDs(ids []ID) ([]ID, error) {
	seen := make(map[ID]bool, len(ids))
	out := make([]ID, 0, len(ids))
	for _, id := range ids {
		if !id.valid() {
			return nil, fmt.Errorf("%w %s", ErrInvalidID, quoteInput(id.String()))
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// idListParams asks for exactly the batch: without max_results the API
// would stop at 10.
func idListParams(batch []ID) url.Values {
	s := make([]string, len(batch))
	for i, id := range batch {
		s[i] = id.String()
	}
	return url.Values{
		"id_list":     {strings.Join(s, ",")},
		"start":       {"0"},
		"max_results": {strconv.Itoa(len(batch))},
	}
}

// match returns, for each wanted id in order, the entry answering it: the
// same version, or any version for an unversioned id. The API's order is not
// the request's, and it may repeat or omit entries.
func match(want []ID, entries []Entry) []Entry {
	byID := make(map[ID]Entry, len(entries))
	byBase := make(map[string]Entry, len(entries))
	for _, e := range entries {
		byID[e.ID] = e
		if prev, ok := byBase[e.ID.Base]; !ok || e.ID.Version > prev.ID.Version {
			byBase[e.ID.Base] = e
		}
	}
	var out []Entry
	for _, id := range want {
		e, ok := byID[id]
		if id.Version == 0 {
			e, ok = byBase[id.Base]
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}

// query sends one API request with params and parses the answer.
func (c *Client) query(ctx context.Context, params url.Values) (Result, error) {
	u, err := url.Parse(c.base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Result{}, fmt.Errorf("API base URL %s is not an absolute http(s) URL", quoteInput(c.base))
	}
	if c.get == nil {
		return Result{}, errors.New("no HTTP client configured")
	}
	u.RawQuery = params.Encode()
	resp, err := c.get.Get(ctx, u.String(),
		fetch.WithCache(cacheTTL), fetch.WithMaxBytes(maxBodyBytes), fetch.WithTimeout(requestTimeout))
	if err != nil {
		return Result{}, err
	}
	if resp.Status != http.StatusOK {
		return Result{}, c.statusError(resp)
	}
	return parseFeed(resp.Body)
}

// statusError describes a non-200 response, with the API's own message when
// the body is an error feed and the Retry-After delay when given.
func (c *Client) statusError(resp *fetch.Response) error {
	se := &StatusError{Status: resp.Status}
	if resp.Header != nil {
		se.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), c.now())
	}
	var apiErr *APIError
	if _, err := parseFeed(resp.Body); errors.As(err, &apiErr) {
		se.API = apiErr
	}
	return se
}
