package rag

import (
	"reflect"
	"strings"
	"testing"
)

func TestCheckCitations(t *testing.T) {
	text := "M87 hosts a jet seen from radio to X-rays [1]. Its black hole mass is $6.5\\times10^9 M_\\odot$ [2, 3].\n\n" +
		"Smith et al. measured the shadow diameter. [3] The ring is 42 μas across (Fig. 2) [7].\n" +
		"This is from memory and cites nothing.\n\n" +
		"- Spin is uncertain [2-3]\n- Fake claim [9]"
	got := CheckCitations(text, 3)
	want := [][]Sentence{
		{{"M87 hosts a jet seen from radio to X-rays.", []int{1}}, {"Its black hole mass is $6.5\\times10^9 M_\\odot$.", []int{2, 3}}},
		{{"Smith et al. measured the shadow diameter.", []int{3}}},
		{{"- Spin is uncertain", []int{2, 3}}},
	}
	if !reflect.DeepEqual(got.Paragraphs, want) {
		t.Errorf("paragraphs\n got %#v\nwant %#v", got.Paragraphs, want)
	}
	wantRemoved := []string{"The ring is 42 μas across (Fig. 2).", "This is from memory and cites nothing.", "- Fake claim"}
	if !reflect.DeepEqual(got.Removed, wantRemoved) {
		t.Errorf("removed\n got %q\nwant %q", got.Removed, wantRemoved)
	}
	if got.Dropped != 2 {
		t.Errorf("dropped %d markers, want 2 ([7] and [9])", got.Dropped)
	}
}

func TestCheckCitationsNothingCited(t *testing.T) {
	if got := CheckCitations("I think the answer is 42.", 4); !got.Empty() || len(got.Removed) != 1 {
		t.Fatalf("%+v", got)
	}
	if got := CheckCitations("", 4); !got.Empty() || len(got.Removed) != 0 {
		t.Fatalf("%+v", got)
	}
}

func FuzzCheckCitations(f *testing.F) {
	f.Add("A [1]. B [2,3] C. [4] d e.g. f [1-20]", 3)
	f.Add("[999999] x [1–2]", 2)
	f.Fuzz(func(t *testing.T, text string, n int) {
		n %= 50
		got := CheckCitations(text, n)
		for _, p := range got.Paragraphs {
			for _, s := range p {
				if len(s.Cites) == 0 || strings.TrimSpace(s.Text) == "" {
					t.Fatalf("kept sentence without citation or text: %+v", s)
				}
				for _, c := range s.Cites {
					if c < 1 || c > n {
						t.Fatalf("cite %d outside 1..%d", c, n)
					}
				}
				if citeRe.MatchString(s.Text) {
					t.Fatalf("marker left in %q", s.Text)
				}
			}
		}
	})
}
