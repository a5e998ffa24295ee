package sesame

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Getter fetches a URL (the guarded client in production). It returns the
// HTTP status and body; transport failures are errors.
type Getter interface {
	Get(ctx context.Context, url string) (status int, body []byte, err error)
}

// Cache lifetimes: objects do not move; a "not found" may become found when
// the databases are updated, so it is kept for less time.
const (
	foundTTL    = 24 * time.Hour
	notFoundTTL = time.Hour
	cacheMax    = 10_000
	maxNameLen  = 200
)

// Client resolves names through Sesame, trying each base URL in turn (the
// primary, then mirrors) and caching answers. Safe for concurrent use.
type Client struct {
	get   Getter
	bases []string
	now   func() time.Time

	mu    sync.Mutex
	cache map[string]cacheEntry
}

type cacheEntry struct {
	obj     Object
	err     error // nil or ErrNotFound
	expires time.Time
}

// New returns a client using get for HTTP and the given base URLs (e.g.
// https://cds.unistra.fr/cgi-bin/nph-sesame), tried in order.
func New(get Getter, now func() time.Time, bases ...string) *Client {
	if now == nil {
		now = time.Now
	}
	var clean []string
	for _, b := range bases {
		if b = strings.TrimRight(b, "/"); b != "" {
			clean = append(clean, b)
		}
	}
	return &Client{get: get, bases: clean, now: now, cache: map[string]cacheEntry{}}
}

// ErrUnavailable means no Sesame server answered usefully.
//
//lint:ignore ST1005 Sesame is a proper name, and the message is shown as is.
var ErrUnavailable = errors.New("Sesame is unavailable")

// Resolve returns the object called name. It returns ErrNotFound when
// Sesame knows no such object, ErrUnavailable (wrapping the last failure)
// when every server failed, and an error for an unusable name.
func (c *Client) Resolve(ctx context.Context, name string) (Object, error) {
	name = squeeze(name)
	switch {
	case name == "":
		return Object{}, errors.New("sesame: the name is empty")
	case utf8.RuneCountInString(name) > maxNameLen || strings.ContainsAny(name, "\x00\r\n"):
		return Object{}, errors.New("sesame: the name is too long or contains control characters")
	}
	key := strings.ToLower(name)
	if e, ok := c.cached(key); ok {
		o := e.obj
		o.Query = name
		return o, e.err
	}
	var last error
	for _, base := range c.bases {
		obj, err := c.ask(ctx, base, name)
		switch {
		case err == nil:
			c.store(key, cacheEntry{obj: obj, expires: c.now().Add(foundTTL)})
			return obj, nil
		case errors.Is(err, ErrNotFound):
			c.store(key, cacheEntry{err: ErrNotFound, expires: c.now().Add(notFoundTTL)})
			return Object{}, fmt.Errorf("sesame: %q: %w", name, ErrNotFound)
		case ctx.Err() != nil:
			return Object{}, ctx.Err()
		}
		last = err
	}
	return Object{}, fmt.Errorf("%w: %v", ErrUnavailable, last)
}

// ask queries one server: XML output (x), aliases (I), and every one of
// SIMBAD, NED and VizieR (~SNV: all answer, not only the first that knows
// the name), so Parse can merge their data.
func (c *Client) ask(ctx context.Context, base, name string) (Object, error) {
	u := base + "/-oxI/~SNV?" + url.QueryEscape(name)
	status, body, err := c.get.Get(ctx, u)
	if err != nil {
		return Object{}, fmt.Errorf("sesame %s: %w", base, err)
	}
	if status != http.StatusOK {
		return Object{}, fmt.Errorf("sesame %s: HTTP %d", base, status)
	}
	return Parse(name, body)
}

func (c *Client) cached(key string) (cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cache[key]
	if !ok || !c.now().Before(e.expires) {
		return cacheEntry{}, false
	}
	return e, true
}

func (c *Client) store(key string, e cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.cache) >= cacheMax {
		c.cache = map[string]cacheEntry{}
	}
	c.cache[key] = e
}
