package measure

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/store"
)

// FormatValue writes a value with its uncertainty or bound as text:
// "73.04 ± 1.04", "6.8 +0.4/−0.3", "< 3.2", "~ 1 × 10^13", "800–1200",
// "(8 ± 2) × 10^8".
func FormatValue(m store.Measurement) string {
	m, e := scaled(m)
	v := short(m.Value)
	switch m.Bound {
	case "range":
		v += "–" + short(m.Upper)
	case "<", ">", "~":
		v = m.Bound + " " + v
	}
	hasErr := m.Bound != "range" && (m.ErrPlus != 0 || m.ErrMinus != 0)
	switch {
	case !hasErr:
	case m.ErrPlus == m.ErrMinus:
		v += " ± " + short(m.ErrPlus)
	default:
		v += " +" + short(m.ErrPlus) + "/−" + short(m.ErrMinus)
	}
	if e != 0 {
		if hasErr || m.Bound == "range" {
			v = "(" + v + ")"
		}
		v += " × 10^" + strconv.Itoa(e)
	}
	return v
}

// scaled writes very large or small values as mantissas of a power of
// ten: it returns m divided by 10^e.
func scaled(m store.Measurement) (store.Measurement, int) {
	a := math.Abs(m.Value)
	if a == 0 || (a < 1e5 && a >= 1e-3) || math.IsInf(a, 0) || math.IsNaN(a) {
		return m, 0
	}
	e := int(math.Floor(math.Log10(a)))
	m.Value, m.Upper = scaleBy(m.Value, -e), scaleBy(m.Upper, -e)
	m.ErrPlus, m.ErrMinus = scaleBy(m.ErrPlus, -e), scaleBy(m.ErrMinus, -e)
	return m, e
}

// short is a number without float noise (12 significant digits at most).
func short(v float64) string { return strconv.FormatFloat(v, 'g', 12, 64) }

// WriteCSV writes the table as CSV: one row per value with its paper.
// Every cell is quoted; a text cell that a spreadsheet would run as a
// formula (starting with = + - @, tab or carriage return) also gets a
// leading apostrophe. Numbers are written by strconv (a negative number
// stays a number, never a formula).
func WriteCSV(w io.Writer, t Table, keys map[int64]string) error {
	var b strings.Builder
	b.WriteString(csvText("quantity") + "," + csvText("value") + "," + csvText("err_plus") + "," + csvText("err_minus") + "," +
		csvText("bound") + "," + csvText("upper") + "," + csvText("unit") + "," + csvText("object") + "," + csvText("year") + "," +
		csvText("paper_id") + "," + csvText("bibcode") + "," + csvText("cite_key") + "," + csvText("title") + "," + csvText("sentence") + "\r\n")
	for _, r := range t.Rows {
		year, bibcode := "", ""
		if r.Year != nil {
			year = strconv.Itoa(*r.Year)
		}
		if r.Bibcode != nil {
			bibcode = *r.Bibcode
		}
		cells := []string{csvText(r.Quantity), csvNum(r.Value), csvNum(r.ErrPlus), csvNum(r.ErrMinus), csvText(r.Bound), csvNum(r.Upper),
			csvText(r.Unit), csvText(r.Object), `"` + year + `"`, `"` + strconv.FormatInt(r.PaperID, 10) + `"`, csvText(bibcode),
			csvText(keys[r.PaperID]), csvText(r.Title), csvText(r.Sentence)}
		b.WriteString(strings.Join(cells, ",") + "\r\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// csvNum quotes a number.
func csvNum(v float64) string { return `"` + fmtNum(v) + `"` }

// csvText quotes a text cell, defusing spreadsheet formulas (also behind
// leading spaces, which some spreadsheets drop before evaluating).
func csvText(s string) string {
	if t := strings.TrimLeft(s, " \u00a0"); t != "" && strings.ContainsRune("=+-@\t\r", rune(t[0])) {
		s = "'" + s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Deluxetable writes the table as an AASTeX deluxetable whose \citet keys
// are keys (the library's BibTeX export keys for the same papers).
func Deluxetable(t Table, keys map[int64]string) string {
	var b strings.Builder
	title := t.Quantity
	if title == "" {
		title = "Values"
	}
	caption := texEscape(title) + " reported in the library"
	if t.Object != "" {
		caption = texEscape(title) + " of " + texEscape(t.Object) + " reported in the library"
	}
	fmt.Fprintf(&b, "\\begin{deluxetable}{llcl}\n\\tablecaption{%s\\label{tab:%s}}\n", caption, labelKey(title))
	b.WriteString("\\tablehead{\\colhead{Object} & \\colhead{Value} & \\colhead{Unit} & \\colhead{Reference}}\n\\startdata\n")
	for _, r := range t.Rows {
		ref := "paper " + strconv.FormatInt(r.PaperID, 10)
		if k := keys[r.PaperID]; safeCiteKey(k) {
			ref = "\\citet{" + k + "}"
		}
		fmt.Fprintf(&b, "%s & %s & %s & %s \\\\\n", texEscape(r.Object), texValue(r), texUnit(r.Unit), ref)
	}
	b.WriteString("\\enddata\n\\end{deluxetable}\n")
	return b.String()
}

// texValue is the value in math mode, asymmetric errors as ^{+a}_{-b}.
func texValue(m store.Measurement) string {
	m, e := scaled(m)
	v := short(m.Value)
	switch m.Bound {
	case "range":
		v += "\\mbox{--}" + short(m.Upper)
	case "<":
		v = "<" + v
	case ">":
		v = ">" + v
	case "~":
		v = "\\sim " + v
	}
	hasErr := m.Bound != "range" && (m.ErrPlus != 0 || m.ErrMinus != 0)
	switch {
	case !hasErr:
	case m.ErrPlus == m.ErrMinus:
		v += " \\pm " + short(m.ErrPlus)
	default:
		v += "^{+" + short(m.ErrPlus) + "}_{-" + short(m.ErrMinus) + "}"
	}
	if e != 0 {
		if hasErr || m.Bound == "range" {
			v = "(" + v + ")"
		}
		v += " \\times 10^{" + strconv.Itoa(e) + "}"
	}
	return "$" + v + "$"
}

// texUnit writes a canonical unit in TeX ("km s⁻¹ Mpc⁻¹" →
// "km\,s$^{-1}$\,Mpc$^{-1}$").
func texUnit(u string) string {
	u = texEscape(u)
	return strings.NewReplacer("⁻¹", "$^{-1}$", "⁻²", "$^{-2}$", "⁻³", "$^{-3}$", "²", "$^{2}$", "³", "$^{3}$",
		"M☉", "$M_\\odot$", "L☉", "$L_\\odot$", "R☉", "$R_\\odot$", "M⊕", "$M_\\oplus$", "μ", "$\\mu$", " ", "\\,").Replace(u)
}

// texEscape makes text from papers safe inside LaTeX.
func texEscape(s string) string {
	return strings.NewReplacer(`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`, "$", `\$`, "&", `\&`, "#", `\#`,
		"%", `\%`, "_", `\_`, "^", `\^{}`, "~", `\~{}`, "\n", " ").Replace(s)
}

// safeCiteKey reports whether k may stand inside \citet{}: a bibcode or
// local key (letters, digits, ". & : + - _ /"). A key from elsewhere that
// could close the brace or start a command (\input, \write18) is left
// out and the row cites "paper N" instead.
func safeCiteKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".&:+-_/", r)) {
			return false
		}
	}
	return true
}

func labelKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "values"
	}
	return b.String()
}

// fmtNum writes a number for machines (CSV): shortest exact form.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
