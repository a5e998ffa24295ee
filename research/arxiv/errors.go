package arxiv

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors; use errors.Is.
var (
	// ErrNotAtom: the body is not an Atom feed, e.g. a proxy's HTML error
	// page or the plain-text "Rate exceeded." of a throttled request.
	ErrNotAtom = errors.New("response is not an Atom feed")
	// ErrNotFound: arXiv has no paper with the identifier (Lookup).
	ErrNotFound = errors.New("no such arXiv paper")
	// ErrEmptyQuery: the query has nothing to search for once sanitised.
	ErrEmptyQuery = errors.New("empty query")
)

// APIError is an error the arXiv API reported in its own way: a feed with
// one entry whose id is http://arxiv.org/api/errors#... and whose summary
// says what was wrong ("incorrect id format for 1234.12345").
type APIError struct {
	// Message is the entry's summary (its title when the summary is empty).
	Message string
	// Code is the fragment of the error id, e.g. "incorrect_id_format_for_1234.12345".
	Code string
}

// Error implements error.
func (e *APIError) Error() string { return "arXiv API error: " + e.Message }

// StatusError is a response with a status other than 200.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// RetryAfter is how long the server asked us to wait (Retry-After on a
	// 503 or 429), 0 when it did not say.
	RetryAfter time.Duration
	// API is the error the body reported as an arXiv error feed, if any.
	API *APIError
}

// Error implements error. It names the status and, for 503 and 429, when to
// retry.
func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.API != nil {
		b.WriteString(": " + e.API.Message)
	}
	if e.Status == http.StatusServiceUnavailable || e.Status == http.StatusTooManyRequests {
		if e.RetryAfter > 0 {
			fmt.Fprintf(&b, " (arXiv is busy; retry after %s)", e.RetryAfter)
		} else {
			b.WriteString(" (arXiv is busy; retry later)")
		}
	}
	return b.String()
}

// Unwrap returns the API error reported in the body, if any.
func (e *StatusError) Unwrap() error {
	if e.API == nil {
		return nil
	}
	return e.API
}

// retryAfter parses a Retry-After value, delay-seconds or an HTTP date
// (relative to now), into a non-negative duration; 0 when absent or bad.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 || n > 7*24*3600 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil || !t.After(now) {
		return 0
	}
	return t.Sub(now).Round(time.Second)
}
