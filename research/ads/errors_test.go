package ads

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/research/fetch"
)

func TestNoToken(t *testing.T) {
	f := newFake(t, nil)
	c := f.client("  ")
	ctx := context.Background()
	calls := map[string]func() error{
		"search":     func() error { _, err := c.Search(ctx, Query{Q: "abs:jet"}); return err },
		"lookup":     func() error { _, err := c.Lookup(ctx, "2019ApJ...875L...1E"); return err },
		"citations":  func() error { _, err := c.Citations(ctx, "2019ApJ...875L...1E", 10, 0); return err },
		"references": func() error { _, err := c.References(ctx, "2019ApJ...875L...1E", 10, 0); return err },
		"export":     func() error { _, err := c.ExportBibTeX(ctx, []string{"2019ApJ...875L...1E"}); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if !errors.Is(err, ErrNoToken) {
				t.Fatalf("err = %v, want ErrNoToken", err)
			}
			for _, want := range []string{"ADS_API_TOKEN", "https://ui.adsabs.harvard.edu/user/settings/token"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err, want)
				}
			}
		})
	}
	if c.HasToken() {
		t.Error("HasToken with a blank token")
	}
	if n := f.count(""); n != 0 {
		t.Errorf("%d requests sent without a token", n)
	}
	if _, err := c.LinkGateway("2019ApJ...875L...1E", EprintPDF); err != nil {
		t.Errorf("link gateway needs no token: %v", err)
	}
}

func TestStatusErrors(t *testing.T) {
	q := "abs:jet"
	key := searchKey(q, wantFL, "", DefaultRows, 0)
	tests := []struct {
		name     string
		rep      reply
		token    string
		want     error
		contains []string
	}{
		{"wrong token", reply{file: "empty.json"}, "expired", ErrUnauthorized,
			[]string{"ADS rejected the token", "HTTP 401", "Unauthorized"}},
		{"forbidden", reply{status: 403, body: `{"error": "Forbidden"}`}, testToken, ErrUnauthorized, []string{"HTTP 403"}},
		{"solr syntax error", reply{status: 400, file: "solr_syntax_error.json"}, testToken, ErrBadQuery,
			[]string{"HTTP 400", "SyntaxError: Syntax Error, cannot parse"}},
		{"server error", reply{status: 500, file: "solr_server_error.json"}, testToken, ErrServer,
			[]string{"ADS server error (HTTP 500)", "Timeout occurred"}},
		{"gateway html", reply{status: 502, body: "<html><body>Bad Gateway</body></html>", ctype: "text/html"}, testToken, ErrServer,
			[]string{"HTTP 502"}},
		{"plain 503", reply{status: 503, body: "Service Unavailable", ctype: "text/plain"}, testToken, ErrServer,
			[]string{"(HTTP 503): Service Unavailable"}},
		{"teapot", reply{status: 418, body: `{"message": "short and stout"}`}, testToken, ErrUnexpectedStatus,
			[]string{"(HTTP 418): short and stout"}},
		{"malformed json", reply{body: `{"response": {"numFound": "many"`}, testToken, ErrMalformedResponse,
			[]string{"application/json body"}},
		{"html with 200", reply{body: "<html>maintenance</html>", ctype: "text/html"}, testToken, ErrMalformedResponse,
			[]string{"text/html body"}},
		{"no response object", reply{body: `{"responseHeader": {"status": 0}}`}, testToken, ErrMalformedResponse,
			[]string{`no "response" object`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, map[string]reply{key: tt.rep})
			_, err := f.client(tt.token).Search(context.Background(), Query{Q: q})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q lacks %q", err, s)
				}
			}
			if strings.Contains(err.Error(), testToken) {
				t.Errorf("message %q leaks the token", err)
			}
		})
	}
}

func TestRateLimited(t *testing.T) {
	clock := newTestClock()
	reset := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		header     map[string]string
		retryAfter time.Duration
		reset      time.Time
		limit      int
	}{
		{"all headers", map[string]string{
			"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0",
			"X-RateLimit-Reset": "1772409600", "Retry-After": "3600",
		}, time.Hour, reset, 5000},
		{"http-date retry", map[string]string{"Retry-After": clock.Now().Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, time.Time{}, -1},
		{"no headers", nil, 0, time.Time{}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := searchKey("abs:jet", wantFL, "", DefaultRows, 0)
			f := newFake(t, map[string]reply{key: {status: 429, file: "ratelimited.json", header: tt.header}})
			_, err := f.client(testToken, WithClock(clock.Now)).Search(context.Background(), Query{Q: "abs:jet"})
			var rl *RateLimitError
			if !errors.Is(err, ErrRateLimited) || !errors.As(err, &rl) {
				t.Fatalf("err = %v, want *RateLimitError", err)
			}
			if rl.RetryAfter != tt.retryAfter || !rl.Reset.Equal(tt.reset) || rl.Limit != tt.limit {
				t.Errorf("got %+v", rl)
			}
			if !strings.Contains(err.Error(), "Rate limit was exceeded") {
				t.Errorf("message %q lacks ADS's explanation", err)
			}
			if !tt.reset.IsZero() && !strings.Contains(err.Error(), "quota resets at 2026-03-02T00:00:00Z") {
				t.Errorf("message %q lacks the reset time", err)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	search := searchKey("abs:slow", wantFL, "", DefaultRows, 0)
	export := exportKey("2019ApJ...875L...1E")
	f := newFake(t, map[string]reply{search: {block: true}, export: {block: true}})

	// The fetch client's own deadline (cached GETs run detached from the
	// caller's context, so this is the one that ends them).
	opt := f.fetchOptions()
	opt.Timeout = 200 * time.Millisecond
	c := New(f.srv.URL+"/v1", testToken, fetch.New(opt))
	if _, err := c.Search(context.Background(), Query{Q: "abs:slow"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("search: err = %v, want context.DeadlineExceeded", err)
	}

	// The caller's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := f.client(testToken).ExportBibTeX(ctx, []string{"2019ApJ...875L...1E"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("export: err = %v, want context.DeadlineExceeded", err)
	}
}

func TestQuotas(t *testing.T) {
	key := searchKey("abs:jet", wantFL, "", DefaultRows, 0)
	f := newFake(t, map[string]reply{key: {file: "empty.json", header: map[string]string{
		"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "4998", "X-RateLimit-Reset": "1772409600",
	}}})
	c := f.client(testToken)
	if q := c.Quotas(); len(q) != 0 {
		t.Fatalf("quotas before any call: %+v", q)
	}
	if _, err := c.Search(context.Background(), Query{Q: "abs:jet"}); err != nil {
		t.Fatal(err)
	}
	want := Quota{Endpoint: "/search/query", Limit: 5000, Remaining: 4998, Reset: time.Unix(1772409600, 0).UTC()}
	if q := c.Quotas(); len(q) != 1 || q[0] != want {
		t.Errorf("quotas = %+v, want [%+v]", q, want)
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"error": "Unauthorized"}`, "Unauthorized"},
		{`{"error": {"msg": "bad  query\n here", "code": 400}}`, "bad query here"},
		{`{"message": "m"}`, "m"},
		{`{"msg": "n"}`, "n"},
		{`{}`, ""},
		{`<!DOCTYPE html><p>x</p>`, ""},
		{"upstream timed out", "upstream timed out"},
		{strings.Repeat("é", 300), strings.Repeat("é", maxMessage/2) + "…"},
	}
	for _, tt := range tests {
		if got := errorMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("errorMessage(%.30q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}
