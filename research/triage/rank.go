package triage

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/astroresearch/astroresearch/store"
)

// Weights of the ranking. A paper's score is the sum of what it earns;
// the reasons shown say what each part was for.
const (
	weightLibraryTop  = 4.0 // × similarity of the closest library paper
	weightLibraryRest = 2.0 // × mean similarity of the next ones
	weightKeyTitle    = 1.5 // a keyword in the title
	weightKeyAbstract = 1.0 // a keyword in the abstract only
	weightObject      = 2.0 // an object the user follows, by any of its names
	weightAuthor      = 2.5 // an author the user follows
	weightHidden      = 3.0 // × similarity to a paper marked "not interested"

	similarPapers = 3 // library papers named in a reason
	// minTextSim and minVectorSim are the least similarity (BM25
	// normalised, cosine) for a library paper to count as similar.
	minTextSim   = 0.12
	minVectorSim = 0.6
)

// Corpus is a set of papers new ones are compared with: the library, or
// the papers a user marked "not interested". Build it with NewCorpus; it is
// read only afterwards and safe for concurrent use.
type Corpus struct {
	titles []string
	index  *corpus
}

// NewCorpus indexes papers' titles and abstracts for text similarity.
func NewCorpus(titles, abstracts []string) *Corpus {
	texts := make([]string, len(titles))
	for i := range titles {
		texts[i] = titles[i] + "\n" + abstracts[i]
	}
	return &Corpus{titles: titles, index: newCorpus(texts)}
}

// Len is the number of papers.
func (c *Corpus) Len() int { return len(c.titles) }

// similar is a corpus paper close to a new one.
type similar struct {
	doc int
	sim float64
}

// Similarity finds, for new paper i, its closest papers of the library
// (best first). The ranker uses text similarity when it is nil.
type Similarity func(i int) []similar

// Ranker scores one user's new papers. Build it with newRanker.
type Ranker struct {
	keywords []string
	objects  []store.TriageObject
	authors  []authorName
	library  *Corpus
	hidden   *Corpus
}

// NewRanker returns a ranker for settings against library; hidden holds
// the papers the user marked "not interested" (nil or empty: none).
func NewRanker(settings store.TriageSettings, library, hidden *Corpus) *Ranker {
	r := &Ranker{keywords: settings.Keywords, objects: settings.Objects, library: library, hidden: hidden}
	for _, a := range settings.Authors {
		if an := parseAuthor(a); an.family != "" {
			r.authors = append(r.authors, an)
		}
	}
	return r
}

// Rank scores papers, highest first (ties by arXiv id). sim, when not nil,
// replaces text similarity to the library (embeddings).
func (r *Ranker) Rank(papers []store.TriagePaper, sim Similarity) []store.TriageScore {
	var lib, hid *scorer
	if r.library != nil && sim == nil {
		lib = r.library.index.scorer()
	}
	if r.hidden != nil && r.hidden.Len() > 0 {
		hid = r.hidden.index.scorer()
	}
	out := make([]store.TriageScore, len(papers))
	for i, p := range papers {
		var near []similar
		switch {
		case sim != nil:
			near = sim(i)
		case lib != nil:
			for _, m := range lib.top(p.Title+"\n"+p.Abstract, similarPapers, minTextSim) {
				near = append(near, similar(m))
			}
		}
		out[i] = r.score(p, near, hid)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ArxivID < out[j].ArxivID
	})
	return out
}

// score adds up one paper's parts and says why.
func (r *Ranker) score(p store.TriagePaper, near []similar, hid *scorer) store.TriageScore {
	sc := store.TriageScore{ArxivID: p.ArxivID, Reasons: []string{}}
	if len(near) > 0 {
		rest := 0.0
		for _, n := range near[1:] {
			rest += n.sim
		}
		if len(near) > 1 {
			rest /= float64(len(near) - 1)
		}
		sc.Score += weightLibraryTop*near[0].sim + weightLibraryRest*rest
		sc.Reasons = append(sc.Reasons, r.similarReason(near))
	}
	t := newText(p.Title, p.Abstract)
	for _, k := range r.keywords {
		switch keywordHit(t, k) {
		case 2:
			sc.Score += weightKeyTitle
			sc.Reasons = append(sc.Reasons, fmt.Sprintf("%q in the title", k))
		case 1:
			sc.Score += weightKeyAbstract
			sc.Reasons = append(sc.Reasons, fmt.Sprintf("mentions %q", k))
		}
	}
	for _, o := range r.objects {
		if name := objectHit(t, o); name != "" {
			sc.Score += weightObject
			sc.Reasons = append(sc.Reasons, objectReason(o, name))
		}
	}
	for _, a := range r.authors {
		for _, name := range p.Authors {
			if a.matches(name) {
				sc.Score += weightAuthor
				sc.Reasons = append(sc.Reasons, fmt.Sprintf("by %s, an author you follow", name))
				break
			}
		}
	}
	if hid != nil {
		if m := hid.top(p.Title+"\n"+p.Abstract, 1, 2*minTextSim); len(m) > 0 {
			sc.Score -= weightHidden * m[0].sim
			sc.Reasons = append(sc.Reasons, fmt.Sprintf("like %q, which you marked not interested", r.hidden.titles[m[0].doc]))
		}
	}
	sc.Score = math.Round(sc.Score*1000) / 1000
	return sc
}

func (r *Ranker) similarReason(near []similar) string {
	titles := make([]string, 0, len(near))
	for _, n := range near {
		titles = append(titles, fmt.Sprintf("%q", clip(r.library.titles[n.doc], 90)))
	}
	if len(near) == 1 {
		return "similar to a paper in your library: " + titles[0]
	}
	return fmt.Sprintf("similar to %d papers in your library: %s", len(near), strings.Join(titles, ", "))
}

func objectReason(o store.TriageObject, name string) string {
	canonical := o.Canonical
	if canonical == "" {
		canonical = o.Name
	}
	if strings.EqualFold(fold(name), fold(canonical)) {
		return "mentions " + canonical
	}
	return fmt.Sprintf("mentions %s (as %s)", canonical, name)
}

// clip shortens s to at most n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Follows reports whether a paper with categories cats belongs to the
// followed categories: the same category, or its whole archive
// ("astro-ph" follows "astro-ph.GA").
func Follows(followed, cats []string) bool {
	for _, f := range followed {
		for _, c := range cats {
			if c == f || strings.HasPrefix(c, f+".") {
				return true
			}
		}
	}
	return false
}
