package fetch

import (
	"context"
	"net"
	"net/netip"
	"time"

	"golang.org/x/time/rate"
)

// Defaults applied by New to zero-valued Options fields.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxBytes     = 50 << 20 // 50 MiB
	DefaultRate         = rate.Limit(2)
	DefaultCacheEntries = 256
	DefaultCacheBytes   = 32 << 20 // 32 MiB
	// MaxRedirects is how many redirects one call may follow; the next one
	// fails with ErrTooManyRedirects.
	MaxRedirects = 5
)

// Options configures a Client. The zero value is usable: every zero field
// gets the documented default.
type Options struct {
	// UserAgent is sent when a request has no User-Agent of its own.
	// Empty means "AstroResearch/<Version> (+self-hosted research assistant)".
	UserAgent string
	// Version goes into the default User-Agent; empty means "dev".
	Version string

	// Timeout bounds one call from start to the last body byte: rate-limit
	// wait, dial, TLS, redirects and reading the body. Default 30 s; override
	// per call with WithTimeout (large PDF downloads need more).
	Timeout time.Duration
	// MaxBytes caps each response body; default 50 MiB. Override per call
	// with WithMaxBytes.
	MaxBytes int64

	// Allow lists base URLs ("http://127.0.0.1:8081", "https://api.example/v1")
	// whose exact scheme, host and port may be reached even when the host is,
	// or resolves to, a blocked address. Paths are ignored; a missing port
	// means the scheme's default. It exists for configured API endpoints and
	// the local fakes tests point them at — nothing else on loopback or a
	// private network is reachable. Entries that do not parse match nothing
	// (fail closed); call Validate to report them.
	Allow []string

	// PerHost sets the request rate per host name (no port, lower case), e.g.
	// "export.arxiv.org": rate.Every(3*time.Second). Nil means
	// DefaultPerHost(); a value <= 0 means DefaultRate for that host.
	PerHost map[string]rate.Limit
	// DefaultRate applies to hosts not in PerHost: 0 means 2 per second,
	// rate.Inf means unlimited (what tests against fakes usually want).
	DefaultRate rate.Limit
	// Burst is how many requests to one host may go at once before the rate
	// applies; default 1.
	Burst int

	// CacheEntries and CacheBytes bound the response cache used by calls
	// with WithCache; defaults 256 entries and 32 MiB.
	CacheEntries int
	CacheBytes   int64

	// Now is the clock for rate limits and cache expiry; default time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx is done (then returning ctx.Err()); it is
	// how rate-limit waits happen. Default uses a timer. Tests inject a fake
	// that advances their fake clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// Resolver returns the addresses of host name host; every one of them is
	// checked before any is dialled. Default net.DefaultResolver.LookupNetIP.
	Resolver func(ctx context.Context, host string) ([]netip.Addr, error)
}

// DefaultPerHost returns a fresh map with the request rates the scholarly
// APIs ask for: ADS 5 per second, arXiv's API one request every 3 seconds.
func DefaultPerHost() map[string]rate.Limit {
	return map[string]rate.Limit{
		"api.adsabs.harvard.edu": 5,
		"export.arxiv.org":       rate.Every(3 * time.Second),
	}
}

// Validate reports configuration errors New would otherwise absorb: Allow
// entries that are not absolute http(s) URLs with a host and no userinfo.
func (o Options) Validate() error {
	_, err := parseAllow(o.Allow)
	return err
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.UserAgent == "" {
		o.UserAgent = "AstroResearch/" + o.Version + " (+self-hosted research assistant)"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.PerHost == nil {
		o.PerHost = DefaultPerHost()
	}
	if o.DefaultRate <= 0 {
		o.DefaultRate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = 1
	}
	if o.CacheEntries <= 0 {
		o.CacheEntries = DefaultCacheEntries
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Resolver == nil {
		o.Resolver = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	return o
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Option adjusts one call to Get, Do or Stream.
type Option func(*call)

// call holds the per-call settings, starting from the Client's defaults.
type call struct {
	maxBytes int64
	timeout  time.Duration
	cacheTTL time.Duration
	types    []string
}

// WithMaxBytes sets the byte cap for this call; n <= 0 keeps the default.
func WithMaxBytes(n int64) Option {
	return func(c *call) {
		if n > 0 {
			c.maxBytes = n
		}
	}
}

// WithTimeout sets the overall deadline for this call; d <= 0 keeps the
// default. A deadline already on the context still applies.
func WithTimeout(d time.Duration) Option {
	return func(c *call) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithCache lets a body-less GET be answered from, and its 200 response be
// stored in, the Client's in-memory cache for ttl. Concurrent identical
// cached calls share one request. Only use it where the API's terms allow
// caching. ttl <= 0 disables caching for the call.
func WithCache(ttl time.Duration) Option {
	return func(c *call) { c.cacheTTL = ttl }
}

// WithExpectType makes the call fail with ErrUnexpectedType, before reading
// the body, unless the response's media type matches one of types (see
// ExpectType). It applies to 2xx responses only: an error page comes back
// as a Response for the caller to judge by its status.
func WithExpectType(types ...string) Option {
	return func(c *call) { c.types = append(c.types[:len(c.types):len(c.types)], types...) }
}
