package sesame

import (
	"sort"
	"strconv"
	"strings"
)

// merge builds one Object from every resolver that gave coordinates,
// whatever order Sesame listed them in:
//
//   - identification (main identifier, type, position with its reference,
//     aliases) from the most trusted database that knew the object —
//     SIMBAD, else NED, else VizieR (a catalogue match, only a fallback);
//   - redshift, velocity and morphology from SIMBAD, else NED, else
//     VizieR, field by field, so NED fills what SIMBAD lacks;
//   - aliases of the leading database first, then the others' not yet seen.
//
// Catalogue braces ("{NGC} 4258") are removed from names and the degrees
// keep the digits the source gave (padding zeros dropped).
func merge(query string, found []xmlResolver) Object {
	sort.SliceStable(found, func(i, j int) bool {
		return resolverRank(resolverName(found[i].Name)) < resolverRank(resolverName(found[j].Name))
	})
	lead := found[0]
	pos, _ := coordinates(lead) // checked by Parse
	o := Object{
		Query: query, Name: cleanName(lead.OName), RADeg: pos[0], DecDeg: pos[1],
		RADegText: trimDegrees(lead.RA), DecDegText: trimDegrees(lead.Dec),
		PositionRef: strings.TrimSpace(lead.RefPos),
		Resolver:    resolverName(lead.Name), Aliases: []string{}, Sources: map[string]string{},
	}
	if o.Name == "" {
		o.Name = cleanName(query)
	}
	o.RASex, o.DecSex = sexagesimal(lead.JPos, pos)
	o.Sources["position"] = o.Resolver
	for _, r := range found {
		name := resolverName(r.Name)
		o.Resolvers = append(o.Resolvers, name)
		if t := strings.TrimSpace(r.OType); o.Type == "" && t != "" {
			o.Type, o.Sources["type"] = t, name
		}
		if m := squeeze(r.MType); o.Morphology == "" && m != "" {
			o.Morphology, o.Sources["morphology"] = m, name
		}
		if z, err := strconv.ParseFloat(strings.TrimSpace(r.Z), 64); o.Redshift == nil && err == nil {
			o.Redshift, o.Sources["redshift"] = &z, name
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(r.Vel.V), 64); o.VelocityKmS == nil && err == nil {
			o.VelocityKmS, o.Sources["velocity_kms"] = &v, name
		}
	}
	o.Aliases = mergeAliases(o.Name, found)
	return o
}

// mergeAliases lists the aliases of every resolver, leading one first,
// without duplicates and without the main identifier.
func mergeAliases(main string, found []xmlResolver) []string {
	out := []string{}
	seen := map[string]bool{strings.ToLower(main): true}
	for _, r := range found {
		for _, a := range append([]string{r.OName}, r.Aliases...) {
			a = cleanName(a)
			if k := strings.ToLower(a); a != "" && !seen[k] {
				seen[k] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// cleanName squeezes whitespace and removes VizieR's catalogue braces.
func cleanName(s string) string {
	return squeeze(strings.NewReplacer("{", "", "}", "").Replace(s))
}

// trimDegrees is a degree value as written, without a plus sign or the
// zeros that pad it past its precision ("184.730000" → "184.73").
func trimDegrees(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "+")
	if strings.Contains(s, ".") && !strings.ContainsAny(s, "eE") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// sexagesimal splits the source's jpos ("12:18:57.62 +47:18:13.4") when
// it has one, keeping its precision; otherwise it formats the degrees.
func sexagesimal(jpos string, pos [2]float64) (string, string) {
	f := strings.Fields(jpos)
	if len(f) == 2 && strings.Count(f[0], ":") == 2 && strings.Count(f[1], ":") == 2 &&
		(f[1][0] == '+' || f[1][0] == '-') {
		return f[0], f[1]
	}
	return raSex(pos[0]), decSex(pos[1])
}
