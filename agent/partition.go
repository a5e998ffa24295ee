package agent

// Partition splits calls (given as whether each is concurrency-safe) into
// batches that run one after another, keeping call order: consecutive safe
// calls share a batch and run in parallel, every other call runs alone
// (docs/features.md R13: [read, grep, bash, read, write] → [read∥grep] [bash] [read] [write]).
// It returns the batches as index lists into the input.
func Partition(safe []bool) [][]int {
	var batches [][]int
	for i, s := range safe {
		if s && len(batches) > 0 {
			last := batches[len(batches)-1]
			if safe[last[0]] {
				batches[len(batches)-1] = append(last, i)
				continue
			}
		}
		batches = append(batches, []int{i})
	}
	return batches
}
