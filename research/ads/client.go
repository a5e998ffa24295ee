package ads

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// Default endpoints.
const (
	// DefaultBaseURL is the ADS API root (config ADS_API_URL).
	DefaultBaseURL = "https://api.adsabs.harvard.edu/v1"
	// DefaultGatewayURL is the ADS user-interface host that serves the
	// link gateway; it is not under the API root.
	DefaultGatewayURL = "https://ui.adsabs.harvard.edu"
)

// Doer is what the client needs from the HTTP layer: the Do method of the
// guarded *fetch.Client, which production code passes in.
type Doer interface {
	Do(ctx context.Context, req *http.Request, opts ...fetch.Option) (*fetch.Response, error)
}

// Client talks to the ADS API. Create it with New; it is safe for
// concurrent use. Requests are rate limited per host by the fetch client
// (ADS: 5 per second by default) and answers are cached there (search) or
// here (BibTeX export) because ADS counts every call against a daily quota.
type Client struct {
	base    string // API root without trailing slash
	gateway string // UI root without trailing slash
	token   string
	http    Doer
	now     func() time.Time

	exports *exportCache

	mu     sync.Mutex
	quotas map[string]Quota
}

// Option configures a Client.
type Option func(*Client)

// WithGatewayURL sets the host serving the link gateway (default
// DefaultGatewayURL); empty keeps the default.
func WithGatewayURL(u string) Option {
	return func(c *Client) {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			c.gateway = u
		}
	}
}

// WithClock sets the clock used for cache expiry and Retry-After dates
// (default time.Now); tests use it to make expiry deterministic.
func WithClock(now func() time.Time) Option {
	return func(c *Client) {
		if now != nil {
			c.now = now
		}
	}
}

// New returns a client for the ADS API at base (DefaultBaseURL when empty)
// authenticating with token, sending requests through doer (normally the
// shared *fetch.Client, whose Allow list must include base when it is a
// local address). With an empty token every API call fails with ErrNoToken
// without a request; link-gateway URLs still work. doer must not be nil.
func New(base, token string, doer Doer, opts ...Option) *Client {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		base = DefaultBaseURL
	}
	c := &Client{
		base:    base,
		gateway: DefaultGatewayURL,
		token:   strings.TrimSpace(token),
		http:    doer,
		now:     time.Now,
		exports: newExportCache(),
		quotas:  map[string]Quota{},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// HasToken reports whether a token is configured, so callers can choose a
// fallback (local BibTeX, arXiv-only search) without making a call.
func (c *Client) HasToken() bool { return c.token != "" }

// Per-call limits. ADS answers are small; the caps only stop a runaway body.
const (
	searchMaxBytes = 16 << 20
	exportMaxBytes = 32 << 20
	searchCacheTTL = 10 * time.Minute
	exportCacheTTL = 24 * time.Hour
	// exportTimeout allows for ADS formatting 2000 records.
	exportTimeout = 2 * time.Minute
)

// call sends one authenticated request to endpoint (a path under the API
// root, with query string if any) and decodes a 2xx JSON answer into out.
// body, when not nil, is sent as JSON with POST. Non-2xx answers become
// *StatusError or *RateLimitError; transport errors (including timeouts,
// which wrap context.DeadlineExceeded) are returned wrapped.
func (c *Client) call(ctx context.Context, endpoint, query string, body any, out any, opts ...fetch.Option) error {
	if c.token == "" {
		return ErrNoToken
	}
	req, err := c.newRequest(ctx, endpoint, query, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(ctx, req, opts...)
	if err != nil {
		return err
	}
	if !resp.Cached {
		c.noteQuota(endpoint, resp.Header)
	}
	if resp.Status/100 != 2 {
		return statusError(resp.Status, resp.Header, resp.Body, c.now())
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("%w: %s body of %d bytes: %w", ErrMalformedResponse, contentType(resp), len(resp.Body), err)
	}
	return nil
}

// newRequest builds the request with the Authorization header.
func (c *Client) newRequest(ctx context.Context, endpoint, query string, body any) (*http.Request, error) {
	u := c.base + endpoint
	if query != "" {
		u += "?" + query
	}
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
		method, rd = http.MethodPost, bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

func contentType(r *fetch.Response) string {
	if ct := r.ContentType(); ct != "" {
		return ct
	}
	return "untyped"
}
