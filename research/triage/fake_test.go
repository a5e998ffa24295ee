package triage

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/store/storetest"
)

// fakePaper is a submission the arXiv stand-in serves.
type fakePaper struct {
	id, title, abstract string
	authors             []string
	cats                []string // primary first
	submitted           time.Time
	malformed           bool // served with an id that is not an arXiv identifier
}

// arxivFake answers arXiv API queries (cat:X AND submittedDate:[A TO B],
// paged) in the API's real Atom format, from its papers; fail makes the
// next requests fail with a status (and Retry-After).
type arxivFake struct {
	mu       sync.Mutex
	papers   []fakePaper
	queries  []string
	fail     []int // statuses for the next requests
	retryHdr string
}

var queryRe = regexp.MustCompile(`^cat:(\S+) AND submittedDate:\[(\d{12}) TO (\d{12})\]$`)

// answer returns the status and body for one request's parameters.
func (f *arxivFake) answer(q url.Values) (int, http.Header, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q.Get("search_query")+" start="+q.Get("start"))
	if len(f.fail) > 0 {
		status := f.fail[0]
		f.fail = f.fail[1:]
		h := http.Header{}
		if f.retryHdr != "" {
			h.Set("Retry-After", f.retryHdr)
		}
		return status, h, []byte("Rate exceeded.")
	}
	m := queryRe.FindStringSubmatch(q.Get("search_query"))
	if m == nil {
		return http.StatusBadRequest, nil, []byte("unexpected query " + q.Get("search_query"))
	}
	from, _ := time.Parse("200601021504", m[2])
	to, _ := time.Parse("200601021504", m[3])
	var hits []fakePaper
	for _, p := range f.papers {
		if !p.submitted.Before(from) && p.submitted.Before(to.Add(time.Minute)) && Follows([]string{m[1]}, p.cats) {
			hits = append(hits, p)
		}
	}
	start, _ := strconv.Atoi(q.Get("start"))
	max, _ := strconv.Atoi(q.Get("max_results"))
	page := hits[min(start, len(hits)):min(start+max, len(hits))]
	return http.StatusOK, nil, atomFeedOf(len(hits), start, page)
}

// atomFeedOf writes a feed like export.arxiv.org's (see
// research/arxiv/testdata/search_astroph.xml).
func atomFeedOf(total, start int, papers []fakePaper) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query</title>
  <id>http://arxiv.org/api/fake</id>
  <updated>2026-12-01T00:00:00-05:00</updated>
`)
	fmt.Fprintf(&b, `  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:itemsPerPage>
`, total, start, len(papers))
	for _, p := range papers {
		id := "http://arxiv.org/abs/" + p.id + "v1"
		if p.malformed {
			id = "http://example.org/not-an-id/" + p.id
		}
		fmt.Fprintf(&b, "  <entry>\n    <id>%s</id>\n    <updated>%s</updated>\n    <published>%s</published>\n", id,
			p.submitted.Format(time.RFC3339), p.submitted.Format(time.RFC3339))
		fmt.Fprintf(&b, "    <title>%s</title>\n    <summary>  %s\n</summary>\n", html.EscapeString(p.title), html.EscapeString(p.abstract))
		for _, a := range p.authors {
			fmt.Fprintf(&b, "    <author>\n      <name>%s</name>\n    </author>\n", html.EscapeString(a))
		}
		fmt.Fprintf(&b, `    <link href="http://arxiv.org/abs/%sv1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/%sv1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="%s" scheme="http://arxiv.org/schemas/atom"/>
`, p.id, p.id, p.cats[0])
		for _, c := range p.cats {
			fmt.Fprintf(&b, "    <category term=\"%s\" scheme=\"http://arxiv.org/schemas/atom\"/>\n", c)
		}
		b.WriteString("  </entry>\n")
	}
	b.WriteString("</feed>\n")
	return b.Bytes()
}

// requests returns the queries asked so far.
func (f *arxivFake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.queries...)
}

// Search makes the fake an Arxiv in-process (for tests in a synctest
// bubble, where no real network may be used): the same Atom, parsed by
// the real parser.
func (f *arxivFake) Search(ctx context.Context, q arxiv.Query) (arxiv.Result, error) {
	v := url.Values{
		"search_query": {fmt.Sprintf("cat:%s AND submittedDate:[%s TO %s]", q.Category,
			q.SubmittedFrom.UTC().Format("200601021504"), q.SubmittedTo.UTC().Format("200601021504"))},
		"start": {strconv.Itoa(q.Start)}, "max_results": {strconv.Itoa(q.Max)},
	}
	status, _, body := f.answer(v)
	if status != http.StatusOK {
		return arxiv.Result{}, &arxiv.StatusError{Status: status}
	}
	return arxiv.ParseFeed(body)
}

// serve starts the fake as an HTTP server and returns a real arXiv client
// for it (guarded fetch client, no rate limit: the service paces itself).
func (f *arxivFake) serve(t *testing.T) *arxiv.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, h, body := f.answer(r.URL.Query())
		for k, v := range h {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	fc := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return arxiv.New(srv.URL+"/api/query", fc)
}

// fakeResolver knows NGC 4258.
type fakeResolver struct{ down bool }

func (r fakeResolver) Resolve(_ context.Context, name string) (sesame.Object, error) {
	if r.down {
		return sesame.Object{}, fmt.Errorf("sesame: %w", io.ErrUnexpectedEOF)
	}
	switch strings.ToUpper(strings.ReplaceAll(name, " ", "")) {
	case "NGC4258", "M106":
		return sesame.Object{Query: name, Name: "M 106", Aliases: []string{"NGC 4258", "UGC 7353", "M 106"}}, nil
	}
	return sesame.Object{}, sesame.ErrNotFound
}

// fakeImporter adds papers to the library by arXiv id.
type fakeImporter struct{ st *store.Store }

func (f fakeImporter) Import(ctx context.Context, userID int64, ref library.Ref) (store.Paper, bool, error) {
	id := ref.Arxiv.Base
	return f.st.UpsertPaper(ctx, store.Paper{Title: "Imported " + id, ArxivID: &id, AddedBy: &userID})
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestStore is a migrated store in t.TempDir().
func newTestStore(t testing.TB) *store.Store {
	t.Helper()
	return storetest.New(t)
}

// newUser creates a user.
func newUser(t testing.TB, st *store.Store, name string) int64 {
	t.Helper()
	u, err := st.CreateUser(context.Background(), name, "x", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// logBuffer is a logger writing into a buffer the test reads.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// Short names for the scheduler test's wrapper.
type (
	arxivQuery  = arxiv.Query
	arxivResult = arxiv.Result
)
