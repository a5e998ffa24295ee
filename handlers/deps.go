package handlers

import (
	"errors"
	"fmt"
	"strings"
)

// errMissingDeps is wrapped by New's error when required dependencies are
// nil; the message names them.
var errMissingDeps = errors.New("handlers: missing dependencies")

// check reports the required fields of d that are nil, by their field
// names in declaration order, as an error wrapping errMissingDeps; nil when
// every required dependency is set. Optional fields (see Deps) are not
// checked.
func (d Deps) check() error {
	required := []struct {
		name string
		set  bool
	}{
		{"Store", d.Store != nil},
		{"Accounts", d.Accounts != nil},
		{"Log", d.Log != nil},
		{"Static", d.Static != nil},
		{"Ready", d.Ready != nil},
		{"Agent", d.Agent != nil},
		{"Events", d.Events != nil},
		{"Model", d.Model != nil},
		{"Targets", d.Targets != nil},
		{"Memory", d.Memory != nil},
		{"Library", d.Library != nil},
		{"Papers", d.Papers != nil},
	}
	var missing []string
	for _, r := range required {
		if !r.set {
			missing = append(missing, r.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", errMissingDeps, strings.Join(missing, ", "))
}
