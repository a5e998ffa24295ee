package fs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

const (
	// sniffLen is how much of a file decides whether it is text.
	sniffLen = 8 << 10
	// maxLineRunes is where a displayed line is cut.
	maxLineRunes = 2000
	// lineKeepBytes bounds what is kept of one line while reading: enough
	// for maxLineRunes runes of up to 4 bytes, plus a CR LF.
	lineKeepBytes = 4*maxLineRunes + 2
)

// looksBinary reports whether head, the first bytes of a file, is binary:
// it holds a NUL byte or is not valid UTF-8. When head was cut at sniffLen
// (more follows), a rune split at the end does not count.
func looksBinary(head []byte, more bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if more {
		// Drop at most one incomplete trailing rune.
		for i := 0; i < utf8.UTFMax-1 && len(head) > 0; i++ {
			r, size := utf8.DecodeLastRune(head)
			if r != utf8.RuneError || size != 1 {
				break
			}
			head = head[:len(head)-1]
		}
	}
	return !utf8.Valid(head)
}

// sniff reads the head of r (up to sniffLen bytes) and reports whether
// the file is binary.
func sniff(r io.Reader, size int64) (head []byte, binary bool, err error) {
	head = make([]byte, sniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, false, err
	}
	head = head[:n]
	return head, looksBinary(head, size > int64(n)), nil
}

// binaryNote describes a binary file in a sentence for the model.
func binaryNote(display string, head []byte, size int64) string {
	kind := http.DetectContentType(head)
	if kind == "text/plain; charset=utf-8" {
		kind = "not valid UTF-8 text"
	}
	return fmt.Sprintf("%s is a binary file (%s, %s); only text files can be shown. "+
		"For papers use get_paper_content, which reads the parsed Markdown.", display, kind, humanSize(size))
}

// humanSize formats a byte count: "812 B", "3.4 KB", "100.0 MB".
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTPE"[exp])
}

// lineReader reads lines of any length with bounded memory: at most
// lineKeepBytes of a line are kept, the rest is counted and dropped.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its line ending, and the line's full
// length in bytes when it had to be cut (0 when whole). keep false skips
// the copy (for lines before the offset). It returns io.EOF after the last
// line; a final line without a newline is still a line.
func (lr *lineReader) next(keep bool) (line []byte, cutFrom int, err error) {
	lr.buf = lr.buf[:0]
	total := 0
	for {
		chunk, err := lr.br.ReadSlice('\n')
		total += len(chunk)
		if keep && len(lr.buf) < lineKeepBytes {
			lr.buf = append(lr.buf, chunk[:min(len(chunk), lineKeepBytes-len(lr.buf))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || total == 0) {
			return nil, 0, err
		}
		break
	}
	if !keep {
		return nil, 0, nil
	}
	line = lr.buf
	whole := len(line) == total
	if whole {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	if !whole || utf8.RuneCount(line) > maxLineRunes {
		return cutRunes(line, maxLineRunes), total, nil
	}
	return line, 0, nil
}

// cutRunes returns at most n runes of b.
func cutRunes(b []byte, n int) []byte {
	count := 0
	for i := range b {
		if utf8.RuneStart(b[i]) {
			if count == n {
				return b[:i]
			}
			count++
		}
	}
	return b
}

// displayLine makes a line safe to show: invalid UTF-8 and NUL bytes become
// U+FFFD.
func displayLine(b []byte) []byte {
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return b
	}
	b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	return bytes.ReplaceAll(b, []byte{0}, []byte("\uFFFD"))
}
