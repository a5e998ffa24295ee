package measure

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// maxSentence bounds the sentences scanned: longer "sentences" are tables
// or references run together, and scanning them costs more than it finds.
const maxSentence = 4000

// Extract returns the values reported in text (Markdown as the parsers
// write it), in order. Sentence, Start and End locate each value's
// sentence in text. Safe for concurrent use; never fails — text without
// values gives none.
func Extract(text string) []Measurement {
	var out []Measurement
	var headers map[int][]string
	if strings.Contains(text, "|") {
		headers = tableHeaders(text)
	}
	for _, sp := range sentences(text) {
		raw := text[sp.start:sp.end]
		if sp.end-sp.start > maxSentence || !strings.ContainsAny(raw, "0123456789") {
			continue
		}
		found := extractSentence
		if h, ok := headers[sp.start]; ok {
			found = func(row string) []Measurement { return extractRow(row, h) }
		}
		for _, m := range found(raw) {
			m.Sentence, m.Start, m.End = raw, sp.start, sp.end
			out = append(out, m)
		}
	}
	return out
}

// extractSentence scans one sentence's normalised text value by value.
func extractSentence(raw string) []Measurement {
	n := normalize(raw)
	objs := objectsIn(n)
	var out []Measurement
	prevEnd := 0
	for i := 0; i < len(n); {
		if end, inside := insideObject(objs, i); inside {
			i = end
			continue
		}
		if !numberStart(n, i) {
			i++
			continue
		}
		sc := scanner{s: n, start: i, prevEnd: prevEnd}
		m, end, ok := sc.scan()
		if !ok {
			i = skipNumber(n, i)
			continue
		}
		m.Object = objectFor(n, objs, i)
		out = append(out, m)
		prevEnd, i = end, end
	}
	return out
}

func insideObject(objs [][2]int, i int) (int, bool) {
	for _, o := range objs {
		if i >= o[0] && i < o[1] {
			return o[1], true
		}
	}
	return 0, false
}

// numberStart reports whether a number that is not part of a word, an
// identifier or a subscript starts at s[i].
func numberStart(s string, i int) bool {
	c := s[i]
	if c == '-' {
		if i+1 >= len(s) || !isDigit(s[i+1]) {
			return false
		}
	} else if !isDigit(c) {
		return false
	}
	if i == 0 {
		return true
	}
	p := s[i-1]
	switch {
	case isDigit(p) || p == '.' || p == '_' || p == '^' || p == '/' || p == '+' || p == '-' || p == '[':
		return false
	case p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z':
		return false
	case p >= 0x80:
		// a letter such as σ or Ω just before: a subscripted symbol
		r := []rune(s[:i])
		last := r[len(r)-1]
		return last == '~' || last == '×' || last == '±' || last == '☉' || last == '–'
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func skipNumber(s string, i int) int {
	i++
	for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
		i++
	}
	return i
}

var (
	numberRe   = regexp.MustCompile(`^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?`)
	pmRe       = regexp.MustCompile(`^\s*±\s*(` + num + `)`)
	asymErrRe  = regexp.MustCompile(`^\s*\+\s*(` + num + `)\s*/\s*-\s*(` + num + `)`)
	errKindRe  = regexp.MustCompile(`^\s*\(?\s*(stat|statistical|sys|syst|systematic|systematics)\.?\s*\)?`)
	timesTenRe = regexp.MustCompile(`^\s*×\s*10\s*\^\s*([-+]?[0-9]+)`)
	rangeRe    = regexp.MustCompile(`^\s*(?:–|-|to)\s*(-?` + num + `)`)
	andRe      = regexp.MustCompile(`^\s*and\s+(-?` + num + `)`)
	betweenRe  = regexp.MustCompile(`\s*<\s*([^<>=0-9]{1,24}?)\s*<\s*(-?` + num + `)`)
	productRe  = regexp.MustCompile(`^\s*×\s*[0-9.]+\s*[^0-9\s]`)
	logParenRe = regexp.MustCompile(`^\^\(\s*(-?` + num + `)\s*±\s*(` + num + `)\s*\)`)
	powTenRe   = regexp.MustCompile(`^\^\s*([-+]?[0-9]+(?:\.[0-9]+)?)`)
)

// scanner reads one value starting at s[start]; prevEnd is where the
// previous value ended (the words between name this one).
type scanner struct {
	s              string
	start, prevEnd int
	p              int // read position
}

func (sc *scanner) rest() string { return sc.s[sc.p:] }

// scan reads the value, its uncertainties, power of ten and unit, then
// decides from the words before it whether it is a reported value.
func (sc *scanner) scan() (Measurement, int, bool) {
	var m Measurement
	lit := numberRe.FindString(sc.s[sc.start:])
	if lit == "" {
		return m, 0, false
	}
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(v, 0) {
		return m, 0, false
	}
	sc.p = sc.start + len(lit)
	m.Value = v
	logForm := false
	if lit == "10" {
		if g := logParenRe.FindStringSubmatch(sc.rest()); g != nil {
			m.Value, m.ErrPlus, logForm = atof(g[1]), atof(g[2]), true
			m.ErrMinus = m.ErrPlus
			sc.p += len(g[0])
		} else if g := powTenRe.FindStringSubmatch(sc.rest()); g != nil {
			e := atof(g[1])
			if e != math.Trunc(e) {
				m.Value, logForm = e, true
			} else {
				m.Value = math.Pow(10, e)
			}
			sc.p += len(g[0])
		}
	}
	before := sc.s[sc.prevEnd:sc.start]
	if g := rangeRe.FindStringSubmatch(sc.rest()); g != nil && !logForm && !strings.HasSuffix(strings.TrimSpace(before), "±") {
		m.Upper, m.Bound = atof(g[1]), "range"
		sc.p += len(g[0])
	} else if g := andRe.FindStringSubmatch(sc.rest()); g != nil && strings.HasSuffix(strings.ToLower(strings.TrimSpace(before)), "between") {
		m.Upper, m.Bound = atof(g[1]), "range"
		sc.p += len(g[0])
	}
	hasErr := logForm && m.ErrPlus > 0
	if !logForm {
		hasErr = sc.errors(&m)
	}
	if strings.HasPrefix(sc.rest(), ")") && strings.HasSuffix(sc.s[:sc.start], "(") {
		sc.p++
	}
	if g := timesTenRe.FindStringSubmatch(sc.rest()); g != nil && !logForm {
		e := int(atof(g[1]))
		m.Value, m.Upper = scaleBy(m.Value, e), scaleBy(m.Upper, e)
		m.ErrPlus, m.ErrMinus = scaleBy(m.ErrPlus, e), scaleBy(m.ErrMinus, e)
		m.ErrStat, m.ErrSys = scaleBy(m.ErrStat, e), scaleBy(m.ErrSys, e)
		sc.p += len(g[0])
		if !hasErr {
			hasErr = sc.errors(&m) // "4.3 × 10^6 ± ..." is rare; harmless
		}
	}
	var symRange string
	if m.Bound == "" && !hasErr {
		if g := betweenRe.FindStringSubmatch(sc.rest()); g != nil && strings.HasPrefix(sc.rest(), " <") || g != nil && strings.HasPrefix(sc.rest(), "<") {
			symRange, m.Upper, m.Bound = g[1], atof(g[2]), "range"
			sc.p += len(g[0])
		}
	}
	u := parseUnit(sc.rest())
	if u.n == 0 {
		// A flattened table row: "67.4 ± 0.5 & km s^-1 Mpc^-1 \\".
		if r := strings.TrimLeft(sc.rest(), " "); strings.HasPrefix(r, "&") {
			skip := len(sc.rest()) - len(r) + 1
			if u2 := parseUnit(sc.rest()[skip:]); u2.n > 0 {
				u = parsedUnit{factors: u2.factors, n: skip + u2.n}
			}
		}
	}
	cu, unitOK := canonical(u)
	if !unitOK && u.key() == "s" && (hasErr || keywordBefore(tail(before, 80)) == "period") {
		// Seconds alone are exposure times unless they carry an error or
		// follow "period": "P = 0.0893 ± 0.0001 s", "the spin period is 1.337 s".
		cu, unitOK = canonicalUnit{unit: "s", quantity: "period"}, true
	}
	if u.n > 0 && unitOK {
		sc.p += u.n
		if productRe.MatchString(sc.rest()) {
			return m, 0, false // "0.5″ × 0.4″": a size in two dimensions
		}
	} else if sc.p < len(sc.s) && isLetterByte(sc.s[sc.p]) {
		return m, 0, false // "19A", "2011fe", "5σ": part of a name
	} else {
		cu, unitOK = canonicalUnit{}, false
	}
	if !sc.decide(&m, before, symRange, hasErr, logForm, cu, unitOK) || !finite(m) {
		return m, 0, false
	}
	return m, sc.p, true
}

// finite reports whether every number of m is finite ("10^999" is not).
func finite(m Measurement) bool {
	for _, v := range []float64{m.Value, m.Upper, m.ErrPlus, m.ErrMinus, m.ErrStat, m.ErrSys} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func isLetterByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func atof(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v
}

// errors reads "± a", "+a/-b", and "(stat) ± b (sys)" after a value.
func (sc *scanner) errors(m *Measurement) bool {
	var plus, minus float64
	if g := pmRe.FindStringSubmatch(sc.rest()); g != nil {
		plus, minus = atof(g[1]), atof(g[1])
		sc.p += len(g[0])
	} else if g := asymErrRe.FindStringSubmatch(sc.rest()); g != nil {
		plus, minus = atof(g[1]), atof(g[2])
		sc.p += len(g[0])
	} else {
		return false
	}
	m.ErrPlus, m.ErrMinus = plus, minus
	k := errKindRe.FindStringSubmatch(sc.rest())
	if k == nil {
		return true
	}
	sc.p += len(k[0])
	g := pmRe.FindStringSubmatch(sc.rest())
	if g == nil {
		return true
	}
	second := atof(g[1])
	sc.p += len(g[0])
	if k2 := errKindRe.FindStringSubmatch(sc.rest()); k2 != nil {
		sc.p += len(k2[0])
	}
	stat, sys := (plus+minus)/2, second
	if strings.HasPrefix(k[1], "sys") {
		stat, sys = second, (plus+minus)/2
	}
	m.ErrStat, m.ErrSys = stat, sys
	m.ErrPlus, m.ErrMinus = quadrature(plus, second), quadrature(minus, second)
	return true
}
