package sesame

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// httpGetter is a plain Getter for tests (production uses the guarded client).
type httpGetter struct{ c *http.Client }

func (g httpGetter) Get(ctx context.Context, u string) (int, []byte, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	res, err := g.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res.StatusCode, []byte(b.String()), nil
}

// fakeSesame serves the fixtures by name, counting requests.
func fakeSesame(t *testing.T, hits *atomic.Int32, status int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if !strings.HasSuffix(r.URL.Path, "/-oxI/~SNV") {
			http.Error(w, "bad path "+r.URL.Path, 400)
			return
		}
		if status != 200 {
			http.Error(w, "down", status)
			return
		}
		name := r.URL.RawQuery
		file := "notfound.xml"
		if strings.Contains(strings.ToLower(name), "1275") {
			file = "ngc1275.xml"
		}
		if name == "slow" {
			<-r.Context().Done()
			return
		}
		if name == "garbage" {
			fmt.Fprint(w, "<html>oops</html>")
			return
		}
		b, _ := os.ReadFile("testdata/" + file)
		w.Header().Set("Content-Type", "text/xml")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestResolveCacheAndNotFound(t *testing.T) {
	var hits atomic.Int32
	srv := fakeSesame(t, &hits, 200)
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	c := New(httpGetter{srv.Client()}, func() time.Time { return now }, srv.URL)
	ctx := context.Background()
	o, err := c.Resolve(ctx, "  NGC   1275 ")
	if err != nil || o.Name != "NGC 1275" || o.Query != "NGC 1275" {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := c.Resolve(ctx, "ngc 1275"); err != nil || hits.Load() != 1 {
		t.Fatalf("cache miss: %d requests, %v", hits.Load(), err)
	}
	if _, err := c.Resolve(ctx, "xyzzy"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown name: %v", err)
	}
	c.Resolve(ctx, "xyzzy")
	if hits.Load() != 2 {
		t.Fatalf("not-found answer not cached: %d requests", hits.Load())
	}
	now = now.Add(2 * time.Hour)
	c.Resolve(ctx, "xyzzy")
	if hits.Load() != 3 {
		t.Fatal("not-found cache entry did not expire")
	}
	for _, bad := range []string{"", "   ", strings.Repeat("x", 201), "a\nb"} {
		if _, err := c.Resolve(ctx, bad); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
}

func TestMirrorFallbackAndFailures(t *testing.T) {
	var downHits, upHits atomic.Int32
	down := fakeSesame(t, &downHits, 503)
	up := fakeSesame(t, &upHits, 200)
	c := New(httpGetter{up.Client()}, nil, down.URL, up.URL)
	if o, err := c.Resolve(context.Background(), "NGC 1275"); err != nil || o.Name != "NGC 1275" || downHits.Load() != 1 {
		t.Fatalf("mirror fallback: %+v %v", o, err)
	}
	onlyDown := New(httpGetter{up.Client()}, nil, down.URL)
	if _, err := onlyDown.Resolve(context.Background(), "NGC 1275"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("all servers down: %v", err)
	}
	if _, err := New(httpGetter{up.Client()}, nil, up.URL).Resolve(context.Background(), "garbage"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("malformed XML: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := New(httpGetter{up.Client()}, nil, up.URL).Resolve(ctx, "slow"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v", err)
	}
}

func BenchmarkResolveCacheHit(b *testing.B) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := os.ReadFile("testdata/ngc1275.xml")
		w.Write(body)
	}))
	defer srv.Close()
	c := New(httpGetter{srv.Client()}, nil, srv.URL)
	ctx := context.Background()
	if _, err := c.Resolve(ctx, "NGC 1275"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Resolve(ctx, "NGC 1275"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "µs/hit")
}
