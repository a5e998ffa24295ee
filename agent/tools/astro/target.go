// Package astro holds the astronomy tools of the agent: object resolution
// now; literature search, download and parsing as they are built.
package astro

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/sesame"
)

// Resolver resolves object names (the Sesame client).
type Resolver interface {
	Resolve(ctx context.Context, name string) (sesame.Object, error)
}

// TargetArgs are query_target's arguments.
type TargetArgs struct {
	Name string `json:"name" desc:"Object name or designation, e.g. NGC 1275, M87, SN 1987A, HD 209458" maxLength:"200"`
}

// QueryTarget returns the query_target tool (T13).
func QueryTarget(r Resolver) tools.Tool {
	return tools.New("query_target",
		"Resolve an astronomical object name with CDS Sesame (SIMBAD, NED, VizieR): canonical name, "+
			"ICRS J2000 RA/Dec in degrees and sexagesimal, object type, aliases, redshift or radial velocity.",
		func(ctx context.Context, tc *tools.Context, args TargetArgs) (tools.Result, error) {
			o, err := r.Resolve(ctx, args.Name)
			switch {
			case errors.Is(err, sesame.ErrNotFound):
				return tools.Errorf("%q was not found by Sesame (SIMBAD, NED and VizieR). Check the spelling or try another designation.", args.Name), nil
			case errors.Is(err, sesame.ErrUnavailable):
				return tools.Errorf("Sesame could not be reached right now (%v). Try again later.", err), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Cannot resolve %q: %v", args.Name, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			return tools.Result{Output: Describe(o), Metadata: map[string]any{"object": o}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

// Describe renders a resolved object for the model and for plain-text UIs.
func Describe(o sesame.Object) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", o.Name)
	if o.Type != "" {
		fmt.Fprintf(&b, " (type %s)", o.Type)
	}
	fmt.Fprintf(&b, "\nRA  %s = %s deg\nDec %s = %s deg (ICRS, J2000)", o.RASex, degrees(o.RADegText, o.RADeg), o.DecSex, degrees(o.DecDegText, o.DecDeg))
	if o.PositionRef != "" {
		fmt.Fprintf(&b, ", position from %s", o.PositionRef)
	}
	b.WriteString("\n")
	if o.Morphology != "" {
		fmt.Fprintf(&b, "Morphology %s\n", o.Morphology)
	}
	if o.Redshift != nil {
		fmt.Fprintf(&b, "Redshift z = %g\n", *o.Redshift)
	}
	if o.VelocityKmS != nil {
		fmt.Fprintf(&b, "Radial velocity = %g km/s\n", *o.VelocityKmS)
	}
	if len(o.Aliases) > 0 {
		fmt.Fprintf(&b, "Aliases: %s\n", strings.Join(o.Aliases, "; "))
	}
	resolvers := strings.Join(o.Resolvers, ", ")
	if resolvers == "" {
		resolvers = o.Resolver
	}
	fmt.Fprintf(&b, "Known to %s via CDS Sesame (identification from %s).", resolvers, o.Resolver)
	return b.String()
}

// degrees is a coordinate with the digits its source gave, or six
// decimals when the source text is unknown.
func degrees(text string, v float64) string {
	if text != "" {
		return text
	}
	return fmt.Sprintf("%.6f", v)
}
