package triage

import (
	"context"
	"fmt"

	"github.com/astroresearch/astroresearch/store"
)

// summariesPerDay is how many of a user's best papers of a day get a
// model summary.
const summariesPerDay = 20

// rankDay ranks the papers of day in set's categories for set's user and
// stores the scores.
func (s *Service) rankDay(ctx context.Context, set store.TriageSettings, day string) error {
	all, err := s.st.TriagePapersOfDay(ctx, day)
	if err != nil {
		return err
	}
	var papers []store.TriagePaper
	for _, p := range all {
		if Follows(set.Categories, p.Categories) {
			papers = append(papers, p)
		}
	}
	if len(papers) == 0 {
		return s.st.ReplaceTriageScores(ctx, set.UserID, day, nil)
	}
	lib, libCorpus, err := s.library(ctx)
	if err != nil {
		return err
	}
	hidden, err := s.hiddenCorpus(ctx, set.UserID)
	if err != nil {
		return err
	}
	var sim Similarity
	if s.opt.Embedder != nil && s.opt.EmbedModel != "" && len(papers) > 0 && len(lib) > 0 {
		if sim, err = s.vectorSim(ctx, papers, lib); err != nil {
			s.log.Warn("triage: embedding failed; ranking by text similarity", "day", day, "err", err)
			sim = nil
		}
	}
	scores := NewRanker(set, libCorpus, hidden).Rank(papers, sim)
	if err := s.st.ReplaceTriageScores(ctx, set.UserID, day, scores); err != nil {
		return err
	}
	for i := 0; i < len(scores) && i < summariesPerDay; i++ {
		s.summaries.enqueue(scores[i].ArxivID)
	}
	return nil
}

// libraryIndex is the library's texts and their index at one library
// version.
type libraryIndex struct {
	version int64
	texts   []store.LibraryText
	corpus  *Corpus
}

// library returns the library's texts and index, built again only when
// the library changed (its version grew).
func (s *Service) library(ctx context.Context) ([]store.LibraryText, *Corpus, error) {
	v, err := s.st.LibraryVersion(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	cached := s.libIndex
	s.mu.Unlock()
	if cached != nil && cached.version == v {
		return cached.texts, cached.corpus, nil
	}
	texts, err := s.st.LibraryTexts(ctx)
	if err != nil {
		return nil, nil, err
	}
	idx := &libraryIndex{version: v, texts: texts, corpus: libraryCorpus(texts)}
	s.mu.Lock()
	s.libIndex = idx
	s.mu.Unlock()
	return idx.texts, idx.corpus, nil
}

// libraryCorpus indexes the library's titles and abstracts.
func libraryCorpus(lib []store.LibraryText) *Corpus {
	titles, abstracts := make([]string, len(lib)), make([]string, len(lib))
	for i, p := range lib {
		titles[i], abstracts[i] = p.Title, p.Abstract
	}
	return NewCorpus(titles, abstracts)
}

// hiddenCorpus indexes the papers the user marked "not interested".
func (s *Service) hiddenCorpus(ctx context.Context, userID int64) (*Corpus, error) {
	fb, err := s.st.TriageFeedbackOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	var titles, abstracts []string
	for _, f := range fb {
		if f.Action == store.TriageHidden {
			titles, abstracts = append(titles, f.Title), append(abstracts, f.Abstract)
		}
	}
	return NewCorpus(titles, abstracts), nil
}

// embedBatch is how many texts go into one embedding request.
const embedBatch = 64

// vectorSim embeds what has no stored vector yet (new papers and library
// papers, title and abstract, once each per model) and returns cosine
// similarity to the library.
func (s *Service) vectorSim(ctx context.Context, papers []store.TriagePaper, lib []store.LibraryText) (Similarity, error) {
	newRefs, newTexts := make([]string, len(papers)), make([]string, len(papers))
	for i, p := range papers {
		newRefs[i], newTexts[i] = p.ArxivID, p.Title+"\n"+p.Abstract
	}
	libRefs, libTexts := make([]string, len(lib)), make([]string, len(lib))
	for i, p := range lib {
		libRefs[i], libTexts[i] = store.LibraryRef(p.ID), p.Title+"\n"+p.Abstract
	}
	newVecs, err := s.vectors(ctx, store.TriageVectorNew, newRefs, newTexts)
	if err != nil {
		return nil, err
	}
	libVecs, err := s.vectors(ctx, store.TriageVectorLibrary, libRefs, libTexts)
	if err != nil {
		return nil, err
	}
	return vectorSimilarity(newVecs, libVecs), nil
}

// vectors returns unit vectors for refs, embedding and storing the
// missing ones.
func (s *Service) vectors(ctx context.Context, kind string, refs, texts []string) ([][]float32, error) {
	have, err := s.st.TriageVectors(ctx, kind, s.opt.EmbedModel, refs)
	if err != nil {
		return nil, err
	}
	var missing []int
	for i, r := range refs {
		if _, ok := have[r]; !ok {
			missing = append(missing, i)
		}
	}
	for start := 0; start < len(missing); start += embedBatch {
		batch := missing[start:min(start+embedBatch, len(missing))]
		inputs := make([]string, len(batch))
		for j, i := range batch {
			inputs[j] = texts[i]
		}
		vecs, err := s.opt.Embedder.Embed(ctx, inputs)
		if err != nil {
			return nil, fmt.Errorf("triage: embed %d texts: %w", len(inputs), err)
		}
		if len(vecs) != len(inputs) {
			return nil, fmt.Errorf("triage: embed %d texts: got %d vectors", len(inputs), len(vecs))
		}
		got := map[string][]float32{}
		for j, i := range batch {
			got[refs[i]], have[refs[i]] = vecs[j], vecs[j]
		}
		if err := s.st.SaveTriageVectors(ctx, kind, s.opt.EmbedModel, got); err != nil {
			return nil, err
		}
	}
	out := make([][]float32, len(refs))
	for i, r := range refs {
		out[i] = unit(have[r])
	}
	return out, nil
}
