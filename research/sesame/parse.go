// Package sesame resolves astronomical object names with the CDS Sesame
// service (SIMBAD, NED and VizieR behind one query), docs/features.md T13.
package sesame

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Object is a resolved name: the databases' answers merged (Merge).
type Object struct {
	Query  string  `json:"query"`
	Name   string  `json:"name"`    // main identifier (whitespace normalised, catalogue braces removed)
	Type   string  `json:"type"`    // SIMBAD/NED object type code, e.g. "SyG"
	RADeg  float64 `json:"ra_deg"`  // ICRS J2000, degrees
	DecDeg float64 `json:"dec_deg"` // ICRS J2000, degrees
	// RADegText and DecDegText are the degrees as the source wrote them,
	// padding zeros dropped: their digits are the position's precision.
	RADegText  string `json:"ra_deg_text"`
	DecDegText string `json:"dec_deg_text"`
	RASex      string `json:"ra_sex"`  // hh:mm:ss.ss, as the source gave it when it did
	DecSex     string `json:"dec_sex"` // ±dd:mm:ss.s, as the source gave it when it did
	// PositionRef is the bibcode of the position's reference ("" if none).
	PositionRef string   `json:"position_ref"`
	Redshift    *float64 `json:"redshift"` // nil when Sesame gave none
	VelocityKmS *float64 `json:"radial_velocity_kms"`
	// Morphology is the morphological type (SIMBAD's, else NED's).
	Morphology string   `json:"morphology"`
	Aliases    []string `json:"aliases"`
	Resolver   string   `json:"resolver"` // the database whose identification leads: Simbad, NED or VizieR
	// Resolvers are every database that knew the object, in preference
	// order (Simbad, NED, VizieR).
	Resolvers []string `json:"resolvers"`
	// Sources says which database each merged field came from, by JSON
	// field name ("redshift": "NED"); left out when empty (a JSON null
	// would not be the object its schema promises MCP clients).
	Sources map[string]string `json:"sources,omitempty"`
}

// ErrNotFound means Sesame answered but none of its databases knows the name.
var ErrNotFound = errors.New("not found by Sesame")

// ErrMalformed means the answer was not Sesame XML.
var ErrMalformed = errors.New("malformed Sesame response")

type xmlSesame struct {
	XMLName xml.Name    `xml:"Sesame"`
	Targets []xmlTarget `xml:"Target"`
}

type xmlTarget struct {
	Name      string        `xml:"name"`
	Resolvers []xmlResolver `xml:"Resolver"`
	Info      []string      `xml:"INFO"`
}

type xmlResolver struct {
	Name    string   `xml:"name,attr"`
	OType   string   `xml:"otype"`
	JPos    string   `xml:"jpos"`
	RA      string   `xml:"jradeg"`
	Dec     string   `xml:"jdedeg"`
	RefPos  string   `xml:"refPos"`
	Z       string   `xml:"z"`
	Vel     xmlVel   `xml:"Vel"`
	MType   string   `xml:"MType"`
	OName   string   `xml:"oname"`
	Aliases []string `xml:"alias"`
	Info    []string `xml:"INFO"`
}

type xmlVel struct {
	V string `xml:"v"`
}

// Parse reads a Sesame XML answer (output option -ox with I for aliases,
// several resolvers asked with ~) for query and merges the databases that
// knew the object (see merge). It returns ErrNotFound when none did.
func Parse(query string, body []byte) (Object, error) {
	var doc xmlSesame
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	if err := dec.Decode(&doc); err != nil {
		return Object{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	var found []xmlResolver
	for _, t := range doc.Targets {
		for _, r := range t.Resolvers {
			if strings.TrimSpace(r.RA) == "" || strings.TrimSpace(r.Dec) == "" {
				continue
			}
			if _, err := coordinates(r); err != nil {
				return Object{}, err
			}
			found = append(found, r)
		}
	}
	if len(found) == 0 {
		return Object{}, ErrNotFound
	}
	return merge(query, found), nil
}

// coordinates parses and range-checks a resolver's position.
func coordinates(r xmlResolver) ([2]float64, error) {
	ra, err1 := strconv.ParseFloat(strings.TrimSpace(r.RA), 64)
	dec, err2 := strconv.ParseFloat(strings.TrimSpace(r.Dec), 64)
	if err1 != nil || err2 != nil || ra < 0 || ra >= 360 || dec < -90 || dec > 90 || math.IsNaN(ra+dec) {
		return [2]float64{}, fmt.Errorf("%w: coordinates %q %q", ErrMalformed, r.RA, r.Dec)
	}
	return [2]float64{ra, dec}, nil
}

// resolverRank orders databases by how much their identification is
// trusted: SIMBAD, then NED, then VizieR (a catalogue match only).
func resolverRank(name string) int {
	switch strings.ToLower(name) {
	case "simbad":
		return 0
	case "ned":
		return 1
	case "vizier":
		return 2
	}
	return 3
}

// squeeze collapses runs of whitespace (Sesame pads catalogue numbers:
// "NGC  1275").
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// resolverName turns "S=Simbad (via url)" into "Simbad".
func resolverName(attr string) string {
	if _, rest, ok := strings.Cut(attr, "="); ok {
		attr = rest
	}
	if name, _, ok := strings.Cut(attr, " "); ok {
		return name
	}
	return attr
}

// raSex formats right ascension in degrees as hh:mm:ss.ss.
func raSex(deg float64) string {
	total := math.Round(deg/15*3600*100) / 100 // seconds of time, 0.01 s
	if total >= 24*3600 {
		total -= 24 * 3600
	}
	h := math.Floor(total / 3600)
	m := math.Floor((total - h*3600) / 60)
	s := total - h*3600 - m*60
	return fmt.Sprintf("%02.0f:%02.0f:%05.2f", h, m, s)
}

// decSex formats declination in degrees as ±dd:mm:ss.s.
func decSex(deg float64) string {
	sign := "+"
	if deg < 0 {
		sign, deg = "-", -deg
	}
	total := math.Round(deg*3600*10) / 10 // arcseconds, 0.1"
	d := math.Floor(total / 3600)
	m := math.Floor((total - d*3600) / 60)
	s := total - d*3600 - m*60
	return fmt.Sprintf("%s%02.0f:%02.0f:%04.1f", sign, d, m, s)
}
