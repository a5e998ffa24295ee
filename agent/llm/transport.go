package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// go-openai builds request bodies from its own structs (no way to add a
// top-level field such as enable_thinking to a chat request) and hides HTTP
// response headers on errors (no way to read Retry-After) and the stream's
// [DONE] marker (a clean EOF and [DONE] both surface as io.EOF). The
// transport below closes those gaps: each call puts an *exchange in its
// request context, and the transport reads it to rewrite the body and fills
// it with what it sees in the response.

type exchangeKey struct{}

// exchange is the per-attempt channel between a call and the transport.
type exchange struct {
	// thinking, when non-nil, is injected as top-level "enable_thinking"
	// into chat completion request bodies. Set before the request starts.
	thinking *bool

	mu     sync.Mutex
	status int
	header http.Header
	done   bool // a `data: [DONE]` line came through the response body
}

func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

func exchangeFrom(ctx context.Context) *exchange {
	x, _ := ctx.Value(exchangeKey{}).(*exchange)
	return x
}

func (x *exchange) setResponse(status int, header http.Header) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.status, x.header = status, header.Clone()
}

// responseHeader returns the headers of the last response (nil if none).
func (x *exchange) responseHeader() http.Header {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.header
}

func (x *exchange) markDone() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.done = true
}

func (x *exchange) sawDone() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.done
}

// transport wraps the configured RoundTripper; see the comment above.
type transport struct {
	base http.RoundTripper
}

// wrapHTTPClient returns a shallow copy of hc whose transport is wrapped,
// leaving the caller's client untouched.
func wrapHTTPClient(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &transport{base: base}
	return &c
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	x := exchangeFrom(req.Context())
	if x == nil {
		return t.base.RoundTrip(req)
	}
	chat := isChatCompletion(req)
	if x.thinking != nil && chat {
		rewritten, err := withTopLevelField(req, "enable_thinking", strconv.FormatBool(*x.thinking))
		if err != nil {
			return nil, err
		}
		req = rewritten
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	x.setResponse(resp.StatusCode, resp.Header)
	if chat {
		// Not only text/event-stream: some servers stream with another
		// content type, and a JSON body never has a `data: [DONE]` line.
		resp.Body = &doneWatcher{ReadCloser: resp.Body, x: x}
	}
	return resp, nil
}

func isChatCompletion(req *http.Request) bool {
	return req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/chat/completions")
}

// withTopLevelField returns a clone of req whose JSON object body has
// field set to the raw JSON value. It consumes and closes req.Body.
func withTopLevelField(req *http.Request, field, value string) (*http.Request, error) {
	if req.Body == nil {
		return req, nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("llm: read request body: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, fmt.Errorf("llm: request body is not a JSON object: %w", err)
	}
	fields[field] = json.RawMessage(value)
	body, err = json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("llm: encode request body: %w", err)
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return out, nil
}

// doneWatcher marks the exchange when a `data: [DONE]` line passes through.
// Only the first bytes of each line are kept: longer lines cannot be [DONE].
type doneWatcher struct {
	io.ReadCloser
	x        *exchange
	line     []byte
	overflow bool
}

const maxWatchedLine = 32

func (w *doneWatcher) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			w.endLine()
			continue
		}
		if len(w.line) < maxWatchedLine {
			w.line = append(w.line, c)
		} else {
			w.overflow = true
		}
	}
	if err == io.EOF {
		w.endLine()
	}
	return n, err
}

func (w *doneWatcher) endLine() {
	if !w.overflow {
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(w.line), []byte("data:")); ok &&
			string(bytes.TrimSpace(data)) == "[DONE]" {
			w.x.markDone()
		}
	}
	w.line, w.overflow = w.line[:0], false
}
