package ads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// testToken is the token the fake ADS accepts.
const testToken = "s3cret-token"

// wantFL is the fl parameter every search must send, spelled out here so a
// change to the field list is a deliberate test change.
const wantFL = "bibcode,title,author,pub,pubdate,year,volume,page,doi,identifier," +
	"abstract,keyword,citation_count,doctype,property,esources"

// reply is what the fake answers to one expected request.
type reply struct {
	status int               // default 200
	file   string            // body from testdata/
	body   string            // literal body when file is empty
	header map[string]string // extra headers
	ctype  string            // Content-Type; default application/json
	block  bool              // never answer: wait until the client gives up
}

// fakeADS is an httptest ADS. It answers only the requests it was told to
// expect, keyed by searchKey or exportKey, so every test pins the exact
// method, path and parameters or body; anything else fails the test. A
// request without "Authorization: Bearer testToken" gets ADS's 401.
type fakeADS struct {
	t      *testing.T
	srv    *httptest.Server
	stop   chan struct{}
	routes map[string]reply

	mu   sync.Mutex
	hits map[string]int
	all  int
}

func newFake(t *testing.T, routes map[string]reply) *fakeADS {
	t.Helper()
	f := &fakeADS{t: t, routes: routes, hits: map[string]int{}, stop: make(chan struct{})}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	t.Cleanup(func() { close(f.stop) }) // runs first: frees blocked handlers
	return f
}

func (f *fakeADS) serve(w http.ResponseWriter, r *http.Request) {
	key, err := requestKey(r)
	f.mu.Lock()
	f.all++
	f.hits[key]++
	f.mu.Unlock()
	if err != nil {
		f.t.Errorf("fake ADS: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testToken {
		f.write(w, reply{status: http.StatusUnauthorized, file: "unauthorized.json"})
		return
	}
	rep, ok := f.routes[key]
	if !ok {
		f.t.Errorf("fake ADS: unexpected request %s", shorten(key))
		http.Error(w, `{"error": "unexpected request"}`, http.StatusBadRequest)
		return
	}
	if rep.block {
		select {
		case <-r.Context().Done():
		case <-f.stop:
		}
		return
	}
	f.write(w, rep)
}

func (f *fakeADS) write(w http.ResponseWriter, rep reply) {
	body := []byte(rep.body)
	if rep.file != "" {
		b, err := os.ReadFile("testdata/" + rep.file)
		if err != nil {
			f.t.Errorf("fake ADS: %v", err)
		}
		body = b
	}
	ct := rep.ctype
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status != 0 {
		w.WriteHeader(rep.status)
	}
	w.Write(body)
}

// requestKey identifies a request: method, path, sorted query parameters,
// and for POSTs the compacted JSON body (after checking its Content-Type).
func requestKey(r *http.Request) (string, error) {
	key := r.Method + " " + r.URL.Path
	if q := r.URL.Query(); len(q) > 0 {
		key += "?" + q.Encode()
	}
	if r.Method != http.MethodPost {
		return key, nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return key, fmt.Errorf("POST with Content-Type %q", ct)
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return key, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return key, fmt.Errorf("POST body is not JSON: %w", err)
	}
	return key + " " + buf.String(), nil
}

// searchKey is the key of GET /v1/search/query with these parameters (sort
// omitted when empty).
func searchKey(q, fl, sort string, rows, start int) string {
	v := url.Values{"q": {q}, "fl": {fl}, "rows": {strconv.Itoa(rows)}, "start": {strconv.Itoa(start)}}
	if sort != "" {
		v.Set("sort", sort)
	}
	return "GET /v1/search/query?" + v.Encode()
}

// exportKey is the key of POST /v1/export/bibtex for these bibcodes.
func exportKey(bibcodes ...string) string {
	b, _ := json.Marshal(map[string][]string{"bibcode": bibcodes})
	return "POST /v1/export/bibtex " + string(b)
}

// count returns how many requests had key ("" for all requests).
func (f *fakeADS) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if key == "" {
		return f.all
	}
	return f.hits[key]
}

// fetchOptions are guarded-client options reaching the fake without waits.
func (f *fakeADS) fetchOptions() fetch.Options {
	return fetch.Options{Allow: []string{f.srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}}
}

// client returns an ADS client for the fake using the real fetch client.
func (f *fakeADS) client(token string, opts ...Option) *Client {
	return New(f.srv.URL+"/v1", token, fetch.New(f.fetchOptions()), opts...)
}

// testClock is an adjustable clock for cache expiry.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
