package views

import (
	"reflect"
	"testing"
)

func TestTexSegments(t *testing.T) {
	for in, want := range map[string][]TexSegment{
		"mass $M = 6.5\\times10^9$ here": {{Text: "mass "}, {Text: "$M = 6.5\\times10^9$", Math: true}, {Text: " here"}},
		"$$E=mc^2$$":                     {{Text: "$$E=mc^2$$", Math: true, Display: true}},
		"costs \\$5 and $x$":             {{Text: "costs \\$5 and "}, {Text: "$x$", Math: true}},
		"unclosed $x and more":           {{Text: "unclosed $x and more"}},
		"empty $$ here":                  {{Text: "empty $$ here"}},
		"$\\$$":                          {{Text: "$\\$$", Math: true}},
		"":                               nil,
	} {
		if got := texSegments(in); !reflect.DeepEqual(got, want) {
			t.Errorf("texSegments(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func FuzzTexSegments(f *testing.F) {
	f.Add("a $b$ c $$d$$ \\$ $")
	f.Fuzz(func(t *testing.T, s string) {
		var joined string
		for _, seg := range texSegments(s) {
			joined += seg.Text
		}
		if joined != s {
			t.Fatalf("segments of %q join to %q", s, joined)
		}
	})
}
