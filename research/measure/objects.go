package measure

import (
	"regexp"
	"strings"
)

// objectRe finds object designations: catalogue numbers (NGC 4258, M87,
// UGC 7353), supernovae and transients (SN 2011fe, GRB 221009A), J-names
// of pulsars and quasars (PSR J0740+6620, J1342+0928), radio sources (3C
// 273) and a few proper names.
var objectRe = regexp.MustCompile(`\b(?:` +
	`(?:NGC|IC|UGC|PGC|ESO|Mrk|Arp|Abell|ACO|MCG|CGCG|HD|HIP|HR|GJ|KIC|TIC|TOI|Kepler|WASP|HAT-P|K2|CoRoT|Gliese)[ -]?[0-9]+(?:[-–][0-9]+)?[A-Za-z]?` +
	`|M[ ]?[0-9]{1,3}` +
	`|SN[ ]?[0-9]{4}[a-z]{1,3}|AT[ ]?[0-9]{4}[a-z]{1,3}|GRB[ ]?[0-9]{6}[A-Z]?|FRB[ ]?[0-9]{6}[A-Z]?|GW[0-9]{6}(?:_[0-9]{6})?` +
	`|(?:PSR|SDSS|2MASS|2MASX|WISE|ULAS|PSO|DES|HE|PKS|QSO|SGR|XTE|Swift|4U|1E|RX|CXOU)?[ ]?[JB][0-9]{4}(?:[0-9.]*)?[+\-−][0-9]{2,4}(?:[0-9.]*)?` +
	`|(?:HE|PKS|QSO)[ ][0-9]{4}[+\-−][0-9]{3,4}` +
	`|3C[ ]?[0-9]+(?:\.[0-9]+)?` +
	`|Sgr[ ]A\*|LMC|SMC|Large Magellanic Cloud|Small Magellanic Cloud|Milky Way|Andromeda|Crab Nebula|Crab|Orion Nebula` +
	`|(?:Virgo|Coma|Perseus|Fornax|Bullet|Phoenix) [Cc]luster|Centaurus A|Cygnus A|Cyg A|Cen A|Perseus A|Virgo A` +
	`)(?:\b|$)`)

// objectsIn lists the object names in a sentence with their byte offsets.
func objectsIn(s string) [][2]int {
	if !mayNameObject(s) {
		return nil
	}
	var out [][2]int
	for _, loc := range objectRe.FindAllStringIndex(s, -1) {
		out = append(out, [2]int{loc[0], loc[1]})
	}
	return out
}

// mayNameObject is a cheap filter before objectRe: every designation it
// finds has a capital letter next to a digit or a space and a digit, or
// is one of the proper names.
func mayNameObject(s string) bool {
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			p := s[i-1]
			if p >= 'A' && p <= 'Z' || p == ' ' && i >= 2 && (s[i-2] >= 'A' && s[i-2] <= 'Z' || s[i-2] >= 'a' && s[i-2] <= 'z') || p == '-' {
				return true
			}
		}
	}
	return strings.Contains(s, "MC") || strings.Contains(s, "Sgr") || strings.Contains(s, "Milky") || strings.Contains(s, "Andromeda") ||
		strings.Contains(s, "Crab") || strings.Contains(s, "Orion") || strings.Contains(s, "luster") || strings.Contains(s, " A") ||
		strings.Contains(s, "Magellanic")
}

// objectFor is the object a value at byte offset at of s is about: the
// last one named before it, else the first named after it.
func objectFor(s string, objs [][2]int, at int) string {
	name := ""
	for _, o := range objs {
		if o[0] < at {
			name = s[o[0]:o[1]]
		} else if name == "" {
			name = s[o[0]:o[1]]
			break
		}
	}
	return strings.TrimSpace(name)
}
