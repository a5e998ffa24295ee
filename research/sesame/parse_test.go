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
