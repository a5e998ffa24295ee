package rag

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// genDoc builds a random Markdown paper and returns it with the byte
// offsets where sections start and the section path in force at each
// offset (by construction, independent of the chunker's own parser).
type genDoc struct {
	md     string
	starts []int    // section starts (heading line offsets)
	paths  []string // path of the section starting at starts[i]
}

var vocab = []string{"the", "galaxy", "cluster", "redshift", "$z=0.5$", "Hα", "emission", "jet", "M87", "spectrum",
	"über", "flux", "density", "of", "and", "we", "measure", "$\\sigma_8$", "dark", "matter", "halo", "東京", "mass"}

func (g *genDoc) sentence(r *rand.Rand) string {
	n := 3 + r.IntN(25)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocab[r.IntN(len(vocab))]
	}
	return strings.Join(ws, " ") + []string{".", "?", "!", ";"}[r.IntN(4)]
}

func (g *genDoc) paragraph(r *rand.Rand) string {
	switch r.IntN(12) {
	case 0: // an unbreakable run
		return strings.Repeat("x", 1+r.IntN(5000))
	case 1: // a fenced block with heading-looking lines
		return "```\n# not a heading\ncode();\n```"
	case 2:
		return "$$\nE = mc^2\n$$"
	case 3: // long lines without blank lines
		var lines []string
		for range 1 + r.IntN(40) {
			lines = append(lines, g.sentence(r))
		}
		return strings.Join(lines, "\n")
	}
	var ss []string
	for range 1 + r.IntN(30) {
		ss = append(ss, g.sentence(r))
	}
	return strings.Join(ss, " ")
}

func generate(r *rand.Rand) genDoc {
	var g genDoc
	var b strings.Builder
	var stack []string
	if r.IntN(2) == 0 {
		b.WriteString(g.paragraph(r) + "\n\n")
	}
	for range r.IntN(12) {
		level := 1 + r.IntN(3)
		title := fmt.Sprintf("%d %s", r.IntN(9), vocab[r.IntN(len(vocab))])
		for len(stack) >= level {
			stack = stack[:len(stack)-1]
		}
		for len(stack) < level-1 {
			stack = append(stack, "") // skipped level: no title in the path
		}
		stack = append(stack, title)
		var parts []string
		for _, s := range stack {
			if s != "" {
				parts = append(parts, s)
			}
		}
		g.starts = append(g.starts, b.Len())
		g.paths = append(g.paths, strings.Join(parts, " > "))
		b.WriteString(strings.Repeat("#", level) + " " + title + "\n\n")
		for range r.IntN(6) {
			b.WriteString(g.paragraph(r) + strings.Repeat("\n", 1+r.IntN(3)))
		}
	}
	g.md = b.String()
	return g
}

// checkChunks verifies the invariants every chunking must satisfy.
func checkChunks(t *testing.T, md string, chunks []Chunk, opt ChunkOptions) {
	t.Helper()
	opt = opt.withDefaults()
	covered := make([]bool, len(md))
	prevStart := -1
	for i, c := range chunks {
		if c.Seq != i {
			t.Fatalf("chunk %d has seq %d", i, c.Seq)
		}
		if c.Start < 0 || c.End > len(md) || c.Start >= c.End {
			t.Fatalf("chunk %d: bad range [%d,%d) of %d", i, c.Start, c.End, len(md))
		}
		if c.Text != md[c.Start:c.End] {
			t.Fatalf("chunk %d: text does not match its offsets", i)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("chunk %d is blank", i)
		}
		if c.Start <= prevStart {
			t.Fatalf("chunk %d starts at %d, not after %d", i, c.Start, prevStart)
		}
		prevStart = c.Start
		if len(c.Text) > opt.MaxTokens*4 && utf8.ValidString(c.Text) {
			t.Fatalf("chunk %d is %d bytes, over %d", i, len(c.Text), opt.MaxTokens*4)
		}
		if utf8.ValidString(md) && !utf8.ValidString(c.Text) {
			t.Fatalf("chunk %d cuts a UTF-8 sequence", i)
		}
		for j := c.Start; j < c.End; j++ {
			covered[j] = true
		}
	}
	for j, ok := range covered {
		if !ok && !strings.ContainsRune(" \t\r\n\v\f", rune(md[j])) {
			t.Fatalf("byte %d (%q) is in no chunk", j, md[j])
		}
	}
}

func TestChunkMarkdownProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 400 {
		g := generate(r)
		opt := ChunkOptions{MaxTokens: 50 + r.IntN(900), OverlapTokens: r.IntN(150)}
		chunks := ChunkMarkdown(g.md, opt)
		t.Run(fmt.Sprint(iter), func(t *testing.T) {
			checkChunks(t, g.md, chunks, opt)
			o := opt.withDefaults()
			for i, c := range chunks {
				// No section boundary strictly inside a chunk.
				sec := -1
				for k, s := range g.starts {
					if s > c.Start && s < c.End {
						t.Fatalf("chunk %d [%d,%d) crosses the section starting at %d", i, c.Start, c.End, s)
					}
					if s <= c.Start {
						sec = k
					}
				}
				want := ""
				if sec >= 0 {
					want = g.paths[sec]
				}
				if c.SectionPath != want {
					t.Fatalf("chunk %d section path %q, want %q", i, c.SectionPath, want)
				}
			}
			// A section that fits the budget is exactly one chunk.
			bounds := append(append([]int{0}, g.starts...), len(g.md))
			for k := 0; k+1 < len(bounds); k++ {
				lo, hi := bounds[k], bounds[k+1]
				if hi-lo > o.MaxTokens*4 || strings.TrimSpace(g.md[lo:hi]) == "" {
					continue
				}
				n := 0
				for _, c := range chunks {
					if c.Start >= lo && c.End <= hi {
						n++
					}
				}
				if n != 1 {
					t.Fatalf("section [%d,%d) of %d bytes fits one chunk but has %d", lo, hi, hi-lo, n)
				}
			}
		})
	}
}

func TestChunkOverlap(t *testing.T) {
	var paras []string
	for i := range 40 {
		paras = append(paras, fmt.Sprintf("Paragraph %d says something about galaxies and their haloes at some length.", i))
	}
	md := "# Results\n\n" + strings.Join(paras, "\n\n") + "\n"
	chunks := ChunkMarkdown(md, ChunkOptions{MaxTokens: 200, OverlapTokens: 50})
	checkChunks(t, md, chunks, ChunkOptions{MaxTokens: 200, OverlapTokens: 50})
	if len(chunks) < 3 {
		t.Fatalf("want several chunks, got %d", len(chunks))
	}
	for i := 1; i < len(chunks); i++ {
		ov := chunks[i-1].End - chunks[i].Start
		if ov <= 0 || ov > 50*4 {
			t.Errorf("chunks %d and %d overlap by %d bytes, want 1..200", i-1, i, ov)
		}
		if chunks[i].SectionPath != "Results" {
			t.Errorf("chunk %d path %q", i, chunks[i].SectionPath)
		}
	}
}

func TestChunkSectionPaths(t *testing.T) {
	md := "Preamble text.\n\n# 1 Introduction\n\nIntro.\n\n## 1.1 Background ##\n\nBack.\n\n```\n# comment in code\n```\n\n" +
		"# 2 Data\n\nData.\n\n### 2.0.1 Deep\n\nDeep text.\n"
	var got []string
	for _, c := range ChunkMarkdown(md, ChunkOptions{}) {
		got = append(got, c.SectionPath)
	}
	want := []string{"", "1 Introduction", "1 Introduction > 1.1 Background", "2 Data", "2 Data > 2.0.1 Deep"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("paths\n got %q\nwant %q", got, want)
	}
}

func FuzzChunkMarkdown(f *testing.F) {
	f.Add("# A\n\ntext\n\n## B\n\nmore text here.", 20, 5)
	f.Add("```\n# x\n```\n# y\n\u00e9\u00e9\u00e9", 1, 0)
	f.Add(strings.Repeat("word ", 500), 30, 10)
	f.Fuzz(func(t *testing.T, md string, maxTok, overlap int) {
		opt := ChunkOptions{MaxTokens: maxTok%2000 + 1, OverlapTokens: overlap % 500}
		if opt.MaxTokens < 1 {
			opt.MaxTokens = 1 - opt.MaxTokens%2000
		}
		checkChunks(t, md, ChunkMarkdown(md, opt), opt)
	})
}
