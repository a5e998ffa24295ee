package ads

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestValidBibcode(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"2019ApJ...875L...1E", true},
		{"2019A&A...623A..24A", true},
		{"2019arXiv190611238E", true},
		{"2006astro.ph..1001X", true},
		{"1998AJ....116.1009R", true},
		{"2019MNRAS.482.2158G", true},
		{"1989ApJ...345..245.", true}, // no first author
		{"2012yCat..74214031B", true},
		{"", false},
		{"2019ApJ...875L...1", false},   // 18
		{"2019ApJ...875L...1EE", false}, // 20
		{"19ApJ...875L...1EAB", false},  // year not digits
		{"2019.ApJ..875L...1E", false},  // journal starts with a dot
		{"2019ApJ...875L...12", false},  // last is a digit
		{"2019ApJ 875L.....1E", false},  // space
		{`2019ApJ..."75L...1E`, false},  // quote
		{`2019ApJ...'75L...1E`, false},  // quote
		{"2019ApJ/../75L...1E", false},  // slash
		{"2019ApJ...875L…1E", false},    // non-ASCII
		{"10.3847/2041-8213/a", false},  // a 19-byte DOI
	}
	for _, tt := range tests {
		if got := ValidBibcode(tt.in); got != tt.want {
			t.Errorf("ValidBibcode(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeDOI(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"10.3847/2041-8213/ab0ec7", "10.3847/2041-8213/ab0ec7"},
		{"  doi:10.1093/mnras/stw2772\n", "10.1093/mnras/stw2772"},
		{"DOI: 10.1093/MNRAS/stw2772", "10.1093/MNRAS/stw2772"},
		{"https://doi.org/10.1051/0004-6361/201935034", "10.1051/0004-6361/201935034"},
		{"HTTP://DX.DOI.ORG/10.1086/345794", "10.1086/345794"},
		{"doi.org/10.1126/science.aav8137", "10.1126/science.aav8137"},
		{"https://doi.org/10.1002%2F%28SICI%291097-4636", "10.1002/(SICI)1097-4636"},
		{"https://doi.org/doi:10.48550/arXiv.1906.11238", "10.48550/arXiv.1906.11238"},
		{"10.1000.10/abc", "10.1000.10/abc"},
		{"10.1002/(SICI)1097-4636(199812)43:4<387::AID-JBM6>3.0.CO;2-B", "10.1002/(SICI)1097-4636(199812)43:4<387::AID-JBM6>3.0.CO;2-B"},
	}
	for _, tt := range tests {
		got, err := NormalizeDOI(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeDOI(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	bad := []string{
		"", "doi:", "10.3847", "10.3847/", "10.38/abc", "11.3847/abc", "10.abcd/x", "10.3847/ab c",
		"10.3847/ab\x00c", "https://doi.org/10.3847/%zz", "https://example.org/10.3847/x",
		"10.3847/" + strings.Repeat("a", maxDOILen), "10.3847/\xff", "arXiv:1906.11238",
	}
	for _, in := range bad {
		if got, err := NormalizeDOI(in); !errors.Is(err, ErrMalformedID) {
			t.Errorf("NormalizeDOI(%q) = %q, %v; want ErrMalformedID", in, got, err)
		}
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		in   string
		kind IDKind
		norm string
	}{
		{"2019ApJ...875L...1E", KindBibcode, "2019ApJ...875L...1E"},
		{"https://doi.org/10.3847/2041-8213/ab0ec7", KindDOI, "10.3847/2041-8213/ab0ec7"},
		{"arXiv:1906.11238v3", KindArxiv, "1906.11238"},
		{"1201.1234", KindArxiv, "1201.1234"},
		{"astro-ph/0601001v1", KindArxiv, "astro-ph/0601001"},
		{"arXiv:math.GT/0309136", KindArxiv, "math.GT/0309136"},
		{"M87", KindUnknown, ""},
		{"1906.112", KindUnknown, ""},
		{"astro-ph/06010", KindUnknown, ""},
	}
	for _, tt := range tests {
		kind, norm, err := ParseID(tt.in)
		if kind != tt.kind || norm != tt.norm || (err != nil) != (tt.kind == KindUnknown) {
			t.Errorf("ParseID(%q) = %v, %q, %v; want %v, %q", tt.in, kind, norm, err, tt.kind, tt.norm)
		}
	}
}

func FuzzValidBibcode(f *testing.F) {
	for _, s := range []string{"2019ApJ...875L...1E", "2019A&A...623A..24A", "1989ApJ...345..245.", "", "2019ApJ...875L...1\"", "２019ApJ...875L...1E"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidBibcode(s) {
			return
		}
		if len(s) != 19 || !utf8.ValidString(s) || strings.ContainsAny(s, " \"'\\()/?#%\x00") {
			t.Fatalf("accepted %q", s)
		}
		for _, r := range s {
			if r > unicode.MaxASCII || unicode.IsControl(r) {
				t.Fatalf("accepted non-ASCII or control %q", s)
			}
		}
		// A valid bibcode is its own query term and its own gateway path.
		if q := ByBibcode(s); q != `bibcode:"`+s+`"` {
			t.Fatalf("ByBibcode(%q) = %q", s, q)
		}
		if _, err := New("", "", nil).LinkGateway(s, EprintPDF); err != nil {
			t.Fatalf("LinkGateway(%q): %v", s, err)
		}
	})
}

func FuzzNormalizeDOI(f *testing.F) {
	for _, s := range []string{
		"10.3847/2041-8213/ab0ec7", "doi:10.1093/mnras/stw2772", "https://doi.org/10.1002%2Fx",
		"https://dx.doi.org/doi:DOI:10.1000/a", "10.38/x", "10.1000/\"quoted\"", "doi.org/10.1234/%",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := NormalizeDOI(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedID) {
				t.Fatalf("NormalizeDOI(%q): error %v does not wrap ErrMalformedID", s, err)
			}
			return
		}
		if !strings.HasPrefix(d, "10.") || !strings.Contains(d, "/") || len(d) > maxDOILen || !utf8.ValidString(d) ||
			strings.ContainsFunc(d, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			t.Fatalf("NormalizeDOI(%q) = %q", s, d)
		}
		if again, err := NormalizeDOI(d); err != nil || again != d {
			t.Fatalf("not a fixed point: %q → %q → %q, %v", s, d, again, err)
		}
		if kind, norm, err := ParseID(d); err != nil || kind != KindDOI || norm != d {
			t.Fatalf("ParseID(%q) = %v, %q, %v", d, kind, norm, err)
		}
		if q := ByDOI(d); q != "doi:"+Quote(d) {
			t.Fatalf("ByDOI(%q) = %q", d, q)
		}
	})
}
