package triage

import (
	"math"
	"sort"
)

// unit scales v to length 1 in a new slice (nil for a zero vector).
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return nil
	}
	inv := float32(1 / math.Sqrt(n))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// dot is the dot product of two vectors of the same length (0 otherwise).
func dot(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// vectorSimilarity is a Similarity by cosine between unit vectors: the new
// papers' (nil where missing) and the library's, by corpus index.
func vectorSimilarity(papers, library [][]float32) Similarity {
	return func(i int) []similar {
		q := papers[i]
		if q == nil {
			return nil
		}
		var out []similar
		for d, v := range library {
			if s := dot(q, v); s >= minVectorSim {
				out = append(out, similar{doc: d, sim: s})
			}
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].sim != out[j].sim {
				return out[i].sim > out[j].sim
			}
			return out[i].doc < out[j].doc
		})
		return out[:min(len(out), similarPapers)]
	}
}
