package sesame

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseSimbad(t *testing.T) {
	o, err := Parse("ngc1275", fixture(t, "ngc1275.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Name != "NGC 1275" || o.Type != "SyG" || o.Resolver != "Simbad" || o.RADeg != 49.9506671 || o.DecDeg != 41.5116953 {
		t.Fatalf("%+v", o)
	}
	if o.RASex != "03:19:48.16" || o.DecSex != "+41:30:42.1" {
		t.Fatalf("sexagesimal %s %s", o.RASex, o.DecSex)
	}
	if o.Redshift == nil || *o.Redshift != 0.017559 || o.VelocityKmS == nil || *o.VelocityKmS != 5264 {
		t.Fatalf("z/v %v %v", o.Redshift, o.VelocityKmS)
	}
	if strings.Join(o.Aliases, "|") != "Perseus A|3C 84|UGC 2669|Abell 426 BCG" {
		t.Fatalf("aliases %q", o.Aliases)
	}
}

func TestParseFallsThroughToNED(t *testing.T) {
	o, err := Parse("2MASX J03194823+4130420", fixture(t, "ned_only.xml"))
	if err != nil || o.Resolver != "NED" || o.Name != "NGC 1275" || o.Redshift != nil || *o.VelocityKmS != 5260 {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestParseNotFoundAndMalformed(t *testing.T) {
	if _, err := Parse("xyzzy", fixture(t, "notfound.xml")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("not found: %v", err)
	}
	for _, body := range []string{"", "<html><body>502 Bad Gateway</body></html>", "<Sesame><Target><Resolver><jradeg>abc</jradeg><jdedeg>1</jdedeg></Resolver></Target></Sesame>",
		"<Sesame><Target><Resolver><jradeg>400</jradeg><jdedeg>1</jdedeg></Resolver></Target></Sesame>"} {
		if _, err := Parse("x", []byte(body)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: %v, want ErrMalformed", body, err)
		}
	}
}

func TestSexagesimal(t *testing.T) {
	for _, tc := range []struct {
		ra, dec         float64
		wantRA, wantDec string
	}{
		{0, 0, "00:00:00.00", "+00:00:00.0"},
		{359.99999999, -89.9999999, "00:00:00.00", "-90:00:00.0"},
		{187.70593, 12.39112, "12:30:49.42", "+12:23:28.0"},
		{83.82208, -5.39111, "05:35:17.30", "-05:23:28.0"},
	} {
		if got := raSex(tc.ra); got != tc.wantRA {
			t.Errorf("raSex(%v) = %s, want %s", tc.ra, got, tc.wantRA)
		}
		if got := decSex(tc.dec); got != tc.wantDec {
			t.Errorf("decSex(%v) = %s, want %s", tc.dec, got, tc.wantDec)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("<Sesame><Target><Resolver><jradeg>1</jradeg><jdedeg>2</jdedeg></Resolver></Target></Sesame>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := Parse("q", body)
		if err == nil && (o.RADeg < 0 || o.RADeg >= 360 || o.DecDeg < -90 || o.DecDeg > 90) {
			t.Fatalf("accepted out-of-range coordinates %+v", o)
		}
	})
}

// TestParseMergesResolvers: VizieR listed first must not win; SIMBAD
// leads (name, type, position and its reference, aliases) and NED fills
// what SIMBAD lacks (velocity, morphology).
func TestParseMergesResolvers(t *testing.T) {
	o, err := Parse("NGC 4258", fixture(t, "ngc4258_all.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, got, want string }{
		{"name", o.Name, "M 106"},
		{"type", o.Type, "LIN"},
		{"resolver", o.Resolver, "Simbad"},
		{"ra text", o.RADegText, "184.74008"},
		{"dec text", o.DecDegText, "47.30372"},
		{"ra sex", o.RASex, "12:18:57.62"},
		{"dec sex", o.DecSex, "+47:18:13.4"},
		{"position ref", o.PositionRef, "2006AJ....131.1163S"},
		{"morphology", o.Morphology, "SAB(s)bc"},
		{"resolvers", strings.Join(o.Resolvers, ","), "Simbad,NED,VizieR"},
		{"redshift source", o.Sources["redshift"], "Simbad"},
		{"velocity source", o.Sources["velocity_kms"], "NED"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if o.RADeg != 184.74008 || o.DecDeg != 47.30372 {
		t.Errorf("position %v %v", o.RADeg, o.DecDeg)
	}
	if o.Redshift == nil || *o.Redshift != 0.001541 || o.VelocityKmS == nil || *o.VelocityKmS != 448 {
		t.Errorf("z %v v %v", o.Redshift, o.VelocityKmS)
	}
	aliases := strings.Join(o.Aliases, "|")
	if !strings.HasPrefix(aliases, "NGC 4258|UGC 7353|PGC 39600|") || strings.Contains(aliases, "{") || !strings.Contains(aliases, "MESSIER 106") {
		t.Errorf("aliases %q", aliases)
	}
}

// TestParseVizieROnly: a catalogue match alone still resolves, braces
// removed and the padded degrees shown with their real precision.
func TestParseVizieROnly(t *testing.T) {
	body := `<Sesame><Target><Resolver name="S=Simbad"><INFO>*** Nothing found ***</INFO></Resolver>` +
		`<Resolver name="V=VizieR (CDS)"><jpos>12:18:55.2 +47:18:00</jpos><jradeg>184.730000</jradeg><jdedeg>+47.300000</jdedeg><oname>{NGC} 4258</oname></Resolver></Target></Sesame>`
	o, err := Parse("ngc4258", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if o.Name != "NGC 4258" || o.RADegText != "184.73" || o.DecDegText != "47.3" || o.Resolver != "VizieR" || o.Type != "" || o.Redshift != nil {
		t.Fatalf("%+v", o)
	}
}
