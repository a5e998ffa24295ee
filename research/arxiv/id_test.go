package arxiv

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseID(t *testing.T) {
	tests := []struct {
		in   string
		want ID
	}{
		{"2401.01234", ID{"2401.01234", 0}},
		{"2401.01234v2", ID{"2401.01234", 2}},
		{"arXiv:2401.01234v2", ID{"2401.01234", 2}},
		{"arxiv:2401.01234", ID{"2401.01234", 0}},
		{"ARXIV: 2401.01234v12", ID{"2401.01234", 12}},
		{"arXiv:2401.01234v2 [astro-ph.GA]", ID{"2401.01234", 2}},
		{"  \t2401.01234v2\n", ID{"2401.01234", 2}},
		{"1501.00001", ID{"1501.00001", 0}},
		{"1412.3456", ID{"1412.3456", 0}},
		{"0704.0001v1", ID{"0704.0001", 1}},
		{"astro-ph/0601001", ID{"astro-ph/0601001", 0}},
		{"astro-ph/0601001v1", ID{"astro-ph/0601001", 1}},
		{"arXiv:astro-ph/0601001v3", ID{"astro-ph/0601001", 3}},
		{"math.GT/0309136", ID{"math/0309136", 0}},
		{"math.GT/0309136v2", ID{"math/0309136", 2}},
		{"hep-th/9901001", ID{"hep-th/9901001", 0}},
		{"solv-int/9901001", ID{"solv-int/9901001", 0}},
		{"Astro-Ph/0601001", ID{"astro-ph/0601001", 0}},
		{"https://arxiv.org/abs/2401.01234v2", ID{"2401.01234", 2}},
		{"http://arxiv.org/abs/2401.01234", ID{"2401.01234", 0}},
		{"https://arxiv.org/abs/2401.01234v2/", ID{"2401.01234", 2}},
		{"https://arxiv.org/abs/2401.01234v2?context=astro-ph#x", ID{"2401.01234", 2}},
		{"https://arxiv.org/pdf/2401.01234v2", ID{"2401.01234", 2}},
		{"https://arxiv.org/pdf/2401.01234v2.pdf", ID{"2401.01234", 2}},
		{"https://arxiv.org/pdf/2401.01234.pdf", ID{"2401.01234", 0}},
		{"https://arxiv.org/html/2401.01234v2", ID{"2401.01234", 2}},
		{"https://arxiv.org/html/2401.01234v2/", ID{"2401.01234", 2}},
		{"https://www.arxiv.org/abs/2401.01234", ID{"2401.01234", 0}},
		{"http://export.arxiv.org/abs/2401.01234v1", ID{"2401.01234", 1}},
		{"https://ar5iv.labs.arxiv.org/html/2401.01234", ID{"2401.01234", 0}},
		{"https://ar5iv.org/abs/1910.06709", ID{"1910.06709", 0}},
		{"arxiv.org/abs/2401.01234v2", ID{"2401.01234", 2}},
		{"https://arxiv.org/abs/astro-ph/0601001v1", ID{"astro-ph/0601001", 1}},
		{"https://arxiv.org/pdf/math.GT/0309136v1.pdf", ID{"math/0309136", 1}},
		{"HTTPS://ARXIV.ORG/abs/2401.01234", ID{"2401.01234", 0}},
		{"http://arxiv.org/abs/hep-ex/0307015v1", ID{"hep-ex/0307015", 1}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseID(tt.in)
			if err != nil {
				t.Fatalf("ParseID(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("ParseID(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseIDRejects(t *testing.T) {
	tests := []struct {
		in, why string // why: a fragment of the expected message
	}{
		{"", "empty"},
		{"   ", "empty"},
		{"hello world", "form"},
		{"2401.1234", "5-digit"},     // 4 digits since 2015
		{"1412.12345", "4-digit"},    // 5 digits before 2015
		{"1501.0001", "5-digit"},     // 4 digits since 2015
		{"2413.01234", "month"},      // month 13
		{"2400.01234", "month"},      // month 00
		{"0612.1234", "April 2007"},  // before new style began
		{"2401.00000", "zero"},       // no paper zero
		{"2401.01234v0", "version"},  // versions start at 1
		{"2401.01234v02", "version"}, // leading zero
		{"2401.01234v", "form"},
		{"2401.01234v1v2", "form"},
		{"2401_01234", "form"},
		{"24010.1234", "form"},
		{"foo-ph/0601001", "archive"},
		{"astro-ph/060100", "7 digits"},
		{"astro-ph/1501001", "1991"},  // old style ended in 2007
		{"astro-ph/0613001", "month"}, // month 13
		{"astro-ph/0601000", "zero"},
		{"math.G1/0309136", "subject class"},
		{"https://example.com/abs/2401.01234", "not arXiv"},
		{"ftp://arxiv.org/abs/2401.01234", "scheme"},
		{"https://arxiv.org/list/astro-ph.GA/new", "path"},
		{"https://arxiv.org/abs/", "path"},
		{"https://arxiv.org/abs/not-an-id", "form"},
		{"arXiv:", "form"},
		{"2401.01234 extra", "form"},
		{strings.Repeat("1", 600), "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseID(tt.in)
			if err == nil {
				t.Fatalf("ParseID(%q) = %+v, want an error", tt.in, got)
			}
			if !errors.Is(err, ErrInvalidID) {
				t.Errorf("error %v does not wrap ErrInvalidID", err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("error %q does not mention %q", err, tt.why)
			}
		})
	}
}

func TestIDMethods(t *testing.T) {
	tests := []struct {
		id       ID
		str      string
		old      bool
		zero     bool
		unversed string
	}{
		{ID{"2401.01234", 2}, "2401.01234v2", false, false, "2401.01234"},
		{ID{"2401.01234", 0}, "2401.01234", false, false, "2401.01234"},
		{ID{"astro-ph/0601001", 1}, "astro-ph/0601001v1", true, false, "astro-ph/0601001"},
		{ID{}, "", false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.str, func(t *testing.T) {
			if got := tt.id.String(); got != tt.str {
				t.Errorf("String = %q, want %q", got, tt.str)
			}
			if got := tt.id.OldStyle(); got != tt.old {
				t.Errorf("OldStyle = %v, want %v", got, tt.old)
			}
			if got := tt.id.IsZero(); got != tt.zero {
				t.Errorf("IsZero = %v, want %v", got, tt.zero)
			}
			if got := tt.id.Unversioned().String(); got != tt.unversed {
				t.Errorf("Unversioned = %q, want %q", got, tt.unversed)
			}
		})
	}
}

func TestIDText(t *testing.T) {
	type doc struct {
		ID ID `json:"id"`
	}
	b, err := json.Marshal(doc{ID{"astro-ph/0601001", 2}})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"id":"astro-ph/0601001v2"}` {
		t.Fatalf("marshal = %s", b)
	}
	var d doc
	if err := json.Unmarshal([]byte(`{"id":"https://arxiv.org/abs/2401.01234v3"}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.ID != (ID{"2401.01234", 3}) {
		t.Fatalf("unmarshal = %+v", d.ID)
	}
	if err := json.Unmarshal([]byte(`{"id":"nonsense"}`), &d); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("unmarshal nonsense: %v, want ErrInvalidID", err)
	}
}

// FuzzParseID checks that ParseID never panics, that what it accepts is
// canonical (String parses back to the same ID), and that its errors wrap
// ErrInvalidID.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{
		"2401.01234v2", "arXiv:2401.01234", "astro-ph/0601001v1", "math.GT/0309136",
		"https://arxiv.org/pdf/2401.01234v2.pdf", "ar5iv.labs.arxiv.org/html/1910.06709",
		"arXiv:2401.01234 [astro-ph.GA]", "v1", "/", "arxiv.org/abs/", "2401.01234vv",
		"http://[::1]/abs/2401.01234", "0704.0001", "hep-th/9901001v12",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseID(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidID) {
				t.Fatalf("error %v does not wrap ErrInvalidID", err)
			}
			return
		}
		if id.Base == "" || id.Version < 0 {
			t.Fatalf("ParseID(%q) = %+v", s, id)
		}
		if !utf8.ValidString(id.String()) || strings.ContainsAny(id.String(), " ,?#:\"") {
			t.Fatalf("ParseID(%q) = %q: unsafe characters", s, id)
		}
		again, err := ParseID(id.String())
		if err != nil || again != id {
			t.Fatalf("ParseID(%q) = %+v, but its String %q parses to %+v, %v", s, id, id, again, err)
		}
	})
}
