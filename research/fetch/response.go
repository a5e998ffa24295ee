package fetch

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// Response is a completed response. Any status code is a Response, not an
// error: callers inspect Status.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header holds the response headers.
	Header http.Header
	// Body is the whole body, at most the call's byte cap. Nil from Stream.
	Body []byte
	// Size is the number of body bytes read (after transport decompression).
	Size int64
	// URL is the final URL, after redirects.
	URL *url.URL
	// Cached reports whether the response came from the cache.
	Cached bool
}

// ContentType returns the lower-cased media type of the Content-Type header
// without parameters, or "" when it is missing or unparsable.
func (r *Response) ContentType() string {
	return mediaType(r.Header)
}

// clone returns a deep copy, so callers cannot alter cached or shared data.
func (r *Response) clone() *Response {
	c := *r
	c.Header = r.Header.Clone()
	if r.Body != nil {
		c.Body = append([]byte(nil), r.Body...)
	}
	if r.URL != nil {
		u := *r.URL
		c.URL = &u
	}
	return &c
}

// ExpectType returns nil when resp's media type matches one of types, and
// otherwise an error wrapping ErrUnexpectedType. Types are compared case-
// insensitively without parameters; "text/*" matches any text type. A
// missing Content-Type matches nothing.
func ExpectType(resp *Response, types ...string) error {
	return expectType(resp.Header, types)
}

func expectType(h http.Header, types []string) error {
	got := mediaType(h)
	if got != "" {
		for _, t := range types {
			t = strings.ToLower(strings.TrimSpace(t))
			if t == got || strings.HasSuffix(t, "/*") && strings.HasPrefix(got, strings.TrimSuffix(t, "*")) {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: got %q, want one of %q", ErrUnexpectedType, got, types)
}

func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}
