package measure

import "strings"

// quantityAliases maps how people write a quantity to its key.
var quantityAliases = map[string]string{
	"h0": "H0", "h_0": "H0", "hubble constant": "H0", "hubble": "H0",
	"d": "distance", "dist": "distance", "distances": "distance",
	"z": "redshift", "redshifts": "redshift",
	"m": "mass", "masses": "mass", "black hole mass": "mass", "stellar mass": "mass",
	"l": "luminosity", "lum": "luminosity",
	"star formation rate": "sfr", "star-formation rate": "sfr",
	"t": "temperature", "temp": "temperature", "teff": "temperature",
	"z/h": "metallicity", "[fe/h]": "metallicity", "abundance": "metallicity",
	"v": "velocity", "sigma": "velocity_dispersion", "velocity dispersion": "velocity_dispersion",
	"sigma8": "sigma_8", "sigma_8": "sigma_8", "σ8": "sigma_8", "s8": "S_8", "s_8": "S_8",
	"omega_m": "Omega_m", "omegam": "Omega_m", "ωm": "Omega_m", "omega_lambda": "Omega_Lambda", "omega_b": "Omega_b",
	"ns": "n_s", "n_s": "n_s", "tau": "tau", "optical depth": "tau",
	"spectral index": "spectral_index", "photon index": "photon_index", "column density": "column_density",
	"magnetic field": "magnetic_field", "distance modulus": "distance_modulus",
}

// CanonicalQuantity is the key of a quantity as a user may type it
// ("h0", "Hubble constant" → "H0"); unknown names are returned trimmed.
func CanonicalQuantity(q string) string {
	q = strings.TrimSpace(q)
	if k, ok := quantityAliases[strings.ToLower(q)]; ok {
		return k
	}
	return q
}
