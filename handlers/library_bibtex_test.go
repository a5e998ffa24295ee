package handlers

import (
	"slices"
	"testing"
)

func TestExportIDs(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []int64
		ok   bool
	}{
		{nil, nil, true},
		{[]string{"3", "1"}, []int64{3, 1}, true},
		{[]string{"1,2", " 2 ", ""}, []int64{1, 2}, true},
		{[]string{"1", "x"}, nil, false},
		{[]string{"0"}, nil, false},
		{[]string{"-4"}, nil, false},
	} {
		got, ok := exportIDs(tc.in)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("exportIDs(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzExportIDs: whatever the query, ids are positive and unique.
func FuzzExportIDs(f *testing.F) {
	for _, s := range []string{"1,2,3", "x", "", ",,", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, ok := exportIDs([]string{s})
		seen := map[int64]bool{}
		for _, id := range ids {
			if !ok || id <= 0 || seen[id] {
				t.Fatalf("exportIDs(%q) = %v, %v", s, ids, ok)
			}
			seen[id] = true
		}
	})
}
