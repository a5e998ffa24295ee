package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestGetAllowedFake(t *testing.T) {
	var gotUA string
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.Header.Get("User-Agent")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	c := New(testOptions(srv.URL))
	resp, err := c.Get(t.Context(), srv.URL+"/v1/search?q=x")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || string(resp.Body) != `{"ok":true}` || resp.Size != 11 {
		t.Fatalf("got %d %q size %d", resp.Status, resp.Body, resp.Size)
	}
	if resp.ContentType() != "application/json" || resp.URL.Path != "/v1/search" || resp.Cached {
		t.Fatalf("got type %q URL %v cached %v", resp.ContentType(), resp.URL, resp.Cached)
	}
	if gotUA != "AstroResearch/dev (+self-hosted research assistant)" {
		t.Fatalf("User-Agent = %q", gotUA)
	}
}

func TestUserAgent(t *testing.T) {
	var gotUA string
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { gotUA = r.Header.Get("User-Agent") })
	tests := []struct {
		name   string
		opt    Options
		header string
		want   string
	}{
		{"version", Options{Version: "1.2.3"}, "", "AstroResearch/1.2.3 (+self-hosted research assistant)"},
		{"custom", Options{UserAgent: "Custom/1"}, "", "Custom/1"},
		{"request wins", Options{}, "Caller/2", "Caller/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := testOptions(srv.URL)
			opt.Version, opt.UserAgent = tt.opt.Version, tt.opt.UserAgent
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			if tt.header != "" {
				req.Header.Set("User-Agent", tt.header)
			}
			before := len(req.Header)
			if _, err := New(opt).Do(t.Context(), req); err != nil {
				t.Fatal(err)
			}
			if gotUA != tt.want {
				t.Errorf("User-Agent = %q, want %q", gotUA, tt.want)
			}
			if len(req.Header) != before {
				t.Errorf("Do modified the caller's request headers: %v", req.Header)
			}
		})
	}
}

func TestHeadIgnoresContentLength(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "3000000000")
	})
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/big.pdf", nil)
	resp, err := New(testOptions(srv.URL)).Do(t.Context(), req)
	if err != nil || resp.Header.Get("Content-Length") != "3000000000" {
		t.Fatalf("HEAD of a big file: %v, %v", resp, err)
	}
}

func TestStatusIsNotError(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "quota exceeded", http.StatusTooManyRequests)
	})
	resp, err := New(testOptions(srv.URL)).Get(t.Context(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusTooManyRequests || !strings.Contains(string(resp.Body), "quota") {
		t.Fatalf("got %d %q", resp.Status, resp.Body)
	}
}

func TestLoopbackRefusedWithoutAllow(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {})
	other := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {})
	c := New(testOptions(other.URL)) // a different port is allowed, not this one
	_, err := c.Get(t.Context(), srv.URL+"/?api_key=SECRET")
	if !errors.Is(err, ErrBlockedAddress) {
		t.Fatalf("err = %v, want ErrBlockedAddress", err)
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("error leaks the query: %v", err)
	}
	if srv.hits.Load() != 0 {
		t.Errorf("refused server was hit %d times", srv.hits.Load())
	}
}

func TestRedirects(t *testing.T) {
	// target is a loopback server that is not allowed; its hit count must
	// stay zero whatever the allowed server redirects to.
	target := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret") })
	var location string
	allowed := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/final" {
			io.WriteString(w, "final")
			return
		}
		http.Redirect(w, r, location, http.StatusFound)
	})
	opt := testOptions(allowed.URL)
	opt.Resolver = staticResolver(map[string][]string{
		"rebind.example.org": {"127.0.0.1"},
		"mixed.example.org":  {"93.184.216.34", "127.0.0.1"},
	})
	c := New(opt)
	tests := []struct {
		location string
		want     error
	}{
		{"http://127.0.0.1:" + target.port() + "/", ErrBlockedAddress},
		{"http://[::1]:" + target.port() + "/", ErrBlockedAddress},
		{"http://[::ffff:127.0.0.1]:" + target.port() + "/", ErrBlockedAddress},
		{"http://localhost:" + target.port() + "/", ErrBlockedAddress},
		{"http://rebind.example.org:" + target.port() + "/", ErrBlockedAddress},
		{"http://mixed.example.org:" + target.port() + "/", ErrBlockedAddress},
		{"http://169.254.169.254/latest/meta-data/", ErrBlockedAddress},
		{"http://2130706433:" + target.port() + "/", ErrNumericHost},
		{"http://0177.0.0.1:" + target.port() + "/", ErrNumericHost},
		{"http://evil.com@127.0.0.1:" + target.port() + "/", ErrUserinfo},
		{"file:///etc/passwd", ErrBadScheme},
		{"gopher://127.0.0.1:" + target.port() + "/_x", ErrBadScheme},
		{"https://127.0.0.1:" + allowed.port() + "/", ErrBlockedAddress}, // allowed port, other scheme
		{"/final", nil},
		{allowed.URL + "/final", nil},
	}
	for _, tt := range tests {
		t.Run(tt.location, func(t *testing.T) {
			location = tt.location
			resp, err := c.Get(t.Context(), allowed.URL+"/start")
			if tt.want == nil {
				if err != nil || string(resp.Body) != "final" || resp.URL.Path != "/final" {
					t.Fatalf("got %v, %v", resp, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if n := target.hits.Load(); n != 0 {
				t.Fatalf("unallowed target hit %d times", n)
			}
		})
	}
}

func TestTooManyRedirects(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
	})
	_, err := New(testOptions(srv.URL)).Get(t.Context(), srv.URL+"/r")
	if !errors.Is(err, ErrTooManyRedirects) {
		t.Fatalf("err = %v, want ErrTooManyRedirects", err)
	}
	if got, want := srv.hits.Load(), int64(MaxRedirects+1); got != want {
		t.Fatalf("server saw %d requests, want %d (first + %d redirects)", got, want, MaxRedirects)
	}
}

func TestDNSRebinding(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	resolver := staticResolver(map[string][]string{
		"papers.example.org": {"127.0.0.1"},
		"mapped.example.org": {"::ffff:127.0.0.1"},
		"mixed.example.org":  {"93.184.216.34", "127.0.0.1"},
		"api.fake.test":      {"127.0.0.1"},
	})
	tests := []struct {
		host string
		want error
	}{
		{"papers.example.org", ErrBlockedAddress},
		{"mapped.example.org", ErrBlockedAddress},
		{"mixed.example.org", ErrBlockedAddress},
		{"api.fake.test", nil}, // explicitly allowed below
	}
	opt := testOptions("http://api.fake.test:" + srv.port())
	opt.Resolver = resolver
	c := New(opt)
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			before := srv.hits.Load()
			resp, err := c.Get(t.Context(), "http://"+tt.host+":"+srv.port()+"/")
			if tt.want == nil {
				if err != nil || string(resp.Body) != "ok" {
					t.Fatalf("got %v, %v", resp, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if srv.hits.Load() != before {
				t.Fatal("refused request reached the server")
			}
		})
	}
}

// TestAllowedConnectionNotReused: a connection dialled for an allowed origin
// must not serve a request for another origin that is not allowed, even one
// that names the same socket address.
func TestAllowedConnectionNotReused(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	opt := testOptions(srv.URL)
	opt.Resolver = staticResolver(map[string][]string{"alias.example.org": {"127.0.0.1"}})
	c := New(opt)
	if _, err := c.Get(t.Context(), srv.URL); err != nil {
		t.Fatal(err)
	}
	_, err := c.Get(t.Context(), "http://alias.example.org:"+srv.port()+"/")
	if !errors.Is(err, ErrBlockedAddress) {
		t.Fatalf("err = %v, want ErrBlockedAddress", err)
	}
	if srv.hits.Load() != 1 {
		t.Fatalf("server hits = %d, want 1", srv.hits.Load())
	}
}

func TestProxyEnvironmentIgnored(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "direct") })
	// A host name, since net/http never proxies loopback literals anyway.
	base := "http://api.fake.test:" + srv.port()
	opt := testOptions(base)
	opt.Resolver = staticResolver(map[string][]string{"api.fake.test": {"127.0.0.1"}})
	resp, err := New(opt).Get(t.Context(), base+"/")
	if err != nil || string(resp.Body) != "direct" {
		t.Fatalf("got %v, %v", resp, err)
	}
}

func TestDoRefusesBadRequestURL(t *testing.T) {
	c := New(testOptions())
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://example.org/", nil)
	req.URL.User = nil
	req.URL.Host = "127.0.0.1:80"
	if _, err := c.Do(t.Context(), req); !errors.Is(err, ErrBlockedAddress) {
		t.Fatalf("err = %v, want ErrBlockedAddress", err)
	}
	req.URL.Host = "exa\\mple.org"
	if _, err := c.Do(t.Context(), req); !errors.Is(err, ErrBadURL) {
		t.Fatalf("err = %v, want ErrBadURL", err)
	}
	if _, err := c.Do(t.Context(), nil); !errors.Is(err, ErrBadURL) {
		t.Fatalf("nil request: err = %v, want ErrBadURL", err)
	}
	if _, err := c.Get(t.Context(), "gopher://example.org/"); !errors.Is(err, ErrBadScheme) {
		t.Fatalf("err = %v, want ErrBadScheme", err)
	}
}
