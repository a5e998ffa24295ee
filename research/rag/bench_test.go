package rag

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

var (
	benchChunks  = flag.Int("rag.chunks", 100_000, "passages in the retrieval benchmark")
	benchDim     = flag.Int("rag.dim", 768, "vector dimension in the retrieval benchmark")
	benchRescore = flag.Int("rag.rescore", 0, "passages re-ranked exactly after the binary search (0: the default)")
	benchDB      = flag.String("rag.db", "", "database file for the retrieval benchmark, built when missing and kept (default: a temporary one)")
)

// randomEmbedder returns a fresh random unit vector per input.
type randomEmbedder struct {
	dim int
	rng *rand.Rand
}

func (e *randomEmbedder) Embed(_ context.Context, in []string) ([][]float32, error) {
	out := make([][]float32, len(in))
	for i := range out {
		out[i] = randomUnit(e.rng, e.dim)
	}
	return out, nil
}

func randomUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
	return v
}

// benchVocabulary is a Zipf-distributed vocabulary: a few very common
// words, a long tail of rare ones, like a corpus of papers.
type benchVocabulary struct {
	words []string
	zipf  *rand.Zipf
}

func newVocabulary(r *rand.Rand) benchVocabulary {
	base := strings.Fields(`galaxy cluster redshift halo mass jet black hole accretion disk spectrum emission line
		flux density star formation rate metallicity dust gas cloud magnetic field shock wave neutron pulsar binary
		merger gravitational lensing shear cosmology dark matter energy baryon acoustic oscillation supernova light
		curve photometry spectroscopy survey telescope resolution calibration noise model simulation fit parameter`)
	words := slices.Clone(base)
	for i := 0; len(words) < 20_000; i++ {
		words = append(words, fmt.Sprintf("%s%d", base[i%len(base)], i))
	}
	return benchVocabulary{words: words, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))}
}

func (v benchVocabulary) text(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = v.words[v.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

// buildBenchIndex fills st with n passages of ~150 words (20 per paper)
// and n random dim-dimensional vectors, through the store's methods the
// indexer uses.
func buildBenchIndex(b *testing.B, st *store.Store, n, dim int, voc benchVocabulary, r *rand.Rand) {
	if err := st.RagUseModel(context.Background(), "bench"); err != nil {
		b.Fatal(err)
	}
	const perPaper = 20
	for lo := 0; lo < n; lo += perPaper {
		paper := addBenchPaper(b, st, int64(lo/perPaper+1))
		chunks := make([]store.RagChunk, 0, perPaper)
		for i := lo; i < min(lo+perPaper, n); i++ {
			text := voc.text(150)
			chunks = append(chunks, store.RagChunk{Seq: i - lo, SectionPath: "2 Results", End: len(text), Text: text})
		}
		addBenchPassages(b, st, paper, chunks, dim, func() []float32 { return randomUnit(r, dim) })
	}
}

// addBenchPaper stores the n-th benchmark paper (published in 2000 + n%25)
// and returns its id.
func addBenchPaper(b *testing.B, st *store.Store, n int64) int64 {
	arxiv := fmt.Sprintf("bench.%06d", n)
	year := 2000 + int(n)%25
	p, _, err := st.UpsertPaper(context.Background(), store.Paper{Title: "Paper " + arxiv, Year: &year, ArxivID: &arxiv})
	if err != nil {
		b.Fatal(err)
	}
	return p.ID
}

// addBenchPassages stores chunks as paperID's passages, each with a
// vector from next.
func addBenchPassages(b *testing.B, st *store.Store, paperID int64, chunks []store.RagChunk, dim int, next func() []float32) {
	ctx := context.Background()
	if err := st.RagReplaceChunks(ctx, paperID, "bench", "indexed", chunks); err != nil {
		b.Fatal(err)
	}
	pending, err := st.RagPendingChunks(ctx, paperID, len(chunks))
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, len(pending))
	blobs := make([][]byte, len(pending))
	for i, c := range pending {
		ids[i], blobs[i] = c.ID, vectorBlob(next())
	}
	if err := st.RagAddVectors(ctx, paperID, dim, ids, blobs); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRetrieval measures retrieval latency over -rag.chunks passages
// with -rag.dim vectors and reports p50/p95 in milliseconds for BM25 alone,
// vector alone and hybrid (both plus fusion and loading the passages), and
// the CPU time per query. An op is 64 questions (ns/op is for all 64).
// Building the index takes a minute or two; -rag.db keeps it for reruns.
//
//	go test -tags sqlite_fts5 ./research/rag -run '^$' -bench Retrieval -benchtime 4x -rag.db /tmp/rag-bench.db
func BenchmarkRetrieval(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 11))
	voc := newVocabulary(r)
	path := *benchDB
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench.db")
	}
	_, statErr := os.Stat(path)
	st := openStoreAt(b, path)
	if statErr != nil {
		start := time.Now()
		buildBenchIndex(b, st, *benchChunks, *benchDim, voc, r)
		b.Logf("built %d passages with %d-dim vectors in %s", *benchChunks, *benchDim, time.Since(start).Round(time.Second))
	} else {
		voc = newVocabulary(rand.New(rand.NewPCG(7, 11))) // same words as when it was built
	}
	emb := &randomEmbedder{dim: *benchDim, rng: rand.New(rand.NewPCG(3, 5))}
	svc := New(st, Options{Embedder: emb, EmbedModel: "bench", MinSimilarity: -2, Rescore: *benchRescore})
	ctx := context.Background()
	// A question: one very common word and three of middling frequency
	// (Zipf ranks 50–5,000), like "halo mass of cluster1234 at redshift5".
	questions := make([]Query, 64)
	for i := range questions {
		w := []string{voc.words[r.IntN(50)]}
		for range 3 {
			w = append(w, voc.words[50+r.IntN(4950)])
		}
		questions[i] = Query{Text: "what is the " + strings.Join(w, " ") + "?", Limit: 6}
	}
	filtered := make([]Query, len(questions))
	for i, q := range questions {
		q.Filter = Filter{Year: 2000 + i%25}
		filtered[i] = q
	}
	run := func(name string, qs []Query, fn func(Query) error) {
		b.Run(name, func(b *testing.B) {
			// One op asks every question once, so that even -benchtime 1x
			// (make bench) gives len(qs) samples for the percentiles.
			var took []time.Duration
			cpu0 := cpuTime()
			for b.Loop() {
				for _, q := range qs {
					t0 := time.Now()
					if err := fn(q); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(t0))
				}
			}
			reportPercentiles(b, took)
			// CPU time per query: what a query costs on an idle core, less
			// distorted than wall time on a busy machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(took)), "cpu-ms/op")
		})
	}
	common := make([]Query, len(questions))
	for i := range common {
		common[i] = Query{Text: voc.text(4), Limit: 6} // Zipf-drawn: mostly the commonest words
	}
	run("bm25", questions, func(q Query) error { _, err := svc.keywordRanking(ctx, q); return err })
	run("vector", questions, func(q Query) error { _, _, err := svc.vectorRanking(ctx, q); return err })
	run("vector_exact_scan", questions, func(Query) error { // the path for dimensions not divisible by 8
		_, err := svc.nearest(ctx, vectorBlob(randomUnit(r, *benchDim)), Filter{}, false)
		return err
	})
	run("hybrid", questions, func(q Query) error {
		res, err := svc.Search(ctx, q)
		if err == nil && res.Mode != ModeHybrid {
			err = fmt.Errorf("mode %s: %s", res.Mode, res.Note)
		}
		return err
	})
	run("bm25_common_words", common, func(q Query) error { _, err := svc.keywordRanking(ctx, q); return err })
	run("bm25_year_filter", filtered, func(q Query) error { _, err := svc.keywordRanking(ctx, q); return err })
	run("vector_year_filter", filtered, func(q Query) error { _, _, err := svc.vectorRanking(ctx, q); return err })
	run("hybrid_year_filter", filtered, func(q Query) error { _, err := svc.Search(ctx, q); return err })
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// BenchmarkBinaryRecall measures what binary quantisation with exact
// re-ranking loses: recall@10 against the exact cosine ranking, over
// clustered synthetic vectors (topics with noise, closer to real
// embeddings than uniform random ones), for several re-ranking depths.
//
//	go test -tags sqlite_fts5 ./research/rag -run '^$' -bench BinaryRecall -benchtime 1x
func BenchmarkBinaryRecall(b *testing.B) {
	const n, dim, topics = 20_000, 768, 200
	r := rand.New(rand.NewPCG(13, 17))
	centroids := make([][]float32, topics)
	for i := range centroids {
		centroids[i] = randomUnit(r, dim)
	}
	near := func(c []float32) []float32 {
		v := randomUnit(r, dim)
		for i := range v {
			v[i] = c[i] + 0.7*v[i]
		}
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(s))
		}
		return v
	}
	st := openStore(b)
	ctx := context.Background()
	chunks := make([]store.RagChunk, n)
	for i := range chunks {
		chunks[i] = store.RagChunk{Seq: i + 1, End: 1, Text: "x"}
	}
	addBenchPassages(b, st, addBenchPaper(b, st, 1), chunks, dim, func() []float32 { return near(centroids[r.IntN(topics)]) })
	queries := make([][]byte, 64)
	exact := make([]map[int64]bool, len(queries))
	for i := range queries {
		queries[i] = vectorBlob(near(centroids[r.IntN(topics)]))
		rows, err := New(st, Options{}).nearest(ctx, queries[i], Filter{}, false)
		if err != nil {
			b.Fatal(err)
		}
		exact[i] = map[int64]bool{}
		for _, row := range rows[:10] {
			exact[i][row.ID] = true
		}
	}
	for _, k := range []int{50, 100, 200, 400} {
		b.Run(fmt.Sprintf("rescore_%d", k), func(b *testing.B) {
			svc := New(st, Options{Rescore: k})
			found, total := 0, 0
			for b.Loop() { // an op: every query once
				for q := range queries {
					rows, err := svc.nearest(ctx, queries[q], Filter{}, true)
					if err != nil {
						b.Fatal(err)
					}
					for _, row := range rows[:min(10, len(rows))] {
						if exact[q][row.ID] {
							found++
						}
					}
					total += 10
				}
			}
			b.ReportMetric(float64(found)/float64(total), "recall@10")
		})
	}
}
