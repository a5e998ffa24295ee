package arxiv

import "strings"

// ValidCategory reports whether term has the shape of an arXiv category:
// an archive of lower-case letters with inner hyphens ("astro-ph", "gr-qc",
// "cs"), optionally followed by "." and a subject class of letters with inner
// hyphens ("astro-ph.GA", "physics.space-ph", "cond-mat.stat-mech"). It does
// not check that the category exists; CategoryName knows the common ones.
func ValidCategory(term string) bool {
	if len(term) == 0 || len(term) > 40 {
		return false
	}
	archive, class, hasClass := strings.Cut(term, ".")
	if !hyphenated(archive, false) {
		return false
	}
	return !hasClass || hyphenated(class, true)
}

// hyphenated reports whether s is letters with single inner hyphens; upper
// case letters are allowed only when upper is set.
func hyphenated(s string, upper bool) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case upper && c >= 'A' && c <= 'Z':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// AstroCategories returns the astrophysics categories, archive first, in a
// new slice the caller may modify.
func AstroCategories() []string {
	return []string{"astro-ph", "astro-ph.CO", "astro-ph.EP", "astro-ph.GA",
		"astro-ph.HE", "astro-ph.IM", "astro-ph.SR"}
}

// CategoryName returns the descriptive name of the arXiv category term
// ("astro-ph.GA" → "Astrophysics of Galaxies") for the astronomy categories
// and the neighbouring ones astronomers cross-list to, and "" for others.
func CategoryName(term string) string {
	switch term {
	case "astro-ph":
		return "Astrophysics"
	case "astro-ph.CO":
		return "Cosmology and Nongalactic Astrophysics"
	case "astro-ph.EP":
		return "Earth and Planetary Astrophysics"
	case "astro-ph.GA":
		return "Astrophysics of Galaxies"
	case "astro-ph.HE":
		return "High Energy Astrophysical Phenomena"
	case "astro-ph.IM":
		return "Instrumentation and Methods for Astrophysics"
	case "astro-ph.SR":
		return "Solar and Stellar Astrophysics"
	case "gr-qc":
		return "General Relativity and Quantum Cosmology"
	case "hep-ex":
		return "High Energy Physics - Experiment"
	case "hep-ph":
		return "High Energy Physics - Phenomenology"
	case "hep-th":
		return "High Energy Physics - Theory"
	case "nucl-ex":
		return "Nuclear Experiment"
	case "nucl-th":
		return "Nuclear Theory"
	case "physics.space-ph":
		return "Space Physics"
	case "physics.ao-ph":
		return "Atmospheric and Oceanic Physics"
	case "physics.comp-ph":
		return "Computational Physics"
	case "physics.data-an":
		return "Data Analysis, Statistics and Probability"
	case "physics.ins-det":
		return "Instrumentation and Detectors"
	case "physics.plasm-ph":
		return "Plasma Physics"
	case "physics.optics":
		return "Optics"
	case "physics.hist-ph":
		return "History and Philosophy of Physics"
	case "physics.ed-ph":
		return "Physics Education"
	case "cs.LG":
		return "Machine Learning"
	case "cs.DL":
		return "Digital Libraries"
	case "stat.ML":
		return "Machine Learning (Statistics)"
	case "stat.AP":
		return "Statistics Applications"
	case "stat.CO":
		return "Statistics Computation"
	case "stat.ME":
		return "Statistics Methodology"
	case "math-ph":
		return "Mathematical Physics"
	case "quant-ph":
		return "Quantum Physics"
	}
	return ""
}
