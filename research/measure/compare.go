package measure

import (
	"context"
	"errors"
	"strings"

	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// Resolver resolves object names (the Sesame client).
type Resolver interface {
	Resolve(ctx context.Context, name string) (sesame.Object, error)
}

// Table is the comparison of one quantity's reported values (L9).
type Table struct {
	// Quantity and Object are what was asked ("" = any).
	Quantity string
	Object   string
	// Names are the object's names searched: the name asked, the resolved
	// main identifier and its aliases.
	Names []string
	// Unit is the unit most rows share (the plot shows only those rows).
	Unit string
	// Rows are the values, oldest paper first.
	Rows []store.Measurement
}

// NotFound reports whether the library holds no matching value.
func (t Table) NotFound() bool { return len(t.Rows) == 0 }

// maxRows bounds one comparison.
const maxRows = 500

// ObjectNames returns name with the resolved object's main identifier and
// aliases (SIMBAD's "NAME " prefix dropped) when r resolves it; just name
// when it does not (unknown, Sesame down, or r nil).
func ObjectNames(ctx context.Context, r Resolver, name string) []string {
	name = strings.Join(strings.Fields(name), " ")
	names := []string{name}
	if r == nil || name == "" {
		return names
	}
	o, err := r.Resolve(ctx, name)
	if err != nil {
		return names
	}
	seen := map[string]bool{store.ObjectKey(name): true}
	for _, n := range append([]string{o.Name}, o.Aliases...) {
		n = strings.TrimPrefix(n, "NAME ")
		if k := store.ObjectKey(n); k != "" && !seen[k] {
			seen[k] = true
			names = append(names, n)
		}
	}
	return names
}

// Compare builds the table of quantity's values for the object called
// name (any object when name is ""), searching every name r knows for it.
func Compare(ctx context.Context, st *store.Store, r Resolver, quantity, name string) (Table, error) {
	t := Table{Quantity: CanonicalQuantity(quantity), Object: strings.TrimSpace(name)}
	if t.Object != "" {
		t.Names = ObjectNames(ctx, r, t.Object)
	}
	rows, err := st.Measurements(ctx, store.MeasurementFilter{Quantity: t.Quantity, Objects: t.Names, Limit: maxRows})
	if err != nil {
		return t, err
	}
	t.Rows = rows
	t.Unit = commonUnit(rows)
	return t, nil
}

// commonUnit is the unit most rows have (ties: the first seen).
func commonUnit(rows []store.Measurement) string {
	count := map[string]int{}
	best, bestN := "", 0
	for _, r := range rows {
		count[r.Unit]++
		if n := count[r.Unit]; n > bestN {
			best, bestN = r.Unit, n
		}
	}
	return best
}

// ErrNoQuantity means neither a quantity nor an object was given.
var ErrNoQuantity = errors.New("measure: name a quantity or an object")

// quantityWords are how papers name the quantities in words (for an ADS
// search when the library has no value).
var quantityWords = map[string]string{
	"H0": "Hubble constant", "sfr": "star formation rate", "velocity_dispersion": "velocity dispersion",
	"Omega_m": "matter density", "sigma_8": "sigma_8", "S_8": "S_8", "column_density": "column density",
	"magnetic_field": "magnetic field", "distance_modulus": "distance modulus", "spectral_index": "spectral index",
	"photon_index": "photon index", "tau": "optical depth", "n_s": "spectral index", "w": "dark energy equation of state",
}

// ADSQuery is an ADS query for papers reporting the table's quantity for
// its object: object:"…" and the quantity's words in the abstract.
func (t Table) ADSQuery() string {
	var parts []string
	if t.Object != "" {
		parts = append(parts, `object:"`+strings.ReplaceAll(t.Object, `"`, ``)+`"`)
	}
	if t.Quantity != "" {
		w := quantityWords[t.Quantity]
		if w == "" {
			w = strings.ReplaceAll(t.Quantity, "_", " ")
		}
		parts = append(parts, `abs:"`+strings.ReplaceAll(w, `"`, ``)+`"`)
	}
	return strings.Join(parts, " ")
}

// Tables binds Compare to a store and a resolver (the agent tool's view).
type Tables struct {
	st *store.Store
	r  Resolver
}

// NewTables returns Compare over st, resolving names with r (may be nil).
func NewTables(st *store.Store, r Resolver) *Tables { return &Tables{st: st, r: r} }

// Compare is Compare(ctx, st, r, quantity, object).
func (t *Tables) Compare(ctx context.Context, quantity, object string) (Table, error) {
	return Compare(ctx, t.st, t.r, quantity, object)
}
