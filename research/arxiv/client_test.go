package arxiv

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// fakeAPI is an httptest stand-in for export.arxiv.org/api/query that
// records the query of every request from this test's clients: they send
// the fake's own User-Agent, so a stray request from another test process
// that reuses a closed server's port (a detached request dialling late)
// is turned away, not counted.
type fakeAPI struct {
	*httptest.Server
	ua      string
	mu      sync.Mutex
	queries []url.Values
	raw     []string
}

var fakeAPIs atomic.Int64

func newFakeAPI(t *testing.T, h func(w http.ResponseWriter, q url.Values)) *fakeAPI {
	t.Helper()
	f := &fakeAPI{ua: fmt.Sprintf("arxiv-fake-%d-%d", os.Getpid(), fakeAPIs.Add(1))}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() != f.ua {
			http.Error(w, "not this test's client", http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path != "/api/query" || r.Method != http.MethodGet {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		f.mu.Lock()
		f.queries = append(f.queries, r.URL.Query())
		f.raw = append(f.raw, r.URL.RawQuery)
		f.mu.Unlock()
		h(w, r.URL.Query())
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) requests() ([]url.Values, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.queries...), append([]string(nil), f.raw...)
}

// client returns a Client on the real guarded fetch client, allowed to
// reach the fake and not rate limited.
func (f *fakeAPI) client() *Client { return New(f.URL+"/api/query", f.fetcher()) }

// fetcher is the guarded fetch client the fake's clients use.
func (f *fakeAPI) fetcher() *fetch.Client {
	return fetch.New(fetch.Options{Allow: []string{f.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}, UserAgent: f.ua})
}

// serveFixture answers with a testdata file as Atom.
func serveFixture(t *testing.T, name string) func(http.ResponseWriter, url.Values) {
	body := readFixture(t, name)
	return func(w http.ResponseWriter, _ url.Values) {
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.Write(body)
	}
}

func TestSearch(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "search_astroph.xml"))
	c := api.client()
	res, err := c.Search(context.Background(), Query{
		Terms: `dwarf "cold gas"`, Category: "astro-ph.GA", Author: "Fernández",
		Start: 0, Max: 2, SortBy: SortSubmitted, SortOrder: Descending,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1523 || len(res.Entries) != 2 || res.Entries[0].ID.String() != "2401.01234v2" {
		t.Fatalf("result = %d total, %d entries", res.Total, len(res.Entries))
	}
	qs, raw := api.requests()
	if len(qs) != 1 {
		t.Fatalf("%d requests, want 1", len(qs))
	}
	want := url.Values{
		"search_query": {`all:dwarf AND all:"cold gas" AND au:Fernández AND cat:astro-ph.GA`},
		"start":        {"0"},
		"max_results":  {"2"},
		"sortBy":       {"submittedDate"},
		"sortOrder":    {"descending"},
	}
	if !reflect.DeepEqual(qs[0], want) {
		t.Errorf("query = %v\nwant    %v", qs[0], want)
	}
	if !strings.Contains(raw[0], "search_query=all%3Adwarf+AND+all%3A%22cold+gas%22") {
		t.Errorf("raw query %s is not encoded the way arXiv documents", raw[0])
	}
}

func TestSearchCachesIdenticalQueries(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "search_astroph.xml"))
	c := api.client()
	ctx := context.Background()
	for _, q := range []Query{{Terms: "dwarf"}, {Terms: "dwarf"}, {Terms: "dwarf", Start: 10}} {
		if _, err := c.Search(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if qs, _ := api.requests(); len(qs) != 2 {
		t.Fatalf("%d requests, want 2 (the repeat is cached)", len(qs))
	}
}

func TestSearchEmpty(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "empty.xml"))
	res, err := api.client().Search(context.Background(), Query{Terms: "zzyzxquasarwobble"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 0 || len(res.Entries) != 0 {
		t.Fatalf("result = %+v, want empty", res)
	}
}

func TestSearchInvalidQuerySendsNothing(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "empty.xml"))
	_, err := api.client().Search(context.Background(), Query{Terms: "  "})
	if !errors.Is(err, ErrEmptyQuery) {
		t.Fatalf("error = %v, want ErrEmptyQuery", err)
	}
	if qs, _ := api.requests(); len(qs) != 0 {
		t.Fatalf("%d requests for an invalid query", len(qs))
	}
}

func TestGet(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "idlist.xml"))
	ids := mustIDs(t, "1501.00001", "math.GT/0309136", "arXiv:2401.01234v2", "2402.99999", "1501.00001")
	got, err := api.client().Get(context.Background(), ids...)
	if err != nil {
		t.Fatal(err)
	}
	var gotIDs []string
	for _, e := range got {
		gotIDs = append(gotIDs, e.ID.String())
	}
	// Request order, the latest version for unversioned ids, the missing
	// paper left out, the duplicate asked and answered once.
	if want := []string{"1501.00001v3", "math/0309136v1", "2401.01234v2"}; !reflect.DeepEqual(gotIDs, want) {
		t.Fatalf("ids = %q, want %q", gotIDs, want)
	}
	qs, _ := api.requests()
	want := url.Values{
		"id_list":     {"1501.00001,math/0309136,2401.01234v2,2402.99999"},
		"start":       {"0"},
		"max_results": {"4"},
	}
	if len(qs) != 1 || !reflect.DeepEqual(qs[0], want) {
		t.Fatalf("queries = %v, want [%v]", qs, want)
	}
}

func TestGetVersionMismatchIsMissing(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "idlist.xml"))
	got, err := api.client().Get(context.Background(), ID{"2401.01234", 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("asked for v1, got %v", got[0].ID)
	}
}

// feedFor builds a feed with one minimal entry per id (version 1).
func feedFor(ids []string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">`)
	fmt.Fprintf(&b, "<opensearch:totalResults>%d</opensearch:totalResults>", len(ids))
	for i := len(ids) - 1; i >= 0; i-- { // reversed: the API's order is not ours
		fmt.Fprintf(&b, "<entry><id>http://arxiv.org/abs/%sv1</id><title>Paper %s</title></entry>", ids[i], ids[i])
	}
	b.WriteString("</feed>")
	return b.String()
}

func TestGetBatches(t *testing.T) {
	api := newFakeAPI(t, func(w http.ResponseWriter, q url.Values) {
		w.Write([]byte(feedFor(strings.Split(q.Get("id_list"), ","))))
	})
	var ids []ID
	for i := 1; i <= 250; i++ {
		ids = append(ids, ID{Base: fmt.Sprintf("2401.%05d", i)})
	}
	got, err := api.client().Get(context.Background(), ids...)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 {
		t.Fatalf("%d entries, want 250", len(got))
	}
	for i, e := range got {
		if e.ID.Base != ids[i].Base || e.ID.Version != 1 {
			t.Fatalf("entry %d = %v, want %sv1", i, e.ID, ids[i].Base)
		}
	}
	qs, _ := api.requests()
	var sizes []string
	for _, q := range qs {
		sizes = append(sizes, q.Get("max_results"))
		if n := len(strings.Split(q.Get("id_list"), ",")); fmt.Sprint(n) != q.Get("max_results") {
			t.Errorf("id_list has %d ids but max_results=%s", n, q.Get("max_results"))
		}
	}
	if want := []string{"100", "100", "50"}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("batch sizes = %v, want %v", sizes, want)
	}
}

func TestGetNothingAndInvalid(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "idlist.xml"))
	c := api.client()
	if got, err := c.Get(context.Background()); err != nil || got != nil {
		t.Fatalf("Get() = %v, %v", got, err)
	}
	for _, id := range []ID{{Base: "2401.01234,2401.05678"}, {Base: "math.GT/0309136"}, {Base: "2401.01234", Version: -1}, {}} {
		if _, err := c.Get(context.Background(), id); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Get(%+v) error = %v, want ErrInvalidID", id, err)
		}
	}
	if qs, _ := api.requests(); len(qs) != 0 {
		t.Fatalf("%d requests for invalid ids", len(qs))
	}
}

func TestLookup(t *testing.T) {
	api := newFakeAPI(t, func(w http.ResponseWriter, q url.Values) {
		if q.Get("id_list") == "2401.01234" {
			serveFixture(t, "idlist.xml")(w, q)
			return
		}
		serveFixture(t, "empty.xml")(w, q)
	})
	c := api.client()
	e, err := c.Lookup(context.Background(), ID{Base: "2401.01234"})
	if err != nil || e.ID.String() != "2401.01234v2" || e.DOI == "" {
		t.Fatalf("Lookup = %+v, %v", e.ID, err)
	}
	_, err = c.Lookup(context.Background(), ID{Base: "2402.99999"})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "2402.99999") {
		t.Fatalf("Lookup missing = %v, want ErrNotFound naming the id", err)
	}
}

func TestResponseErrors(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		status  int
		header  map[string]string
		body    string
		check   func(t *testing.T, err error)
		message []string
	}{
		{
			name: "503 with Retry-After seconds", status: 503, header: map[string]string{"Retry-After": "30"},
			message: []string{"HTTP 503 Service Unavailable", "retry after 30s"},
			check:   wantStatus(503, 30*time.Second),
		},
		{
			name: "503 with Retry-After date", status: 503,
			header:  map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)},
			message: []string{"503", "retry after 1m30s"},
			check:   wantStatus(503, 90*time.Second),
		},
		{
			name: "429 without Retry-After", status: 429, body: "Rate exceeded.",
			message: []string{"HTTP 429 Too Many Requests", "retry later"},
			check:   wantStatus(429, 0),
		},
		{
			name: "500", status: 500, body: "<html>oops</html>",
			message: []string{"HTTP 500 Internal Server Error"},
			check:   wantStatus(500, 0),
		},
		{
			name: "400 with an error feed", status: 400, body: string(readFixture(t, "error.xml")),
			message: []string{"HTTP 400 Bad Request", "incorrect id format for 1234.12345"},
			check: func(t *testing.T, err error) {
				var apiErr *APIError
				if !errors.As(err, &apiErr) || apiErr.Code != "incorrect_id_format_for_1234.12345" {
					t.Errorf("error %v does not carry the API error", err)
				}
			},
		},
		{
			name: "200 error feed", status: 200, body: string(readFixture(t, "error.xml")),
			message: []string{"arXiv API error: incorrect id format"},
			check: func(t *testing.T, err error) {
				var apiErr *APIError
				if !errors.As(err, &apiErr) {
					t.Errorf("error %v is not an *APIError", err)
				}
			},
		},
		{
			name: "200 proxy HTML page", status: 200, body: string(readFixture(t, "proxy_error.html")),
			header:  map[string]string{"Content-Type": "text/html"},
			message: []string{"not an Atom feed", "HTML page"},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, ErrNotAtom) {
					t.Errorf("error %v does not wrap ErrNotAtom", err)
				}
			},
		},
		{
			name: "body over the cap", status: 200, header: map[string]string{"Content-Length": fmt.Sprint(maxBodyBytes + 1)},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, fetch.ErrTooLarge) {
					t.Errorf("error %v does not wrap fetch.ErrTooLarge", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, func(w http.ResponseWriter, _ url.Values) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			c := api.client()
			c.now = func() time.Time { return now }
			_, err := c.Search(context.Background(), Query{Terms: "quasar"})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "arxiv: search: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			for _, m := range tt.message {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			tt.check(t, err)
			// The same failure through Get.
			if _, err := c.Get(context.Background(), ID{Base: "2401.01234"}); err == nil {
				t.Error("Get: no error")
			}
		})
	}
}

func wantStatus(status int, retry time.Duration) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var se *StatusError
		if !errors.As(err, &se) {
			t.Fatalf("error %v is not a *StatusError", err)
		}
		if se.Status != status || se.RetryAfter != retry {
			t.Errorf("StatusError = %d retry %v, want %d retry %v", se.Status, se.RetryAfter, status, retry)
		}
	}
}

func TestErrorsWithoutRequest(t *testing.T) {
	api := newFakeAPI(t, serveFixture(t, "empty.xml"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := api.client().Search(ctx, Query{Terms: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	fc := api.fetcher()
	for _, base := range []string{"ftp://example.org/api", "not a url", "/api/query"} {
		if _, err := New(base, fc).Search(context.Background(), Query{Terms: "x"}); err == nil || !strings.Contains(err.Error(), "base URL") {
			t.Errorf("base %q: error %v", base, err)
		}
	}
	if _, err := New("", nil).Search(context.Background(), Query{Terms: "x"}); err == nil {
		t.Error("nil getter: no error")
	}
	// A loopback address not in the allow list is refused by fetch.
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	if _, err := New(other.URL+"/api/query", fc).Search(context.Background(), Query{Terms: "x"}); !errors.Is(err, fetch.ErrBlockedAddress) {
		t.Errorf("unlisted loopback: %v, want fetch.ErrBlockedAddress", err)
	}
	if qs, _ := api.requests(); len(qs) != 0 {
		t.Errorf("%d requests reached the fake", len(qs))
	}
}

func mustIDs(t *testing.T, ss ...string) []ID {
	t.Helper()
	var out []ID
	for _, s := range ss {
		id, err := ParseID(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}
