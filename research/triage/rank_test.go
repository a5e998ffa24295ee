package triage

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NGC 4258", " ngc 4258 "},
		{"NGC4258", " ngc 4258 "},
		{"ngc-4258", " ngc 4258 "},
		{"Ångström  lines!", " angstrom lines "},
		{"", " "},
		{"4258A", " 4258a "},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMatchers(t *testing.T) {
	txt := newText("Water masers in M106", "We observe NGC4258 and the galaxy M 31 with VLBI; Kormendy-like bulges.")
	m106 := store.TriageObject{Name: "NGC 4258", Canonical: "M 106", Aliases: []string{"NGC 4258", "UGC 7353"}}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"keyword in title", keywordHit(txt, "water masers"), 2},
		{"keyword in abstract", keywordHit(txt, "VLBI"), 1},
		{"keyword absent", keywordHit(txt, "quasar"), 0},
		{"part of a word is no keyword", keywordHit(txt, "mase"), 0},
		{"object by canonical name", objectHit(txt, m106), "NGC 4258"},
		{"object by alias only", objectHit(newText("UGC7353 revisited", ""), m106), "UGC 7353"},
		{"M 1 is not M 106", objectHit(txt, store.TriageObject{Name: "M 1"}), ""},
		{"M31 written M 31", objectHit(txt, store.TriageObject{Name: "M31"}), "M31"},
		{"author by family name", parseAuthor("Kormendy").matches("John Kormendy"), true},
		{"author with initial", parseAuthor("Kormendy, J.").matches("John Kormendy"), true},
		{"wrong initial", parseAuthor("A. Kormendy").matches("John Kormendy"), false},
		{"particle names", parseAuthor("de Jong, R.").matches("Roelof S. de Jong"), true},
		{"accents folded", parseAuthor("Fernandez").matches("Maria J. Fernández"), true},
		{"other author", parseAuthor("Ho").matches("Luis C. Hong"), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestRankLibrarySimilarity(t *testing.T) {
	lib := NewCorpus(
		[]string{"Cold gas in ultra-faint dwarf galaxies", "Dwarf galaxy gas fractions at high redshift", "Pulsar timing arrays"},
		[]string{"[CII] stacking of dwarf galaxies at z~6 gives cold gas masses.", "Gas fractions of dwarf galaxies exceed local ones.", "Gravitational waves from pulsar timing."})
	r := NewRanker(store.TriageSettings{}, lib, nil)
	scores := r.Rank([]store.TriagePaper{
		{ArxivID: "b", Title: "Nothing in common", Abstract: "Solar flares and coronal loops."},
		{ArxivID: "a", Title: "Cold gas fractions of dwarf galaxies", Abstract: "Stacked [CII] shows dwarf galaxies are gas rich at high redshift."},
	}, nil)
	if scores[0].ArxivID != "a" || scores[0].Score <= 0 || scores[1].Score != 0 {
		t.Fatalf("scores = %+v", scores)
	}
	if r := scores[0].Reasons[0]; !strings.HasPrefix(r, "similar to 2 papers in your library: ") ||
		!strings.Contains(r, `"Cold gas in ultra-faint dwarf galaxies"`) || !strings.Contains(r, `"Dwarf galaxy gas fractions at high redshift"`) {
		t.Fatalf("reason = %q", scores[0].Reasons[0])
	}
	if len(scores[1].Reasons) != 0 {
		t.Fatalf("unrelated paper has reasons %q", scores[1].Reasons)
	}
}

func TestVectorSimilarity(t *testing.T) {
	lib := [][]float32{unit([]float32{1, 0, 0}), unit([]float32{0.9, 0.1, 0}), unit([]float32{0, 0, 1})}
	papers := [][]float32{unit([]float32{1, 0.05, 0}), nil}
	sim := vectorSimilarity(papers, lib)
	got := sim(0)
	if len(got) != 2 || got[0].doc != 0 || got[1].doc != 1 {
		t.Fatalf("similar = %+v, want docs 0 and 1", got)
	}
	if sim(1) != nil {
		t.Fatal("a paper without a vector has neighbours")
	}
}

func TestFollows(t *testing.T) {
	tests := []struct {
		followed, cats []string
		want           bool
	}{
		{[]string{"astro-ph.GA"}, []string{"astro-ph.HE", "astro-ph.GA"}, true},
		{[]string{"astro-ph"}, []string{"astro-ph.SR"}, true},
		{[]string{"astro-ph.GA"}, []string{"astro-ph.GAX"}, false},
		{[]string{"astro-ph.GA"}, []string{"astro-ph"}, false},
		{nil, []string{"astro-ph.GA"}, false},
	}
	for _, tt := range tests {
		if got := Follows(tt.followed, tt.cats); got != tt.want {
			t.Errorf("Follows(%v, %v) = %v", tt.followed, tt.cats, got)
		}
	}
}

// BenchmarkRank1000Against5000 ranks a day of 1,000 new papers against a
// 5,000-paper library by BM25 with keywords, objects and authors (the
// issue's budget: under 1 s). It prints the time per ranking.
func BenchmarkRank1000Against5000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 8000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x", i*7919)
	}
	words := func(n int) string {
		var sb strings.Builder
		for range n {
			// Zipf-like: common words are much more frequent.
			sb.WriteString(vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64()*rng.Float64())])
			sb.WriteByte(' ')
		}
		return sb.String()
	}
	titles, abstracts := make([]string, 5000), make([]string, 5000)
	for i := range titles {
		titles[i], abstracts[i] = words(12), words(180)
	}
	papers := make([]store.TriagePaper, 1000)
	for i := range papers {
		papers[i] = store.TriagePaper{ArxivID: fmt.Sprintf("2612.%05d", i), Title: words(12), Abstract: words(180),
			Authors: []string{"A. Author", "B. Writer", "C. Scholar"}}
	}
	set := store.TriageSettings{Keywords: []string{"w1f", "tidal disruption", "bar"}, Authors: []string{"Kormendy, J."},
		Objects: []store.TriageObject{{Name: "NGC 4258", Canonical: "M 106", Aliases: []string{"NGC 4258", "UGC 7353"}, Resolved: true}}}
	cpu0 := cpuTime()
	for b.Loop() {
		lib := NewCorpus(titles, abstracts)
		NewRanker(set, lib, nil).Rank(papers, nil)
	}
	wall := float64(b.Elapsed().Milliseconds()) / float64(b.N)
	cpu := float64((cpuTime() - cpu0).Milliseconds()) / float64(b.N)
	b.ReportMetric(wall, "ms/rank")
	b.ReportMetric(cpu, "cpu-ms/rank")
	b.Logf("ranked 1,000 new papers against a 5,000-paper library (index built each time): %.0f ms per ranking (%.0f ms of CPU time; more wall time means a busy machine)", wall, cpu)
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
