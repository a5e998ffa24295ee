package agent

import (
	"fmt"
	"testing"
)

func TestPartitionSpecExample(t *testing.T) {
	// read, grep, bash, read, write
	got := Partition([]bool{true, true, false, true, false})
	if fmt.Sprint(got) != "[[0 1] [2] [3] [4]]" {
		t.Fatalf("Partition = %v, want [[0 1] [2] [3] [4]]", got)
	}
	for _, tc := range []struct {
		in   []bool
		want string
	}{
		{nil, "[]"},
		{[]bool{false, false}, "[[0] [1]]"},
		{[]bool{true, true, true}, "[[0 1 2]]"},
		{[]bool{false, true, true, false, true}, "[[0] [1 2] [3] [4]]"},
	} {
		if got := fmt.Sprint(Partition(tc.in)); got != tc.want {
			t.Errorf("Partition(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
