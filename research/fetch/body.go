package fetch

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

const (
	// chunkSize is the read size when streaming.
	chunkSize = 32 << 10
	// maxPrealloc bounds the buffer allocated up front from Content-Length.
	maxPrealloc = 1 << 20
)

// readAll returns a consumer that buffers the whole body, up to limit bytes.
func readAll(limit int64) func(*http.Response, *Response) error {
	return func(hr *http.Response, r *Response) error {
		var buf bytes.Buffer
		// Trust an announced length only so far: a server claiming a large
		// body and sending none must not make us allocate it.
		buf.Grow(int(min(max(hr.ContentLength, 0), maxPrealloc, limit)))
		n, err := buf.ReadFrom(io.LimitReader(hr.Body, limit+1))
		r.Size = n
		if err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		if n > limit {
			// The body is closed undrained by the caller, which drops the
			// connection instead of reading the rest.
			return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		r.Body = buf.Bytes()
		return nil
	}
}

// streamTo returns a consumer that copies the body to w, up to limit bytes,
// calling progress (if not nil) after every chunk with the bytes read so far
// and the announced length (-1 when unknown).
func streamTo(w io.Writer, progress func(read, total int64), limit int64) func(*http.Response, *Response) error {
	return func(hr *http.Response, r *Response) error {
		buf := make([]byte, chunkSize)
		for {
			n, rerr := hr.Body.Read(buf)
			if n > 0 {
				if r.Size+int64(n) > limit {
					return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
				}
				if _, err := w.Write(buf[:n]); err != nil {
					return fmt.Errorf("write body: %w", err)
				}
				r.Size += int64(n)
				if progress != nil {
					progress(r.Size, hr.ContentLength)
				}
			}
			if rerr == io.EOF {
				return nil
			}
			if rerr != nil {
				return fmt.Errorf("read body: %w", rerr)
			}
		}
	}
}
