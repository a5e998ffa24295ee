package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// gunzip decompresses a body, failing the test when it is not gzip.
func gunzip(t *testing.T, body string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatalf("body is not gzip: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStaticHashedNames: pages link the content-hashed name, which is
// served with a year's cache lifetime, gzipped when asked, answers HEAD and
// revalidates with its ETag; the plain name still answers with a short
// lifetime.
func TestStaticHashedNames(t *testing.T) {
	a := newApp(t, nil)
	c := a.client()
	page := c.get("/setup")
	m := regexp.MustCompile(`href="(/static/css/app\.[0-9a-f]{12}\.css)"`).FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("the login page does not link a hashed stylesheet:\n%s", page.body)
	}
	hashed := m[1]
	res := c.get(hashed, "Accept-Encoding", "identity")
	expectStatus(t, "hashed stylesheet", res, http.StatusOK)
	if res.body != "body{}" || res.Header.Get("Cache-Control") != hashedMaxAge || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("hashed stylesheet: %q with %v", res.body, res.Header)
	}
	plain := c.get("/static/css/app.css", "Accept-Encoding", "identity")
	if plain.body != "body{}" || plain.Header.Get("Cache-Control") != plainMaxAge {
		t.Fatalf("plain stylesheet: %q with %v", plain.body, plain.Header)
	}
	head := c.method(http.MethodHead, hashed)
	if head.StatusCode != http.StatusOK || head.body != "" || head.Header.Get("Content-Length") != "6" {
		t.Fatalf("HEAD %s = %d, body %q, length %q", hashed, head.StatusCode, head.body, head.Header.Get("Content-Length"))
	}
	etag := res.Header.Get("ETag")
	if again := c.get(hashed, "Accept-Encoding", "identity", "If-None-Match", etag); again.StatusCode != http.StatusNotModified || etag == "" {
		t.Fatalf("revalidation with ETag %q = %d", etag, again.StatusCode)
	}
	if res := c.method(http.MethodHead, "/static/embed.go"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("HEAD of a Go source = %d, want 404", res.StatusCode)
	}
}

// TestStaticGzip: a compressible asset is sent gzipped (compressed once at
// start-up) to clients that accept it, and plain to those that do not.
func TestStaticGzip(t *testing.T) {
	css := strings.Repeat(".timeline .card { margin: 0 0 1rem; padding: 0.5rem 1rem; }\n", 40)
	a, err := newAsset("css/app.css", []byte(css))
	if err != nil {
		t.Fatal(err)
	}
	if a.gz == nil || len(a.gz) >= len(css)/4 {
		t.Fatalf("repetitive CSS of %d bytes gzipped to %d", len(css), len(a.gz))
	}
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	for _, tc := range []struct {
		header string
		want   bool
	}{{"gzip, deflate, br", true}, {"br;q=1.0, gzip;q=0.8", true}, {"", false}, {"identity", false}, {"gzip;q=0", false}, {"*", true}} {
		r.Header.Set("Accept-Encoding", tc.header)
		if got := acceptsGzip(r); got != tc.want {
			t.Errorf("Accept-Encoding %q: acceptsGzip = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// TestCompressPages: pages are gzipped for clients that accept it, never
// the event stream, whose events still arrive one by one.
func TestCompressPages(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.get("/", "Accept-Encoding", "gzip")
	expectStatus(t, "home page", res, http.StatusOK)
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("home page headers %v", res.Header)
	}
	html := gunzip(t, res.body)
	if !strings.Contains(html, "Where to go") {
		t.Fatalf("decompressed home page lacks its content:\n%s", html)
	}
	t.Logf("home page HTML: %d bytes, %d gzipped", len(html), len(res.body))
	if plain := c.get("/", "Accept-Encoding", "identity"); plain.Header.Get("Content-Encoding") != "" || !strings.Contains(plain.body, "Where to go") {
		t.Fatalf("without gzip the page came %q", plain.Header.Get("Content-Encoding"))
	}
	// An error page goes through the compressor too, whole.
	nf := c.get("/research/nope", "Accept-Encoding", "gzip")
	if nf.StatusCode != http.StatusNotFound || !strings.Contains(gunzip(t, nf.body), "</html>") {
		t.Fatalf("404 page: %d %v", nf.StatusCode, nf.Header)
	}

	// The JSON event stream: not compressed, and readable event by event.
	id := createSession(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.url("/api/sessions/"+id+"/events"), nil)
	req.Header.Set("Accept-Encoding", "gzip")
	stream, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(stream.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("event stream headers %v", stream.Header)
	}
	a.fake.Enqueue(llmtest.Text("Stream me."))
	if res := c.postJSON("/api/sessions/"+id+"/turns", `{"question":"Is the stream plain?"}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("start turn = %d %s", res.StatusCode, res.body)
	}
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), "event: done") {
		n, err := stream.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("reading the stream: %v after %q", err, got.String())
		}
	}
	if !strings.Contains(got.String(), "event: session") {
		t.Fatalf("plain stream lacks the session event: %q", got.String())
	}
}
