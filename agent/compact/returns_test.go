package compact

import "testing"

func TestDiminishingReturns(t *testing.T) {
	tests := []struct {
		name   string
		deltas []int
		want   []bool
	}{
		{"two small checks but too early", []int{100, 100}, []bool{false, false}},
		{"third continuation, two small in a row", []int{900, 100, 100}, []bool{false, false, true}},
		{"small, big, small", []int{100, 900, 100, 900}, []bool{false, false, false, false}},
		{"later", []int{900, 900, 900, 499, 499}, []bool{false, false, false, false, true}},
		{"500 is not small", []int{900, 500, 500, 500}, []bool{false, false, false, false}},
		{"sticky", []int{100, 100, 100, 5000}, []bool{false, false, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d DiminishingReturns
			for i, n := range tt.deltas {
				if got := d.Check(n); got != tt.want[i] {
					t.Fatalf("check %d (%d tokens) = %v, want %v", i+1, n, got, tt.want[i])
				}
			}
			if d.Stopped() != tt.want[len(tt.want)-1] {
				t.Error("Stopped disagrees")
			}
		})
	}
}
