package shell

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCapture(t *testing.T) {
	cases := []struct {
		name      string
		limit     int
		writes    []string
		want      string
		truncated bool
	}{
		{"empty", 10, nil, "", false},
		{"under the cap", 10, []string{"abc", "def"}, "abcdef", false},
		{"exactly the cap", 10, []string{"0123456789"}, "0123456789", false},
		{"over the cap in one write", 10, []string{"0123456789ABCDEF"}, "01234\n[... 6 bytes omitted ...]\nBCDEF", true},
		{"over the cap in small writes", 10, strings.Split("0123456789ABCDEF", ""), "01234\n[... 6 bytes omitted ...]\nBCDEF", true},
		{"ring wraps several times", 4, []string{"ab", "cdef", "ghij", "k"}, "ab\n[... 7 bytes omitted ...]\njk", true},
		{"rune cut at the head seam", 6, []string{"ab€", "0123456789"}, "ab\n[... 10 bytes omitted ...]\n789", true},
		{"rune cut at the tail seam", 6, []string{"0123456789", "€x"}, "012\n[... 10 bytes omitted ...]\nx", true},
		{"whole rune at the tail seam", 6, []string{"0123456789", "x€"}, "012\n[... 8 bytes omitted ...]\n€", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(tc.limit)
			var total int
			for _, w := range tc.writes {
				n, err := c.Write([]byte(w))
				if err != nil || n != len(w) {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
				total += n
			}
			got, truncated := c.String()
			if got != tc.want || truncated != tc.truncated {
				t.Fatalf("String() = %q, %v; want %q, %v", got, truncated, tc.want, tc.truncated)
			}
			if c.Total() != int64(total) {
				t.Fatalf("Total() = %d, want %d", c.Total(), total)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("String() is not valid UTF-8: %q", got)
			}
		})
	}
}

// TestCaptureBounded writes 50 MB and checks that the capture's buffers
// never grew past the limit.
func TestCaptureBounded(t *testing.T) {
	c := newCapture(1000)
	chunk := bytes.Repeat([]byte("0123456789"), 3277)
	var total int64
	for total < 50<<20 {
		n, _ := c.Write(chunk)
		total += int64(n)
	}
	if cap(c.head) != 500 || len(c.tail) != 500 {
		t.Fatalf("buffers grew: head cap %d, tail len %d", cap(c.head), len(c.tail))
	}
	got, truncated := c.String()
	if !truncated || len(got) > 1100 || !strings.Contains(got, "bytes omitted") {
		t.Fatalf("String() = %d bytes, truncated %v", len(got), truncated)
	}
}
