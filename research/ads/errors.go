package ads

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors; test with errors.Is. Errors from this package are
// prefixed "ads: <operation>" by the wrapping error, so these messages are
// written to be read after that prefix.
var (
	// ErrNoToken: no ADS token is configured; no request was made.
	ErrNoToken = errors.New("no ADS API token: set ADS_API_TOKEN (get one at https://ui.adsabs.harvard.edu/user/settings/token)")
	// ErrUnauthorized: ADS answered 401 or 403.
	ErrUnauthorized = errors.New("ADS rejected the token; check ADS_API_TOKEN")
	// ErrRateLimited: ADS answered 429; the error is a *RateLimitError.
	ErrRateLimited = errors.New("ADS rate limit exceeded")
	// ErrNotFound: ADS has no record for the identifier(s).
	ErrNotFound = errors.New("not found in ADS")
	// ErrBadQuery: ADS refused the query (HTTP 400), or this package refused
	// it before sending (empty query, bad sort, negative start).
	ErrBadQuery = errors.New("ADS refused the query")
	// ErrServer: ADS answered with a 5xx status.
	ErrServer = errors.New("ADS server error")
	// ErrUnexpectedStatus: any other non-2xx status.
	ErrUnexpectedStatus = errors.New("unexpected ADS response status")
	// ErrMalformedResponse: a 2xx response whose body is not the expected JSON.
	ErrMalformedResponse = errors.New("malformed ADS response")
)

// StatusError is a non-2xx ADS answer other than 429. It unwraps to the
// sentinel for its class: ErrUnauthorized, ErrNotFound, ErrBadQuery,
// ErrServer or ErrUnexpectedStatus.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// Message is ADS's own explanation from the body, if any (shortened).
	Message string
	kind    error
}

// Error implements error.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("%v (HTTP %d)", e.kind, e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the sentinel for the status class.
func (e *StatusError) Unwrap() error { return e.kind }

// RateLimitError is ADS's 429 answer. ADS enforces a daily quota per
// endpoint and token (the size is in X-RateLimit-Limit); Reset is when it
// refills, so retrying sooner is pointless. It unwraps to ErrRateLimited.
type RateLimitError struct {
	// Limit and Remaining come from X-RateLimit-Limit / -Remaining (-1 when absent).
	Limit, Remaining int
	// Reset is from X-RateLimit-Reset (Unix seconds); zero when absent.
	Reset time.Time
	// RetryAfter is from Retry-After (seconds or an HTTP date); zero when absent.
	RetryAfter time.Duration
	// Message is ADS's own explanation from the body, if any.
	Message string
}

// Error implements error.
func (e *RateLimitError) Error() string {
	var b strings.Builder
	b.WriteString(ErrRateLimited.Error())
	if e.Limit >= 0 {
		fmt.Fprintf(&b, " (quota %d requests)", e.Limit)
	}
	if !e.Reset.IsZero() {
		fmt.Fprintf(&b, "; quota resets at %s", e.Reset.UTC().Format(time.RFC3339))
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Unwrap returns ErrRateLimited.
func (e *RateLimitError) Unwrap() error { return ErrRateLimited }

// statusError classifies a non-2xx response; now is used for HTTP-date
// Retry-After values.
func statusError(status int, h http.Header, body []byte, now time.Time) error {
	msg := errorMessage(body)
	if status == http.StatusTooManyRequests {
		q := quotaFrom(h)
		e := &RateLimitError{Limit: q.Limit, Remaining: q.Remaining, Reset: q.Reset, Message: msg}
		e.RetryAfter = retryAfter(h.Get("Retry-After"), now)
		return e
	}
	e := &StatusError{Status: status, Message: msg, kind: ErrUnexpectedStatus}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.kind = ErrUnauthorized
	case status == http.StatusNotFound:
		e.kind = ErrNotFound
	case status == http.StatusBadRequest:
		e.kind = ErrBadQuery
	case status >= 500:
		e.kind = ErrServer
	}
	return e
}

// maxMessage bounds how much of ADS's error text is repeated to the user.
const maxMessage = 200

// errorMessage extracts ADS's explanation from an error body: {"error":
// "..."} (gateway and export service), {"error": {"msg": "..."}} (Solr),
// {"message"|"msg": "..."}; otherwise the start of a short plain-text body.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Msg     string          `json:"msg"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var s string
		var inner struct {
			Msg string `json:"msg"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(v.Error, &inner) == nil && inner.Msg != "":
			msg = inner.Msg
		case v.Message != "":
			msg = v.Message
		default:
			msg = v.Msg
		}
	} else if t := strings.TrimSpace(string(body)); !strings.HasPrefix(t, "<") {
		msg = t // HTML error pages are noise
	}
	return shorten(msg)
}

// shorten collapses whitespace and cuts s to maxMessage bytes on a rune
// boundary.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// retryAfter parses a Retry-After value (delay in seconds or HTTP date).
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}
