package triage

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters (the usual ones) and how many of a paper's words are
// used as its query: the rarest ones in the library carry the similarity,
// and a bounded query keeps ranking a day's papers fast.
const (
	bm25K1       = 1.2
	bm25B        = 0.75
	maxQueryTerm = 24
)

// corpus is a BM25 index over short documents (titles and abstracts). It
// is built once per ranking and read only afterwards.
type corpus struct {
	vocab    map[string]int32 // word → term id
	postings [][]posting      // by term id
	docLen   []float64
	avgLen   float64
}

type posting struct {
	doc int32
	tf  float32
}

// newCorpus indexes texts; document i is texts[i].
func newCorpus(texts []string) *corpus {
	c := &corpus{vocab: map[string]int32{}, docLen: make([]float64, len(texts))}
	total := 0.0
	// lastDoc[term] is the last document the term was seen in, so a
	// repeat only raises that posting's tf (no per-document map or sort).
	var lastDoc []int32
	for i, t := range texts {
		n := 0
		eachTerm(t, func(w string) {
			id, ok := c.vocab[w]
			if !ok {
				id = int32(len(c.postings))
				c.vocab[strings.Clone(w)] = id
				c.postings = append(c.postings, nil)
				lastDoc = append(lastDoc, -1)
			}
			if ps := c.postings[id]; lastDoc[id] == int32(i) {
				ps[len(ps)-1].tf++
			} else {
				c.postings[id] = append(ps, posting{doc: int32(i), tf: 1})
				lastDoc[id] = int32(i)
			}
			n++
		})
		c.docLen[i] = float64(n)
		total += float64(n)
	}
	if len(texts) > 0 {
		c.avgLen = max(total/float64(len(texts)), 1)
	}
	return c
}

// size is the number of documents.
func (c *corpus) size() int { return len(c.docLen) }

// postingsOf returns the postings of a word (nil when absent).
func (c *corpus) postingsOf(w string) []posting {
	if id, ok := c.vocab[w]; ok {
		return c.postings[id]
	}
	return nil
}

// idf is BM25's inverse document frequency of a word (0 when absent).
func (c *corpus) idf(w string) float64 {
	n := len(c.postingsOf(w))
	if n == 0 {
		return 0
	}
	N := float64(c.size())
	return math.Log(1 + (N-float64(n)+0.5)/(float64(n)+0.5))
}

// match is a document and its similarity to a query, in [0, 1): the BM25
// score divided by the most any document could score for that query.
type match struct {
	doc int
	sim float64
}

// scorer ranks the corpus's documents for queries; it holds a reusable
// accumulator, so one scorer serves one goroutine.
type scorer struct {
	c       *corpus
	acc     []float64
	touched []int32
	seen    map[string]bool
}

func (c *corpus) scorer() *scorer {
	return &scorer{c: c, acc: make([]float64, c.size()), seen: map[string]bool{}}
}

// top returns the k documents most similar to text, best first, leaving
// out those below minSim.
func (s *scorer) top(text string, k int, minSim float64) []match {
	if s.c.size() == 0 {
		return nil
	}
	q := s.queryTerms(text)
	best := 0.0
	for _, qt := range q {
		best += qt.idf * (bm25K1 + 1)
		for _, p := range s.c.postingsOf(qt.word) {
			if s.acc[p.doc] == 0 {
				s.touched = append(s.touched, p.doc)
			}
			f := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*s.c.docLen[p.doc]/s.c.avgLen)
			s.acc[p.doc] += qt.idf * f * (bm25K1 + 1) / (f + norm)
		}
	}
	var out []match
	for _, d := range s.touched {
		if best > 0 {
			if sim := s.acc[d] / best; sim >= minSim {
				out = append(out, match{doc: int(d), sim: sim})
			}
		}
		s.acc[d] = 0
	}
	s.touched = s.touched[:0]
	sort.Slice(out, func(i, j int) bool {
		if out[i].sim != out[j].sim {
			return out[i].sim > out[j].sim
		}
		return out[i].doc < out[j].doc
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

type queryTerm struct {
	word string
	idf  float64
}

// queryTerms returns text's distinct words known to the corpus, the
// rarest maxQueryTerm of them.
func (s *scorer) queryTerms(text string) []queryTerm {
	clear(s.seen)
	var q []queryTerm
	eachTerm(text, func(w string) {
		if s.seen[w] {
			return
		}
		s.seen[w] = true
		if idf := s.c.idf(w); idf > 0 {
			q = append(q, queryTerm{w, idf})
		}
	})
	sort.Slice(q, func(i, j int) bool {
		if q[i].idf != q[j].idf {
			return q[i].idf > q[j].idf
		}
		return q[i].word < q[j].word
	})
	if len(q) > maxQueryTerm {
		q = q[:maxQueryTerm]
	}
	return q
}

// eachTerm calls fn with each lower-case word of text (letters and
// digits), leaving out single characters, English function words and the
// words every abstract uses. The word passed may share memory with a
// buffer reused for the next call: clone it to keep it.
func eachTerm(text string, fn func(w string)) {
	lower := strings.ToLower(text)
	start := -1
	for i, r := range lower {
		alnum := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') ||
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsNumber(r))
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			emitTerm(lower[start:i], fn)
			start = -1
		}
	}
	if start >= 0 {
		emitTerm(lower[start:], fn)
	}
}

func emitTerm(w string, fn func(string)) {
	if len(w) > 1 && !stopword(w) {
		fn(w)
	}
}

// stopword reports whether w is too common to say what a paper is about.
func stopword(w string) bool {
	switch w {
	case "the", "of", "and", "in", "to", "a", "an", "we", "is", "are", "for", "on", "with", "by", "at", "as", "from",
		"that", "this", "these", "those", "be", "been", "was", "were", "which", "our", "their", "its", "it", "or", "not",
		"can", "also", "using", "use", "used", "than", "then", "such", "both", "into", "between", "within", "have", "has",
		"here", "present", "show", "find", "found", "results", "result", "paper", "work", "study", "new", "based",
		"two", "one", "well", "may", "however", "while", "over", "more", "most", "all", "each", "other", "only":
		return true
	}
	return false
}
