package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

const twoGiB = int64(2) << 30

// hugeServer streams up to two GiB lazily from one 64 KiB buffer, recording
// how much it managed to write before the client went away.
func hugeServer(t *testing.T, contentLength bool) (*fakeServer, *atomic.Int64, <-chan struct{}) {
	t.Helper()
	var written atomic.Int64
	done := make(chan struct{}, 1)
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		defer func() { done <- struct{}{} }()
		if contentLength {
			w.Header().Set("Content-Length", strconv.FormatInt(twoGiB, 10))
		}
		for written.Load() < twoGiB {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	return srv, &written, done
}

// waitDone waits for the handler to return, failing the test if it keeps
// streaming (which would mean the client kept reading).
func waitDone(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("server still streaming: client did not stop reading")
	}
}

func TestByteCapStopsTwoGiBBody(t *testing.T) {
	const limit = 1 << 20
	tests := []struct {
		name   string
		stream bool
	}{{"Do", false}, {"Stream", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, written, done := hugeServer(t, false)
			c := New(testOptions(srv.URL))
			var err error
			var sink countingWriter
			if tt.stream {
				req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
				_, err = c.Stream(t.Context(), req, &sink, nil, WithMaxBytes(limit))
			} else {
				_, err = c.Get(t.Context(), srv.URL, WithMaxBytes(limit))
			}
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if sink.n > limit {
				t.Errorf("writer received %d bytes, cap %d", sink.n, limit)
			}
			waitDone(t, done)
			if w := written.Load(); w >= twoGiB/8 {
				t.Errorf("server wrote %d bytes before the client hung up", w)
			}
		})
	}
}

func TestContentLengthOverCapRefusedBeforeReading(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.FormatInt(twoGiB, 10))
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // send no body: the client must decide on the header
	})
	c := New(testOptions(srv.URL))
	_, err := c.Get(t.Context(), srv.URL)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Get err = %v, want ErrTooLarge", err)
	}
	var sink countingWriter
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	progressed := false
	_, err = c.Stream(t.Context(), req, &sink, func(int64, int64) { progressed = true })
	if !errors.Is(err, ErrTooLarge) || sink.n != 0 || progressed {
		t.Fatalf("Stream err = %v, wrote %d, progress %v; want ErrTooLarge, 0, false", err, sink.n, progressed)
	}
}

func TestGzipBombCapped(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(make([]byte, 2<<20))
	zw.Close()
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	_, err := New(testOptions(srv.URL)).Get(t.Context(), srv.URL, WithMaxBytes(1<<20))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge (cap applies after decompression)", err)
	}
}

func TestMaxBytes(t *testing.T) {
	body := bytes.Repeat([]byte("a"), 1000)
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	tests := []struct {
		name string
		opt  int64
		call []Option
		want error
	}{
		{"default fits", 0, nil, nil},
		{"exactly the cap", 1000, nil, nil},
		{"one byte over", 999, nil, ErrTooLarge},
		{"per-call raise", 10, []Option{WithMaxBytes(1000)}, nil},
		{"per-call lower", 0, []Option{WithMaxBytes(10)}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := testOptions(srv.URL)
			opt.MaxBytes = tt.opt
			resp, err := New(opt).Get(t.Context(), srv.URL, tt.call...)
			if tt.want == nil && (err != nil || len(resp.Body) != 1000) || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestStreamProgress(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 20000)
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	var out bytes.Buffer
	var last, total int64
	calls := 0
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/paper.pdf", nil)
	resp, err := New(testOptions(srv.URL)).Stream(t.Context(), req, &out, func(read, tot int64) {
		if read <= last {
			t.Errorf("progress went from %d to %d", last, read)
		}
		last, total = read, tot
		calls++
	}, WithExpectType("application/pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), body) || resp.Body != nil || resp.Size != int64(len(body)) {
		t.Fatalf("streamed %d bytes, Size %d, Body nil %v", out.Len(), resp.Size, resp.Body == nil)
	}
	if calls == 0 || last != int64(len(body)) || total != int64(len(body)) {
		t.Fatalf("progress: %d calls, last %d/%d", calls, last, total)
	}
}

func TestTimeouts(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mid-body" {
			w.Write([]byte("half"))
			w.(http.Flusher).Flush()
		}
		select { // hold the response until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	})
	tests := []struct {
		name string
		path string
		opt  time.Duration
		call []Option
	}{
		{"no headers", "/slow", 50 * time.Millisecond, nil},
		{"stalled body", "/mid-body", 50 * time.Millisecond, nil},
		{"per-call timeout", "/slow", time.Hour, []Option{WithTimeout(50 * time.Millisecond)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := testOptions(srv.URL)
			opt.Timeout = tt.opt
			_, err := New(opt).Get(t.Context(), srv.URL+tt.path, tt.call...)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want context.DeadlineExceeded", err)
			}
		})
	}
	t.Run("caller cancels", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := New(testOptions(srv.URL)).Get(ctx, srv.URL+"/slow")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestExpectType(t *testing.T) {
	tests := []struct {
		header string
		types  []string
		ok     bool
	}{
		{"application/pdf", []string{"application/pdf"}, true},
		{"Application/PDF; name=x.pdf", []string{"application/pdf"}, true},
		{"text/html; charset=utf-8", []string{"application/pdf", "text/html"}, true},
		{"text/xml", []string{"text/*"}, true},
		{"application/xml", []string{"text/*"}, false},
		{"text/html", []string{"application/pdf"}, false},
		{"", []string{"application/pdf"}, false},
		{"garbage;;", []string{"garbage"}, false},
	}
	for _, tt := range tests {
		resp := &Response{Header: http.Header{"Content-Type": {tt.header}}}
		err := ExpectType(resp, tt.types...)
		if tt.ok && err != nil || !tt.ok && !errors.Is(err, ErrUnexpectedType) {
			t.Errorf("ExpectType(%q, %q) = %v, want ok=%v", tt.header, tt.types, err, tt.ok)
		}
	}
}

func TestWithExpectType(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/missing" {
			w.WriteHeader(http.StatusNotFound)
		}
		io.WriteString(w, "<html>login wall</html>")
	})
	c := New(testOptions(srv.URL))
	if _, err := c.Get(t.Context(), srv.URL+"/paper.pdf", WithExpectType("application/pdf")); !errors.Is(err, ErrUnexpectedType) {
		t.Fatalf("200 text/html: err = %v, want ErrUnexpectedType", err)
	}
	resp, err := c.Get(t.Context(), srv.URL+"/missing", WithExpectType("application/pdf"))
	if err != nil || resp.Status != http.StatusNotFound {
		t.Fatalf("404: got %v, %v; want the response, no error", resp, err)
	}
}

// countingWriter counts and discards.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}
