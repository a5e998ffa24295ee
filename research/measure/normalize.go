package measure

import (
	"regexp"
	"strings"
)

// normalize rewrites a sentence's LaTeX math and Unicode into the one plain
// form the scanner reads: "±" for \pm, "×" for \times, "~" for
// approximately, "<"/">" for limits, "^-1" exponents, "M☉" for the solar
// mass in all its spellings, "+a/-b" for asymmetric errors, Greek letters
// as Unicode, and no $, braces or font commands.
func normalize(s string) string {
	s = mathSpaces(s)
	s = asymRe.ReplaceAllString(s, " +$1/-$2 ")
	s = asymRevRe.ReplaceAllString(s, " +$2/-$1 ")
	s = logPowRe.ReplaceAllString(s, "10^($1)")
	s = latexReplacer.Replace(s)
	s = fontRe.ReplaceAllString(s, "")
	s = powRe.ReplaceAllString(s, "^$1")
	s = caretRe.ReplaceAllString(s, "^")
	s = strings.NewReplacer("{", "", "}", "", "\\", " ").Replace(s)
	s = unicodeReplacer.Replace(s)
	s = solarRe.ReplaceAllString(s, "${1}☉")
	s = spaceRe.ReplaceAllString(s, " ")
	s = subSpaceRe.ReplaceAllString(s, "_")
	s = microRe.ReplaceAllString(s, "μ$1")
	return strings.TrimSpace(s)
}

// mathSpaces drops the $ delimiters; inside math a ~ is a space (outside
// it means "approximately").
func mathSpaces(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	inMath := false
	for _, r := range s {
		switch {
		case r == '$':
			inMath = !inMath
			b.WriteByte(' ')
		case inMath && r == '~':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	num = `[0-9]*\.?[0-9]+`
	// ^{+0.4}_{-0.3} and _{-0.3}^{+0.4}, braces optional.
	asymRe    = regexp.MustCompile(`\^\s*\{?\s*\+\s*(` + num + `)\s*\}?\s*_\s*\{?\s*[-−–]\s*(` + num + `)\s*\}?`)
	asymRevRe = regexp.MustCompile(`_\s*\{?\s*[-−–]\s*(` + num + `)\s*\}?\s*\^\s*\{?\s*\+\s*(` + num + `)\s*\}?`)
	// 10^{12.3 \pm 0.1}: a logarithmic value.
	logPowRe   = regexp.MustCompile(`10\s*\^\s*\{\s*([-−]?` + num + `\s*(?:\\pm|±)\s*` + num + `)\s*\}`)
	fontRe     = regexp.MustCompile(`\\(?:rm|mathrm|text|textrm|mathit|it|bf|mathbf|rmn|operatorname|mbox|hbox|left|right|big|Big|displaystyle)\b\s*`)
	powRe      = regexp.MustCompile(`\^\s*\{\s*([-−+]?\s*[0-9.]+)\s*\}`)
	solarRe    = regexp.MustCompile(`\b([MLRZ])\s*_?\s*(?:☉|sun\b|Sun\b)`)
	spaceRe    = regexp.MustCompile(`\s+`)
	subSpaceRe = regexp.MustCompile(`_ +`)
	microRe    = regexp.MustCompile(`μ (Jy|G|as|m)\b`)
	caretRe    = regexp.MustCompile(`\s*\}?\s*\^\s*`)

	latexReplacer = strings.NewReplacer(
		`\pm`, " ± ", `\mp`, " ± ", `\times`, " × ", `\cdot`, " × ",
		`\sim`, " ~ ", `\approx`, " ~ ", `\simeq`, " ~ ", `\lesssim`, " < ", `\la `, " < ",
		`\gtrsim`, " > ", `\ga `, " > ", `\leq`, " < ", `\geq`, " > ", `\le `, " < ", `\ge `, " > ",
		`\lt`, " < ", `\gt`, " > ", `\odot`, "☉", `\sun`, "☉", `\oplus`, "⊕", `\earth`, "⊕",
		`\mu`, "μ", `\sigma`, "σ", `\Omega`, "Ω", `\tau`, "τ", `\alpha`, "α", `\Gamma`, "Γ",
		`\Lambda`, "Λ", `\lambda`, "λ", `\beta`, "β", `\gamma`, "γ", `\delta`, "δ", `\Delta`, "Δ",
		`\nu`, "ν", `\rho`, "ρ", `\theta`, "θ", `\eta`, "η", `\epsilon`, "ε", `\varepsilon`, "ε",
		`\star`, "*", `\ast`, "*", `\prime`, "′", `\circ`, "°", `\dot`, "", `\log`, "log", `\ln`, "ln",
		`\,`, " ", `\;`, " ", `\!`, "", `\:`, " ", `\ `, " ", `\quad`, " ", `\%`, "%",
		`\textasciitilde`, "~", `\AA`, "Å", `\arcsec`, " arcsec", `\arcmin`, " arcmin", `\deg`, " deg",
	)
	unicodeReplacer = strings.NewReplacer(
		"−", "-", "–", "–", "—", " – ", "∼", "~", "≈", "~", "≃", "~", "≲", "<", "≳", ">", "≤", "<", "≥", ">",
		"⊙", "☉", "\u00a0", " ", "\u2009", " ", "\u202f", " ", "\u2002", " ", "\u2003", " ",
		"⁻¹", "^-1", "⁻²", "^-2", "⁻³", "^-3", "²", "^2", "³", "^3", "·", " ", "⋅", " ",
		"+/-", "±", "+-", "±", "µ", "μ", "\u212b", "Å",
	)
)
