package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// maxBodyInMessage bounds how much of a non-JSON error body goes into Error.Message.
const maxBodyInMessage = 300

// streamError is an error object that arrived inside a 200 stream.
type streamError struct {
	Message string
	Type    string
	Code    any
}

func (e *streamError) Error() string { return "error in stream: " + e.Message }

// callError turns the failure of one attempt into what callers see: the
// caller's own cancellation stays context.Canceled (so the runtime can tell
// a user stop from a timeout), the caller's own deadline becomes a Timeout
// *Error wrapping context.DeadlineExceeded, and anything else a classified
// *Error carrying Retry-After from the response headers in x.
func (c *Client) callError(ctx context.Context, err error, x *exchange) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return contextError(ctxErr)
	}
	e := toError(err)
	if x != nil && e.Status != 0 {
		if h := x.responseHeader(); h != nil {
			e.RetryAfter = retryAfter(h, c.cfg.Now())
		}
	}
	return e
}

func contextError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Class: Timeout, Message: "deadline exceeded", Err: err}
	}
	return fmt.Errorf("llm: %w", err)
}

// toError classifies err by what go-openai (or the stream) reported.
func toError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	status, message, typeAndCode := describe(err)
	classStatus := status
	if classStatus == 0 {
		classStatus = numericCode(typeAndCode)
	}
	e = &Error{
		Class:   classify(classStatus, message+" "+typeAndCode),
		Status:  status,
		Quota:   isQuota(message, typeAndCode),
		Message: message,
		Err:     err,
	}
	if e.Class == ModelError && isNetTimeout(err) {
		e.Class = Timeout
	}
	return e
}

// describe extracts the HTTP status, the provider's message and its
// type+code from the error shapes go-openai and the stream produce.
func describe(err error) (status int, message, typeAndCode string) {
	var reqErr *openai.RequestError
	var apiErr *openai.APIError
	var inStream *streamError
	switch {
	case errors.As(err, &reqErr):
		status, message = reqErr.HTTPStatusCode, bodyText(reqErr)
	case errors.As(err, &apiErr):
		status, message, typeAndCode = apiErr.HTTPStatusCode, apiErr.Message, apiErr.Type+" "+codeText(apiErr.Code)
	case errors.As(err, &inStream):
		message, typeAndCode = inStream.Message, inStream.Type+" "+codeText(inStream.Code)
	default:
		message = err.Error()
	}
	if strings.TrimSpace(message) == "" {
		message = err.Error()
	}
	return status, message, strings.TrimSpace(typeAndCode)
}

// bodyText is the readable part of a non-JSON error response (e.g. a proxy page).
func bodyText(e *openai.RequestError) string {
	body := strings.TrimSpace(string(e.Body))
	if len(body) > maxBodyInMessage {
		body = body[:maxBodyInMessage] + "…"
	}
	if body == "" && e.Err != nil {
		return e.Err.Error()
	}
	if body == "" {
		return http.StatusText(e.HTTPStatusCode)
	}
	return body
}

func codeText(code any) string {
	if code == nil {
		return ""
	}
	return fmt.Sprint(code)
}

// numericCode returns an HTTP-like status carried as the error code of an
// in-stream error (some providers send "code": 429), or 0.
func numericCode(typeAndCode string) int {
	fields := strings.Fields(typeAndCode)
	if len(fields) == 0 {
		return 0
	}
	n, err := strconv.Atoi(fields[len(fields)-1])
	if err != nil || n < 400 || n > 599 {
		return 0
	}
	return n
}

func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// retryAfter reads how long the server asked us to wait: retry-after-ms
// (OpenAI, Azure), else Retry-After as seconds or an HTTP date. 0 when
// absent or unparsable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return secondsToDuration(ms / 1000)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		return secondsToDuration(secs)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now))
	}
	return 0
}

// secondsToDuration converts without overflow: values beyond maxRetryAfter
// (or Inf) come back just over it, which makes the retry loop give up.
func secondsToDuration(secs float64) time.Duration {
	switch {
	case math.IsNaN(secs) || secs <= 0:
		return 0
	case secs > maxRetryAfter.Seconds():
		return maxRetryAfter + time.Second
	}
	return time.Duration(secs * float64(time.Second))
}
