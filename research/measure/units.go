package measure

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unitTokens are the unit symbols the scanner knows, in the spelling of
// the normalised text, mapped to their canonical spelling. Frequencies
// and wavelengths are left out on purpose: "the 1.4 GHz flux" names a
// band, not a measurement.
var unitTokens = map[string]string{
	"km": "km", "m": "m", "cm": "cm", "s": "s", "sec": "s", "yr": "yr", "Gyr": "Gyr", "Myr": "Myr", "kyr": "kyr",
	"d": "d", "day": "d", "days": "d", "hr": "h", "hours": "h",
	"Mpc": "Mpc", "kpc": "kpc", "pc": "pc", "Gpc": "Gpc", "au": "au", "AU": "au",
	"M☉": "M☉", "L☉": "L☉", "R☉": "R☉", "Z☉": "Z☉", "M⊕": "M⊕", "R⊕": "R⊕", "M_⊕": "M⊕", "R_⊕": "R⊕",
	"M_J": "M_J", "M_Jup": "M_J", "R_J": "R_J", "R_Jup": "R_J",
	"erg": "erg", "W": "W", "K": "K", "eV": "eV", "keV": "keV", "MeV": "MeV", "GeV": "GeV", "TeV": "TeV",
	"Jy": "Jy", "mJy": "mJy", "μJy": "μJy", "uJy": "μJy", "beam": "beam", "g": "g",
	"G": "G", "μG": "μG", "mG": "mG", "nG": "nG",
	"mag": "mag", "dex": "dex", "deg": "deg", "°": "deg", "arcsec": "arcsec", "″": "arcsec", "arcmin": "arcmin", "′": "arcmin",
	"mas": "mas", "μas": "μas", "Hz": "Hz", "Å": "Å",
}

// unitFactor is a unit symbol with its power.
type unitFactor struct {
	sym string
	exp int
}

// parsedUnit is a unit as written: its factors and the byte length taken.
type parsedUnit struct {
	factors []unitFactor
	n       int
}

// key is the unit in the normalised ASCII form, e.g. "km s^-1 Mpc^-1".
func (u parsedUnit) key() string {
	var b strings.Builder
	for i, f := range u.factors {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.sym)
		if f.exp != 1 {
			b.WriteByte('^')
			b.WriteString(itoa(f.exp))
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// parseUnit reads a unit at the start of s ("km s^-1 Mpc^-1",
// "km/s/Mpc", "M☉ yr^-1", "mJy"). A symbol counts only when whole (not
// followed by a letter or digit).
func parseUnit(s string) parsedUnit {
	var u parsedUnit
	i := 0
	sign := 1
	for {
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		sym, n := unitSymbol(s[j:])
		if n == 0 {
			break
		}
		j += n
		exp := 1
		if e, m := exponent(s[j:]); m > 0 {
			exp, j = e, j+m
		}
		u.factors = append(u.factors, unitFactor{sym, exp * sign})
		i = j
		u.n = i
		sign = 1
		if k := skipSpaces(s, i); k < len(s) && s[k] == '/' {
			sign = -1
			i = k + 1
		}
	}
	return u
}

func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// unitSymbol matches the longest known unit symbol at the start of s.
func unitSymbol(s string) (string, int) {
	best, bestN := "", 0
	for n := 1; n <= len(s) && n <= 8; n++ {
		if canon, ok := unitTokens[s[:n]]; ok && boundary(s[n:]) {
			best, bestN = canon, n
		}
	}
	return best, bestN
}

// boundary reports whether a symbol may end before rest.
func boundary(rest string) bool {
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' && len(rest) > 1 && unicode.IsLetter(rune(rest[1])))
}

// exponent reads "^-1", "^2", "^{-3}" (braces already gone).
func exponent(s string) (int, int) {
	if len(s) >= 2 && s[0] == '-' && s[1] >= '1' && s[1] <= '3' && (len(s) == 2 || !isDigit(s[2]) && !(s[2] == '.' && len(s) > 3 && isDigit(s[3]))) {
		return -int(s[1] - '0'), 2 // "yr-1", as plain text writes s−1
	}
	if !strings.HasPrefix(s, "^") {
		return 0, 0
	}
	i := 1
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start || i-start > 1 {
		return 0, 0
	}
	e := int(s[start] - '0')
	if neg {
		e = -e
	}
	return e, i
}

// canonicalUnit is how a unit is shown and stored.
type canonicalUnit struct {
	unit     string
	quantity string // what a value in this unit usually is
	pow      int    // multiply values by 10^pow to get unit
}

// canonical maps a parsed unit to its canonical form, or ok false when it
// is not a unit of a reported value (a bare "s", "m" or "g").
func canonical(u parsedUnit) (canonicalUnit, bool) {
	k := u.key()
	if c, ok := canonicalUnits[k]; ok {
		return c, true
	}
	switch k {
	case "s", "m", "g", "cm", "beam", "km", "erg s", "Hz":
		return canonicalUnit{}, false
	}
	if len(u.factors) == 1 && u.factors[0].exp == 1 {
		return canonicalUnit{unit: k}, true
	}
	for _, f := range u.factors {
		if f.sym == "s" && f.exp == 1 {
			return canonicalUnit{}, false
		}
	}
	return canonicalUnit{unit: superscripts(k)}, true
}

var canonicalUnits = map[string]canonicalUnit{
	"km s^-1 Mpc^-1": {"km s⁻¹ Mpc⁻¹", "H0", 0},
	"km Mpc^-1 s^-1": {"km s⁻¹ Mpc⁻¹", "H0", 0},
	"km s^-1":        {"km s⁻¹", "velocity", 0},
	"m s^-1":         {"km s⁻¹", "velocity", -3},
	"erg s^-1":       {"erg s⁻¹", "luminosity", 0},
	"W":              {"erg s⁻¹", "luminosity", 7},
	"erg s^-1 cm^-2": {"erg s⁻¹ cm⁻²", "flux", 0},
	"erg cm^-2 s^-1": {"erg s⁻¹ cm⁻²", "flux", 0},
	"M☉ yr^-1":       {"M☉ yr⁻¹", "sfr", 0},
	"M☉":             {"M☉", "mass", 0},
	"L☉":             {"L☉", "luminosity", 0},
	"Mpc":            {"Mpc", "distance", 0},
	"Gpc":            {"Gpc", "distance", 0},
	"kpc":            {"kpc", "", 0},
	"pc":             {"pc", "", 0},
	"K":              {"K", "temperature", 0},
	"keV":            {"keV", "temperature", 0},
	"Gyr":            {"Gyr", "age", 0},
	"Myr":            {"Myr", "age", 0},
	"d":              {"d", "period", 0},
	"yr":             {"yr", "", 0},
	"Jy":             {"Jy", "flux", 0},
	"mJy":            {"mJy", "flux", 0},
	"μJy":            {"μJy", "flux", 0},
	"Jy km s^-1":     {"Jy km s⁻¹", "flux", 0},
	"mJy beam^-1":    {"mJy beam⁻¹", "flux", 0},
	"cm^-2":          {"cm⁻²", "column_density", 0},
	"cm^-3":          {"cm⁻³", "density", 0},
	"g cm^-3":        {"g cm⁻³", "density", 0},
	"μG":             {"μG", "magnetic_field", 0},
	"G":              {"G", "magnetic_field", 0},
	"mag":            {"mag", "magnitude", 0},
	"dex":            {"dex", "", 0},
	"deg":            {"deg", "", 0},
	"M_J":            {"M_J", "mass", 0},
	"M⊕":             {"M⊕", "mass", 0},
	"Z☉":             {"Z☉", "metallicity", 0},
}

// toCanonical applies the exact conversions a quantity calls for:
// distances in Mpc, ages in Gyr. It returns the unit and the power of ten
// to multiply by.
func toCanonical(quantity, unit string) (string, int) {
	switch quantity {
	case "distance":
		switch unit {
		case "pc":
			return "Mpc", -6
		case "kpc":
			return "Mpc", -3
		case "Gpc":
			return "Mpc", 3
		}
	case "age":
		switch unit {
		case "Myr":
			return "Gyr", -3
		case "kyr":
			return "Gyr", -6
		case "yr":
			return "Gyr", -9
		}
	}
	return unit, 0
}

// scaleBy multiplies v by 10^p, dividing for negative p so that exact
// decimal results stay as close as float64 allows (49.59/1000, not
// 49.59*0.001).
func scaleBy(v float64, p int) float64 {
	switch {
	case p > 0:
		return v * math.Pow(10, float64(p))
	case p < 0:
		return v / math.Pow(10, float64(-p))
	}
	return v
}

// superscripts writes the exponents of a unit key as Unicode.
func superscripts(k string) string {
	return strings.NewReplacer("^-1", "⁻¹", "^-2", "⁻²", "^-3", "⁻³", "^2", "²", "^3", "³").Replace(k)
}
