package measure

import (
	"regexp"
	"strings"
)

// symbolQuantity is a quantity named by the symbol before "=" (or "<",
// "~"), with the unit a value of it has when the text gives none.
type symbolQuantity struct {
	quantity string
	unit     string // for dimensionless symbols: "" ; for logarithms "log M☉", "dex"
}

// symbolRules map the symbol written before a value to its quantity, first
// match wins. The symbol is the normalised text of the last few words
// before "=", lower-cased.
var symbolRules = []struct {
	re *regexp.Regexp
	q  symbolQuantity
}{
	{regexp.MustCompile(`log\s*\(?\s*(?:m|mass)[^=]*/\s*m☉`), symbolQuantity{"mass", "log M☉"}},
	{regexp.MustCompile(`log\s*\(?\s*(?:l|lum)[^=]*/\s*l☉`), symbolQuantity{"luminosity", "log L☉"}},
	{regexp.MustCompile(`log\s*\(?\s*m[_*]?(?:\*|bh|star|halo|gas|dyn|h|200|vir)?\s*\)?\s*$`), symbolQuantity{"mass", "log M☉"}},
	{regexp.MustCompile(`log\s*\(?\s*(?:o/h|\(o/h\))|\[o/h\]|\[fe/h\]|\[m/h\]|\[z/h\]|\[α/fe\]|\[mg/fe\]`), symbolQuantity{"metallicity", "dex"}},
	{regexp.MustCompile(`(?:^|[^a-z])h_?0$|hubble constant|hubble parameter`), symbolQuantity{"H0", ""}},
	{regexp.MustCompile(`ω_?m$|ω_?\(?m\)?$|ω_?matter$`), symbolQuantity{"Omega_m", ""}},
	{regexp.MustCompile(`ω_?λ$|ω_?de$`), symbolQuantity{"Omega_Lambda", ""}},
	{regexp.MustCompile(`ω_?k$`), symbolQuantity{"Omega_k", ""}},
	{regexp.MustCompile(`ω_?b\s*h\s*\^?2$|ω_?b$`), symbolQuantity{"Omega_b", ""}},
	{regexp.MustCompile(`σ_?8$`), symbolQuantity{"sigma_8", ""}},
	{regexp.MustCompile(`(?:^|[^a-z])s_?8$`), symbolQuantity{"S_8", ""}},
	{regexp.MustCompile(`(?:^|[^a-z])n_?s$`), symbolQuantity{"n_s", ""}},
	{regexp.MustCompile(`(?:^|[^a-z])w_?0?$`), symbolQuantity{"w", ""}},
	{regexp.MustCompile(`(?:^|[^a-zα-ω])τ(?:_?reio)?$|optical depth`), symbolQuantity{"tau", ""}},
	{regexp.MustCompile(`(?:^|[^a-z])z(?:_?(?:spec|phot|s|l|d|abs|em|cl|lens|src|source))?$|redshift`), symbolQuantity{"redshift", ""}},
	{regexp.MustCompile(`spectral index|(?:^|[^a-zα-ω])α(?:_?[a-z0-9]*)?$`), symbolQuantity{"spectral_index", ""}},
	{regexp.MustCompile(`photon index|(?:^|[^a-zα-ω])γ$`), symbolQuantity{"photon_index", ""}},
	{regexp.MustCompile(`eccentricity|(?:^|[^a-z])e$`), symbolQuantity{"eccentricity", ""}},
	{regexp.MustCompile(`sérsic index|sersic index|(?:^|[^a-z])n_?(?:ser|s[ée]rsic)$`), symbolQuantity{"sersic_index", ""}},
	{regexp.MustCompile(`(?:^|[^a-z])f_?(?:esc|gas|dm|b)$|(?:^|[^a-z])(?:ξ|β)(?:_?[a-z]*)?$`), symbolQuantity{"ratio", ""}},
}

// symbolOf finds the quantity of the symbol text before a value.
func symbolOf(sym string) (symbolQuantity, bool) {
	sym = strings.ToLower(strings.TrimSpace(sym))
	if sym == "" {
		return symbolQuantity{}, false
	}
	for _, r := range symbolRules {
		if r.re.MatchString(sym) {
			return r.q, true
		}
	}
	return symbolQuantity{}, false
}

// keywords name quantities in the words before a value; the one closest
// to the value wins.
var keywords = []struct{ word, quantity string }{
	{"hubble constant", "H0"}, {"h_0", "H0"}, {"h0", "H0"},
	{"distance modulus", "distance_modulus"}, {"distance", "distance"}, {"d_l", "distance"}, {"d_a", "distance"},
	{"redshift", "redshift"},
	{"star formation rate", "sfr"}, {"star-formation rate", "sfr"}, {"sfr", "sfr"}, {"accretion rate", "sfr"}, {"outflow rate", "sfr"}, {"mass-loss rate", "sfr"},
	{"black hole mass", "mass"}, {"mass", "mass"}, {"m_bh", "mass"}, {"m_*", "mass"},
	{"luminosity", "luminosity"}, {"l_x", "luminosity"}, {"l_bol", "luminosity"}, {"l_ir", "luminosity"}, {"jet power", "luminosity"}, {"p_jet", "luminosity"},
	{"temperature", "temperature"}, {"t_eff", "temperature"}, {"kt", "temperature"},
	{"metallicity", "metallicity"}, {"abundance", "metallicity"},
	{"age", "age"}, {"lifetime", "age"}, {"timescale", "age"}, {"time-scale", "age"},
	{"velocity dispersion", "velocity_dispersion"}, {"dispersion", "velocity_dispersion"}, {"σ_e", "velocity_dispersion"}, {"σ_*", "velocity_dispersion"},
	{"velocity", "velocity"}, {"velocities", "velocity"}, {"speed", "velocity"}, {"v_", "velocity"},
	{"period", "period"},
	{"inclination", "inclination"},
	{"half-light radius", "radius"}, {"effective radius", "radius"}, {"radius", "radius"}, {"radii", "radius"}, {"r_e", "radius"}, {"r_h", "radius"}, {"size", "radius"},
	{"column density", "column_density"}, {"n_h", "column_density"},
	{"density", "density"}, {"n_e", "density"},
	{"magnetic field", "magnetic_field"}, {"field strength", "magnetic_field"},
	{"flux density", "flux"}, {"flux", "flux"},
	{"magnitude", "magnitude"},
}

// keywordBefore returns the quantity named closest to the end of before.
func keywordBefore(before string) string {
	before = strings.ToLower(before)
	best, bestAt := "", -1
	for _, k := range keywords {
		if i := strings.LastIndex(before, k.word); i >= 0 && i+len(k.word) > bestAt {
			// a longer keyword ending at the same place wins (listed first)
			if i+len(k.word) == bestAt {
				continue
			}
			best, bestAt = k.quantity, i+len(k.word)
		}
	}
	return best
}
