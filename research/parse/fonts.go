package parse

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// fontRun is one text run of pdftohtml -xml: where it is, how many
// characters it has and what its font is.
type fontRun struct {
	box
	chars int
	font  fontStyle
}

// fontStyle is what a font's name says about it.
type fontStyle struct {
	size                     float64
	bold, italic, mono, math bool
}

var (
	// The name patterns of bold, italic, monospaced and math fonts in
	// TeX's and the common PostScript families (CMBX is Computer Modern
	// bold; "Medi" is URW's medium Times, bold in TeX documents).
	boldFontRe   = regexp.MustCompile(`(?i)bold|black|heavy|semibold|demi|-medi|cmbx|cmb[0-9]|cmssbx|\bbx|libertinetb|-bd\b|\bbd[0-9]`)
	italicFontRe = regexp.MustCompile(`(?i)ital|oblique|cmti|cmsl|-it\b|-regita|libertineti|[-,]?italic`)
	monoFontRe   = regexp.MustCompile(`(?i)cmtt|courier|mono|txtt|typewriter|inconsolata|lmtt|beramono|\btt[0-9]`)
	mathFontRe   = regexp.MustCompile(`(?i)cmmi|cmsy|cmex|msam|msbm|math|symbol|stix|eufm|rsfs|mtmi|mtsy|txmi|txsy|txex|pxmi|pxsy|lmmi|lmsy|lmex|esint|wasy|cmbsy|cmmib|ntxmi|ntxsy|newtxmath|zxlr|mnsymbol`)
)

// styleOf classifies a font by its name.
func styleOf(family string, size float64) fontStyle {
	if _, name, ok := strings.Cut(family, "+"); ok {
		family = name // drop the subset prefix "ABCDEF+"
	}
	return fontStyle{size: size, bold: boldFontRe.MatchString(family), italic: italicFontRe.MatchString(family),
		mono: monoFontRe.MatchString(family), math: mathFontRe.MatchString(family)}
}

// readFontRuns decodes pdftohtml -xml -zoom 1 output into the text runs
// of each page (coordinates in points, as pdftotext's). Like readBBox it
// reads the regular format with a small scanner; anything unexpected is
// skipped.
func readFontRuns(r io.Reader, maxPages int) ([][]fontRun, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	fonts := map[string]fontStyle{}
	var pages [][]fontRun
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "<page "):
			if maxPages > 0 && len(pages) >= maxPages {
				return nil, errTooManyPages
			}
			pages = append(pages, nil)
		case strings.HasPrefix(l, "<fontspec "):
			fonts[attrString(l, "id")] = styleOf(attrString(l, "family"), attrFloat(l, "size"))
		case strings.HasPrefix(l, "<text ") && len(pages) > 0:
			end := strings.IndexByte(l, '>')
			if end < 0 {
				continue
			}
			attrs := l[:end]
			x, y := attrFloat(attrs, "left"), attrFloat(attrs, "top")
			run := fontRun{box: box{x, y, x + attrFloat(attrs, "width"), y + attrFloat(attrs, "height")},
				chars: textLen(l[end+1:]), font: fonts[attrString(attrs, "font")]}
			pages[len(pages)-1] = append(pages[len(pages)-1], run)
		}
	}
	return pages, sc.Err()
}

// attrString reads name="value" from a tag.
func attrString(tag, name string) string {
	i := strings.Index(tag, " "+name+`="`)
	if i < 0 {
		return ""
	}
	v := tag[i+len(name)+3:]
	if end := strings.IndexByte(v, '"'); end >= 0 {
		return v[:end]
	}
	return ""
}

// textLen counts the characters of a run's markup that are not tags.
func textLen(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in && r != ' ':
			n++
		}
	}
	return n
}

func styleLine(l *line, runs []fontRun) {
	var total, bold, italic, mono, math int
	sizes := map[float64]int{}
	for _, r := range runs {
		cy := (r.y0 + r.y1) / 2
		if cy < l.y0-1 || cy > l.y1+1 || r.x1 <= l.x0 || r.x0 >= l.x1 {
			continue
		}
		total += r.chars
		sizes[r.font.size] += r.chars
		for _, c := range []struct {
			on bool
			n  *int
		}{{r.font.bold, &bold}, {r.font.italic, &italic}, {r.font.mono, &mono}, {r.font.math, &math}} {
			if c.on {
				*c.n += r.chars
			}
		}
	}
	if total == 0 {
		return
	}
	best := 0
	for s, n := range sizes {
		if n > best {
			l.fontSize, best = s, n
		}
	}
	l.styled = true
	l.bold = bold*10 >= total*6
	l.italic = italic*10 >= total*6
	l.mono = mono*10 >= total*6
	l.mathShare = float64(math) / float64(total)
}
