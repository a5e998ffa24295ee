package parse

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// box is an axis-aligned rectangle in PDF points, y growing downwards.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) height() float64 { return b.y1 - b.y0 }

// word, line, block and page mirror pdftotext -bbox-layout's XHTML.
type (
	word struct {
		box
		text string
	}
	line struct {
		box
		words []word
		size  float64 // font size estimate: median word height
		// From the fonts (pdftohtml), when styled: the main font size and
		// whether most characters are bold, italic or monospaced, and the
		// share set in math fonts.
		styled             bool
		fontSize           float64
		bold, italic, mono bool
		mathShare          float64
	}
	block struct {
		box
		lines []line
	}
	page struct {
		width, height float64
		blocks        []block
		runs          []fontRun // the page's text runs with their fonts (none when unknown)
	}
)

// text is the line's words joined by spaces.
func (l line) text() string {
	var b strings.Builder
	for i, w := range l.words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.text)
	}
	return b.String()
}

// errTooManyPages is returned by readBBox when the document has more pages
// than allowed.
var errTooManyPages = errors.New("too many pages")

// readBBox decodes pdftotext -bbox-layout output. It stops with
// errTooManyPages once maxPages is passed (0: no limit). The format is
// regular (one element per line, double-quoted attributes, the five XML
// entities), so a small scanner reads it several times faster than
// encoding/xml; anything else in the input is skipped, never fatal.
func readBBox(r io.Reader, maxPages int) ([]page, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		pages []page
		pg    *page
		bl    *block
		ln    *line
		wd    *word
	)
	for {
		text, err := br.ReadString('<')
		if wd != nil {
			wd.text += strings.TrimSuffix(text, "<")
		}
		if err != nil {
			break
		}
		tag, err := br.ReadString('>')
		if err != nil {
			break
		}
		tag = strings.TrimSuffix(tag, ">")
		if strings.HasPrefix(tag, "/") {
			switch strings.TrimSpace(tag[1:]) {
			case "word":
				if wd != nil {
					wd.text = cleanText(wd.text)
					wd = nil
				}
			case "line":
				if ln != nil {
					ln.finish()
				}
				ln = nil
			case "block":
				bl = nil
			case "page":
				pg = nil
			}
			continue
		}
		name, attrs, _ := strings.Cut(tag, " ")
		switch name {
		case "page":
			if maxPages > 0 && len(pages) >= maxPages {
				return nil, errTooManyPages
			}
			pages = append(pages, page{width: attrFloat(attrs, "width"), height: attrFloat(attrs, "height")})
			pg, bl, ln, wd = &pages[len(pages)-1], nil, nil, nil
		case "block":
			if pg != nil {
				pg.blocks = append(pg.blocks, block{box: attrBox(attrs)})
				bl, ln = &pg.blocks[len(pg.blocks)-1], nil
			}
		case "line":
			if bl != nil {
				bl.lines = append(bl.lines, line{box: attrBox(attrs)})
				ln = &bl.lines[len(bl.lines)-1]
			}
		case "word":
			if ln != nil {
				ln.words = append(ln.words, word{box: attrBox(attrs)})
				wd = &ln.words[len(ln.words)-1]
			}
		}
	}
	return pages, nil
}

var entities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&#39;", "'")

// cleanText unescapes a word and drops what is not text: invalid UTF-8 and
// control characters pdftotext copies from the PDF.
func cleanText(s string) string {
	s = strings.TrimSpace(entities.Replace(s))
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// finish drops empty words and estimates the font size.
func (l *line) finish() {
	ws := l.words[:0]
	for _, w := range l.words {
		if w.text != "" {
			ws = append(ws, w)
		}
	}
	l.words = ws
	if len(ws) == 0 {
		return
	}
	hs := make([]float64, len(ws))
	for i, w := range ws {
		hs[i] = w.height()
	}
	l.size = median(hs)
}

func attrBox(attrs string) box {
	return box{attrFloat(attrs, "xMin"), attrFloat(attrs, "yMin"), attrFloat(attrs, "xMax"), attrFloat(attrs, "yMax")}
}

// attrFloat reads name="number" from a tag's attributes (0 when missing or
// not a sane number).
func attrFloat(attrs, name string) float64 {
	i := strings.Index(attrs, name+`="`)
	for i > 0 && attrs[i-1] != ' ' {
		j := strings.Index(attrs[i+1:], name+`="`)
		if j < 0 {
			return 0
		}
		i += 1 + j
	}
	if i < 0 {
		return 0
	}
	v := attrs[i+len(name)+2:]
	end := strings.IndexByte(v, '"')
	if end < 0 {
		return 0
	}
	f, err := strconv.ParseFloat(v[:end], 64)
	if err != nil || f != f || f > 1e7 || f < -1e7 {
		return 0
	}
	return f
}

// xmlSafe passes UTF-8 through with the characters XML forbids (C0
// controls other than tab and newlines, invalid bytes) replaced, as
// pdftotext copies them from the PDF unescaped.
type xmlSafe struct {
	r   *bufio.Reader
	buf []byte
}

func newXMLSafe(r io.Reader) *xmlSafe { return &xmlSafe{r: bufio.NewReaderSize(r, 64<<10)} }

func (x *xmlSafe) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(x.buf) > 0 {
			c := copy(p[n:], x.buf)
			x.buf, n = x.buf[c:], n+c
			continue
		}
		r, size, err := x.r.ReadRune()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		switch {
		case r == utf8.RuneError && size == 1:
			r = '\uFFFD'
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			r = ' '
		}
		if r < utf8.RuneSelf {
			p[n] = byte(r)
			n++
			continue
		}
		x.buf = utf8.AppendRune(x.buf[:0], r)
	}
	return n, nil
}
