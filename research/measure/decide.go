package measure

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

var symbolCutRe = regexp.MustCompile(`(?i).*(?:,|;|\bof\b|\bis\b|\bwith\b|\band\b|\bthat\b|\bthe\b|\ba\b|\bfind\b|\bwe\b|\bgives\b|\bat\b|\bhas\b|\bspans\b|\bwhere\b|\bobtain\b|\bmeasure\b|\bderive\b|\badopt\b)`)

// decide classifies the value from the words before it (bound, symbol,
// keyword) and its unit, fills Quantity, Unit and Bound, converts the
// unit, and reports whether it is a reported value at all.
func (sc *scanner) decide(m *Measurement, before, symRange string, hasErr, logForm bool, cu canonicalUnit, unitOK bool) bool {
	// The end-anchored patterns only ever look at the last words: give them
	// a short tail, not the whole clause (they scan from every position).
	b := tail(strings.TrimRight(before, " ("), 80)
	if isReference(b) {
		return false
	}
	bound, eq, rest := boundBefore(b)
	if m.Bound == "" {
		m.Bound = bound
	}
	sym := ""
	if eq || bound != "" {
		sym = symbolText(rest)
	}
	if symRange != "" {
		sym = symRange
	}
	sq, hasSym := symbolOf(sym)
	intro := isIntro(b) || eq || bound != "" || m.Bound == "range" && endsWithWord(b, rangeIntroWords)
	switch {
	case unitOK:
		if logForm {
			cu.unit = "log " + cu.unit
		}
		m.Unit = cu.unit
		m.Quantity = pickQuantity(sq, hasSym, keywordBefore(before), cu)
	case hasSym && sq.unit != "":
		m.Quantity, m.Unit = sq.quantity, sq.unit
	case hasSym && sq.quantity == "H0":
		m.Quantity, m.Unit = "H0", "km s⁻¹ Mpc⁻¹"
	case hasSym && (eq || bound != "" || symRange != ""):
		m.Quantity = sq.quantity
	case intro && dimensionlessKeyword(b) != "":
		m.Quantity = dimensionlessKeyword(b)
	case eq && hasErr && sym != "":
		// "log g = 4.44 ± 0.05", "M_V = -8.8 ± 0.3": a named symbol set
		// to a value with its error is reported, whatever it measures.
	default:
		return false
	}
	if unitOK && unitDims[cu.unit] == "length" && placedAtRe.MatchString(b) {
		intro = true // "the cluster is at 16.5 Mpc"
	}
	if unitOK && !intro && unitDims[cu.unit] != "" && !strings.HasSuffix(strings.TrimRight(before, " "), "(") {
		// "its metallicity 0.3 Z☉", "a velocity 300 km s^-1": the quantity
		// named in words right before a value in a unit that fits it (not
		// a header's "M_BH (10^8 M☉)").
		if q := keywordAtEnd(b); q != "" && unitDims[cu.unit] != "" && quantityDims[q] == unitDims[cu.unit] {
			intro = true
		}
	}
	if unitOK && !(hasErr || intro) {
		return false
	}
	if m.Quantity == "" && unitDims[m.Unit] == "length" && (atRe.MatchString(b) || distanceSymRe.MatchString(sym)) {
		m.Quantity = "distance" // "the cluster lies at 2.4 kpc"
	}
	if cu.pow != 0 && !logForm {
		scaleAll(m, cu.pow)
	}
	unit, p := toCanonical(m.Quantity, m.Unit)
	if p != 0 {
		m.Unit = unit
		scaleAll(m, p)
	}
	return true
}

var (
	atRe       = regexp.MustCompile(`(?i)\bat$`)
	placedAtRe = regexp.MustCompile(`(?i)\b(?:is|are|lies|lie|located|placed|place|places|puts)\b[^,;.]{0,40}\bat$`)
	// d, D, d_L, D_A: a distance symbol, trusted with a length unit.
	distanceSymRe = regexp.MustCompile(`(?i)^d(?:_?(?:l|a|m|lum|ang))?$`)
	dimlessKwRe   = regexp.MustCompile(`(?i)\b(redshift|eccentricity|spectral index|optical depth)\s*(?:of|is|was|=|:)?\s*$`)
)

// dimensionlessKeyword is the dimensionless quantity named right before a
// value in words ("a redshift of 0.0036").
func dimensionlessKeyword(before string) string {
	g := dimlessKwRe.FindStringSubmatch(strings.TrimSpace(before))
	if g == nil {
		return ""
	}
	switch strings.ToLower(g[1]) {
	case "redshift":
		return "redshift"
	case "eccentricity":
		return "eccentricity"
	case "spectral index":
		return "spectral_index"
	}
	return "tau"
}

// keywordAtEnd is the quantity whose keyword ends b (a whole word).
func keywordAtEnd(b string) string {
	b = strings.ToLower(tail(strings.TrimSpace(b), 24))
	for _, k := range keywords {
		if strings.ContainsAny(k.word, "_*0123456789") {
			continue // a symbol, not a word
		}
		if strings.HasSuffix(b, k.word) && (len(b) == len(k.word) || !isLetterByte(b[len(b)-len(k.word)-1])) {
			return k.quantity
		}
	}
	return ""
}

// tail is the last n bytes of s, cut at a rune boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

func scaleAll(m *Measurement, p int) {
	m.Value, m.Upper = scaleBy(m.Value, p), scaleBy(m.Upper, p)
	m.ErrPlus, m.ErrMinus = scaleBy(m.ErrPlus, p), scaleBy(m.ErrMinus, p)
	m.ErrStat, m.ErrSys = scaleBy(m.ErrStat, p), scaleBy(m.ErrSys, p)
}

// boundBefore reads the end of the text before a value: a limit or
// approximation sign or words, and "=". rest is the text before them.
func boundBefore(b string) (bound string, eq bool, rest string) {
	rest = strings.TrimSpace(b)
	for {
		switch {
		case strings.HasSuffix(rest, "="):
			eq = true
			rest = strings.TrimSpace(strings.TrimSuffix(rest, "="))
			continue
		case strings.HasSuffix(rest, "~"):
			if bound == "" {
				bound = "~"
			}
			rest = strings.TrimSpace(strings.TrimSuffix(rest, "~"))
			continue
		case strings.HasSuffix(rest, "<"):
			bound = "<"
			rest = strings.TrimSpace(strings.TrimSuffix(rest, "<"))
			continue
		case strings.HasSuffix(rest, ">"):
			bound = ">"
			rest = strings.TrimSpace(strings.TrimSuffix(rest, ">"))
			continue
		}
		break
	}
	if bound == "" {
		bound = boundInWords(rest)
	}
	return bound, eq, rest
}

// symbolText is the symbol just before "=": the text after the last
// clause word, at most 40 bytes.
func symbolText(rest string) string {
	if loc := symbolCutRe.FindStringIndex(rest); loc != nil {
		rest = rest[loc[1]:]
	}
	if len(rest) > 40 {
		rest = rest[len(rest)-40:]
	}
	return strings.TrimSpace(rest)
}

// dims groups units and quantities so a keyword is trusted only when the
// unit fits it ("the mass ... at 5 Mpc" is a distance).
var unitDims = map[string]string{
	"km s⁻¹ Mpc⁻¹": "H0", "Mpc": "length", "Gpc": "length", "kpc": "length", "pc": "length", "au": "length",
	"M☉": "mass", "M_J": "mass", "M⊕": "mass", "erg s⁻¹": "power", "L☉": "power", "M☉ yr⁻¹": "rate",
	"K": "temperature", "keV": "temperature", "Gyr": "time", "Myr": "time", "kyr": "time", "yr": "time", "d": "time", "h": "time", "s": "time",
	"km s⁻¹": "velocity", "Jy": "flux", "mJy": "flux", "μJy": "flux", "Jy km s⁻¹": "flux", "mJy beam⁻¹": "flux", "erg s⁻¹ cm⁻²": "flux",
	"cm⁻²": "column", "cm⁻³": "density", "g cm⁻³": "density", "μG": "field", "G": "field", "mG": "field", "nG": "field",
	"mag": "mag", "dex": "dex", "Z☉": "dex", "deg": "angle", "arcsec": "angle", "arcmin": "angle", "mas": "angle",
}

var quantityDims = map[string]string{
	"H0": "H0", "distance": "length", "radius": "length", "mass": "mass", "luminosity": "power", "sfr": "rate",
	"temperature": "temperature", "age": "time", "period": "time", "velocity": "velocity", "velocity_dispersion": "velocity",
	"flux": "flux", "column_density": "column", "density": "density", "magnetic_field": "field",
	"magnitude": "mag", "distance_modulus": "mag", "metallicity": "dex", "inclination": "angle",
}

// pickQuantity names what a value with a unit measures: the symbol's
// quantity, else the closest keyword, when the unit fits them; else what
// the unit usually measures.
func pickQuantity(sq symbolQuantity, hasSym bool, keyword string, cu canonicalUnit) string {
	dim := unitDims[cu.unit]
	if hasSym && sq.unit == "" && (dim == "" || quantityDims[sq.quantity] == dim) {
		return sq.quantity
	}
	if keyword != "" && (dim == "" || quantityDims[keyword] == dim) {
		return keyword
	}
	return cu.quantity
}
