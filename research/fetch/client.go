package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/astroresearch/astroresearch/internal/flight"
)

// Client is the guarded outbound HTTP client. Create it with New; it is safe
// for concurrent use and should be shared, since rate limits, the cache and
// the connection pool live in it.
type Client struct {
	opt     Options // with defaults applied
	allow   allowList
	tr      *http.Transport
	hc      *http.Client
	limits  *hostLimits
	cache   *cache
	flights flight.Group[*Response]
}

// New returns a Client for opt. Allow entries that do not parse are ignored
// and so match nothing; Options.Validate reports them. Environment proxy
// settings are ignored: a proxy would dial on our behalf, past the checks.
func New(opt Options) *Client {
	opt = opt.withDefaults()
	allow, _ := parseAllow(opt.Allow) // fail closed; Validate reports
	c := &Client{
		opt:    opt,
		allow:  allow,
		limits: newHostLimits(opt),
		cache:  newCache(opt.CacheEntries, opt.CacheBytes),
	}
	c.tr = &http.Transport{
		Proxy:                  nil,
		DialContext:            guardedDialer{resolve: opt.Resolver}.DialContext,
		ForceAttemptHTTP2:      true,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    10 * time.Second,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	c.hc = &http.Client{Transport: guardedTransport{c}, CheckRedirect: c.checkRedirect}
	return c
}

// CheckURL is the package CheckURL with this Client's allow list: an allowed
// origin passes the host-range rules. Use it to reject bad user-supplied URLs
// early; the dial-time check still applies when fetching.
func (c *Client) CheckURL(raw string) error {
	u, err := parseURL(raw)
	if err == nil {
		err = checkURL(u, c.allow)
	}
	if err != nil {
		return fmt.Errorf("fetch: check URL: %w", err)
	}
	return nil
}

// Get fetches rawURL with GET and returns the whole body; see Do.
func (c *Client) Get(ctx context.Context, rawURL string, opts ...Option) (*Response, error) {
	if _, err := parseURL(rawURL); err != nil {
		return nil, fmt.Errorf("fetch: GET: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch: GET: %w: %w", ErrBadURL, err)
	}
	return c.Do(ctx, req, opts...)
}

// Do sends req (under ctx, not req's own context) and returns the response
// with its whole body, at most the byte cap. It fails with ErrTooLarge when
// Content-Length or the body exceeds the cap (without reading the rest),
// with ErrBlockedAddress, ErrBadScheme, ErrUserinfo, ErrNumericHost or
// ErrBadURL when the URL or a redirect is refused, with ErrTooManyRedirects,
// with ErrUnexpectedType under WithExpectType, and with an error wrapping
// context.DeadlineExceeded when the call's timeout passes (context.Canceled
// when ctx is cancelled). Non-2xx statuses are not errors. The User-Agent is set
// unless req has one; req itself is not modified.
func (c *Client) Do(ctx context.Context, req *http.Request, opts ...Option) (*Response, error) {
	if err := c.admit(req); err != nil {
		return nil, err
	}
	co := c.newCall(opts)
	if co.cacheTTL > 0 && req.Method == http.MethodGet && (req.Body == nil || req.Body == http.NoBody) {
		return c.doCached(ctx, req.Clone(ctx), co)
	}
	return c.exchange(ctx, req, co, readAll(co.maxBytes))
}

// Stream sends req like Do but copies the body to w instead of buffering
// it, calling progress (if not nil) after each chunk with the bytes read and
// the announced total (-1 if unknown). The byte cap and deadline apply as in
// Do; on ErrTooLarge w has received at most the cap and should be discarded.
// The returned Response has a nil Body and Size bytes written. Streams are
// never cached.
func (c *Client) Stream(ctx context.Context, req *http.Request, w io.Writer, progress func(read, total int64), opts ...Option) (*Response, error) {
	if err := c.admit(req); err != nil {
		return nil, err
	}
	co := c.newCall(opts)
	return c.exchange(ctx, req, co, streamTo(w, progress, co.maxBytes))
}

// admit applies the URL rules to a request before anything is sent.
func (c *Client) admit(req *http.Request) error {
	if req == nil || req.URL == nil {
		return fmt.Errorf("fetch: %w: nil request or URL", ErrBadURL)
	}
	if err := checkURL(req.URL, c.allow); err != nil {
		return fmt.Errorf("fetch: %s %s: %w", req.Method, redact(req.URL), err)
	}
	return nil
}

// CloseIdleConnections closes pooled connections that are not in use.
func (c *Client) CloseIdleConnections() { c.tr.CloseIdleConnections() }

func (c *Client) newCall(opts []Option) call {
	co := call{maxBytes: c.opt.MaxBytes, timeout: c.opt.Timeout}
	for _, o := range opts {
		o(&co)
	}
	return co
}

// exchange performs one call: deadline, request, pre-body checks, consume.
func (c *Client) exchange(ctx context.Context, req *http.Request, co call, consume func(*http.Response, *Response) error) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, co.timeout)
	defer cancel()
	out := req.Clone(ctx)
	if out.Header.Get("User-Agent") == "" {
		out.Header.Set("User-Agent", c.opt.UserAgent)
	}
	hr, err := c.hc.Do(out)
	if err != nil {
		return nil, c.fail(ctx, req, err)
	}
	defer hr.Body.Close() // undrained on error: the connection is dropped
	r := &Response{Status: hr.StatusCode, Header: hr.Header, URL: hr.Request.URL}
	if err := checkHead(hr, co); err != nil {
		return nil, c.fail(ctx, req, err)
	}
	if err := consume(hr, r); err != nil {
		return nil, c.fail(ctx, req, err)
	}
	return r, nil
}

// checkHead applies the checks possible before reading any body byte.
func checkHead(hr *http.Response, co call) error {
	if hr.ContentLength > co.maxBytes && hr.Request.Method != http.MethodHead {
		return fmt.Errorf("%w: Content-Length %d exceeds %d", ErrTooLarge, hr.ContentLength, co.maxBytes)
	}
	if len(co.types) > 0 && hr.StatusCode/100 == 2 {
		return expectType(hr.Header, co.types)
	}
	return nil
}

// fail wraps err with the request and, when the call's context has ended,
// with the context's error, so errors.Is(err, context.DeadlineExceeded)
// holds for every timeout whatever layer noticed it.
func (c *Client) fail(ctx context.Context, req *http.Request, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message repeats the URL, with the query
	}
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %w", cerr, err)
	}
	return fmt.Errorf("fetch: %s %s: %w", req.Method, redact(req.URL), err)
}

// checkRedirect re-applies the URL rules to every hop and bounds the hops.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("%w (more than %d)", ErrTooManyRedirects, MaxRedirects)
	}
	if err := checkURL(req.URL, c.allow); err != nil {
		return fmt.Errorf("redirect to %s: %w", redact(req.URL), err)
	}
	return nil
}

// guardedTransport checks every request the http.Client sends (first and
// redirected), waits for its host's rate limit, and marks requests to
// allowed origins so the dialer lets them reach blocked addresses.
type guardedTransport struct{ c *Client }

// RoundTrip implements http.RoundTripper.
func (t guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := checkURL(req.URL, t.c.allow); err != nil {
		closeBody(req)
		return nil, err
	}
	if err := t.c.limits.wait(req.Context(), req.URL.Hostname()); err != nil {
		closeBody(req)
		return nil, err
	}
	if t.c.allow.allows(req.URL) {
		req = req.WithContext(withAllowedDial(req.Context(), req.URL))
	}
	return t.c.tr.RoundTrip(req)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// redact renders u for error messages without userinfo, query or fragment,
// which may carry credentials.
func redact(u *url.URL) string {
	if u == nil {
		return "<nil URL>"
	}
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return r.String()
}
