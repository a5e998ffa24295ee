package handlers

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// compressTypes are the response types gzipped on the fly: pages,
// fragments, scripts, stylesheets, SVG and JSON. Event streams are never
// compressed (a compressor holds bytes back, and each event must reach the
// browser when it is flushed); static files arrive compressed already.
var compressTypes = []string{"text/html", "text/css", "text/javascript", "application/javascript",
	"image/svg+xml", "application/json"}

// minCompressBytes is the smallest response worth compressing, when its
// length is known in advance.
const minCompressBytes = 512

// gzipPool recycles compressors: each holds about 800 KB of state.
type gzipPool struct{ p sync.Pool }

func (g *gzipPool) get(w io.Writer) *gzip.Writer {
	zw, _ := g.p.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(w, gzip.DefaultCompression)
		return zw
	}
	zw.Reset(w)
	return zw
}

func (g *gzipPool) put(zw *gzip.Writer) {
	zw.Reset(io.Discard)
	g.p.Put(zw)
}

// compress gzips responses of compressTypes for clients that accept it.
// The choice is made when the handler writes its header, from the
// Content-Type it set. It sits outside Recover and renders errors itself,
// so that error pages go through the same compressor, which it then
// closes.
func (s *Server) compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodHead || !acceptsGzip(r) {
			return next(c)
		}
		res := c.Response()
		cw := &compressWriter{ResponseWriter: res.Writer, pool: &s.gzips}
		res.Writer = cw
		res.Header().Add("Vary", "Accept-Encoding")
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		if cerr := cw.close(); cerr != nil && err == nil {
			s.log.Warn("finishing a compressed response failed", "err", cerr, "path", logPath(r.URL.Path))
		}
		res.Writer = cw.ResponseWriter
		return nil
	}
}

// compressWriter decides at WriteHeader whether to compress.
type compressWriter struct {
	http.ResponseWriter
	pool    *gzipPool
	zw      *gzip.Writer // nil: passing through
	decided bool
}

func (w *compressWriter) WriteHeader(status int) {
	if !w.decided {
		w.decided = true
		if wantsCompression(w.Header(), status) {
			h := w.Header()
			h.Set("Content-Encoding", "gzip")
			h.Del("Content-Length")
			if et := h.Get("ETag"); et != "" && !strings.HasPrefix(et, "W/") {
				h.Set("ETag", "W/"+et) // the bytes differ from the plain response's
			}
			w.zw = w.pool.get(w.ResponseWriter)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if !w.decided {
		w.WriteHeader(http.StatusOK)
	}
	if w.zw != nil {
		return w.zw.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what is compressed so far, then flushes the connection.
func (w *compressWriter) Flush() {
	if w.zw != nil {
		_ = w.zw.Flush()
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack passes through (a hijacked connection is never compressed).
func (w *compressWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.zw != nil {
		return nil, nil, errors.New("handlers: cannot hijack a compressed response")
	}
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// close finishes the gzip stream and returns the compressor to the pool.
func (w *compressWriter) close() error {
	if w.zw == nil {
		return nil
	}
	err := w.zw.Close()
	w.pool.put(w.zw)
	w.zw = nil
	return err
}

// wantsCompression reports whether a response with these headers and
// status is compressed: a body of a compressible type, not encoded yet,
// not known to be tiny.
func wantsCompression(h http.Header, status int) bool {
	if status < 200 || status == http.StatusNoContent || status == http.StatusNotModified ||
		h.Get("Content-Encoding") != "" {
		return false
	}
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n < minCompressBytes {
		return false
	}
	ct := strings.ToLower(h.Get("Content-Type"))
	if strings.HasPrefix(ct, "text/event-stream") {
		return false
	}
	for _, t := range compressTypes {
		if strings.HasPrefix(ct, t) {
			return true
		}
	}
	return false
}
