// Package measure finds the values papers report — quantity, value,
// uncertainty, unit, the object when stated, and the exact sentence — in
// parsed Markdown (plain text and LaTeX math alike), by rules: fast,
// deterministic and tested against hand-written sentences (testdata/).
//
// Units are written in one canonical form (km s⁻¹ Mpc⁻¹, M☉, erg s⁻¹,
// M☉ yr⁻¹, ...) and converted only where the conversion is exact (kpc →
// Mpc for distances, W → erg s⁻¹, Myr → Gyr for ages). The model never
// invents a number here: everything comes from the text.
package measure

import "math"

// Measurement is one reported value.
type Measurement struct {
	// Quantity is a short key ("H0", "distance", "redshift", "mass",
	// "luminosity", "sfr", "temperature", "metallicity", "age", ...);
	// "" when neither the text nor the unit says what was measured.
	Quantity string `json:"quantity"`
	// Value is the value in Unit. For a range (Bound "range") it is the
	// lower end and Upper the upper end.
	Value float64 `json:"value"`
	Upper float64 `json:"upper,omitempty"`
	// ErrPlus and ErrMinus are the upward and downward uncertainties (0 when
	// none was given); statistical and systematic errors are combined in
	// quadrature, and also kept apart in ErrStat and ErrSys.
	ErrPlus  float64 `json:"err_plus"`
	ErrMinus float64 `json:"err_minus"`
	ErrStat  float64 `json:"err_stat,omitempty"`
	ErrSys   float64 `json:"err_sys,omitempty"`
	// Bound is "" for a measurement, "<" or ">" for a limit, "~" for an
	// approximate value and "range" for a range.
	Bound string `json:"bound"`
	// Unit is the canonical unit ("" for a dimensionless value).
	Unit string `json:"unit"`
	// Object is the object the sentence names for this value ("" if none).
	Object string `json:"object"`
	// Sentence is the exact sentence, text[Start:End] of the extracted text.
	Sentence string `json:"sentence"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
}

// quadrature combines independent uncertainties.
func quadrature(a, b float64) float64 { return math.Sqrt(a*a + b*b) }
