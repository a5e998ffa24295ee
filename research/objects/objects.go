// Package objects answers "what is known about this object?" (L9):
// the merged Sesame resolution, the literature ADS lists for it (refereed
// papers per year, the most cited), the library's passages that name it
// or any alias, and the user's notes that do.
package objects

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// Resolver resolves object names (the Sesame client).
type Resolver interface {
	Resolve(ctx context.Context, name string) (sesame.Object, error)
}

// ADS is the part of the ADS client the object page uses.
type ADS interface {
	HasToken() bool
	Search(ctx context.Context, q ads.Query) (ads.Result, error)
	YearCounts(ctx context.Context, q string) ([]ads.YearCount, int, error)
}

// Service builds object reports. Safe for concurrent use.
type Service struct {
	st      *store.Store
	resolve Resolver
	ads     ADS // nil: no literature block
}

// New returns the service; a nil ads leaves the literature out.
func New(st *store.Store, r Resolver, a ADS) *Service {
	return &Service{st: st, resolve: r, ads: a}
}

// Report is everything known about one object.
type Report struct {
	Object sesame.Object
	// Tried are the names given to Sesame, in order.
	Tried []string
	// Literature is nil when ADS could not be asked; LiteratureNote says
	// why (no token, ADS unavailable).
	Literature     *Literature
	LiteratureNote string
	Library        Library
	Notes          []store.PaperNote
}

// Literature is what ADS lists for the object.
type Literature struct {
	Total    int             `json:"total"`
	Refereed int             `json:"refereed"`
	ByYear   []ads.YearCount `json:"by_year"` // refereed papers per year
	Top      []TopPaper      `json:"top"`     // most cited first
}

// TopPaper is one of the most cited papers about the object.
type TopPaper struct {
	Bibcode   string `json:"bibcode"`
	Title     string `json:"title"`
	Authors   string `json:"authors"`
	Year      int    `json:"year"`
	Citations *int   `json:"citations,omitempty"` // nil when ADS sent no count
	// LibraryID is the library entry's id, 0 when the paper is not in it.
	LibraryID int64 `json:"library_id"`
}

// Library is what the library's parsed papers say about the object.
type Library struct {
	Papers   []MentionPaper         `json:"papers"`
	Passages []store.PassageMention `json:"passages"`
}

// MentionPaper is a library paper naming the object, with how many of its
// passages do.
type MentionPaper struct {
	ID       int64   `json:"id"`
	Title    string  `json:"title"`
	Year     *int    `json:"year"`
	Bibcode  *string `json:"bibcode"`
	Passages int     `json:"passages"`
}

// NotResolvedError says Sesame knows none of the names tried.
type NotResolvedError struct{ Tried []string }

func (e *NotResolvedError) Error() string {
	return "not resolved by CDS Sesame (SIMBAD, NED and VizieR); names tried: " + strings.Join(e.Tried, ", ")
}

// Limits of one report.
const (
	maxTop      = 10
	maxPassages = 200
	maxNotes    = 50
	maxNames    = 80
)

// Report resolves name (trying its spacing variants, "NGC4258" and "NGC
// 4258") and gathers the rest. It returns *NotResolvedError when Sesame
// knows none of them, and sesame.ErrUnavailable (wrapped) when Sesame
// cannot be reached. ADS failures only leave the literature out.
func (s *Service) Report(ctx context.Context, userID int64, name string) (Report, error) {
	var r Report
	o, tried, err := s.resolveVariants(ctx, name)
	r.Tried = tried
	if err != nil {
		return r, err
	}
	r.Object = o
	r.Literature, r.LiteratureNote = s.literature(ctx, o.Name)
	match := store.PhraseQuery(SearchNames(o, name))
	if r.Library, err = s.library(ctx, match); err != nil {
		return r, err
	}
	notes, err := s.st.NotesMentioning(ctx, userID, match, maxNotes)
	if err != nil {
		return r, err
	}
	r.Notes = notes
	return r, nil
}

var catalogNumberRe = regexp.MustCompile(`^([A-Za-z]+)\s*([0-9].*)$`)

// Variants are the spellings of name tried in turn: as given, then with
// or without the space between catalogue and number.
func Variants(name string) []string {
	name = strings.Join(strings.Fields(name), " ")
	out := []string{name}
	if g := catalogNumberRe.FindStringSubmatch(name); g != nil {
		alt := g[1] + " " + g[2]
		if alt == name {
			alt = g[1] + g[2]
		}
		out = append(out, alt)
	}
	return out
}

func (s *Service) resolveVariants(ctx context.Context, name string) (sesame.Object, []string, error) {
	var tried []string
	for _, v := range Variants(name) {
		tried = append(tried, v)
		o, err := s.resolve.Resolve(ctx, v)
		switch {
		case err == nil:
			return o, tried, nil
		case errors.Is(err, sesame.ErrNotFound):
			continue
		default:
			return sesame.Object{}, tried, err
		}
	}
	return sesame.Object{}, tried, &NotResolvedError{Tried: tried}
}

// SearchNames are the names the library is searched for: the main
// identifier, the name asked, every alias (SIMBAD's "NAME " prefix
// dropped), and their forms without the catalogue space.
func SearchNames(o sesame.Object, asked string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSpace(strings.TrimPrefix(n, "NAME "))
		if k := strings.ToLower(n); n != "" && !seen[k] && len(out) < maxNames {
			seen[k] = true
			out = append(out, n)
		}
	}
	for _, n := range append([]string{o.Name, asked}, o.Aliases...) {
		for _, v := range Variants(n) {
			add(v)
		}
	}
	return out
}

// literature asks ADS for the papers about the object.
func (s *Service) literature(ctx context.Context, name string) (*Literature, string) {
	if s.ads == nil || !s.ads.HasToken() {
		return nil, "Set ADS_API_TOKEN to list the literature about this object from NASA ADS."
	}
	q := ads.ObjectQuery(name)
	res, err := s.ads.Search(ctx, ads.Query{Q: q, Sort: "citation_count desc", Rows: maxTop})
	if err != nil {
		return nil, "NASA ADS could not be asked right now; try again later."
	}
	years, refereed, err := s.ads.YearCounts(ctx, q+" property:refereed")
	if err != nil {
		return nil, "NASA ADS could not be asked right now; try again later."
	}
	lit := &Literature{Total: res.NumFound, Refereed: refereed, ByYear: years, Top: []TopPaper{}}
	if lit.ByYear == nil {
		lit.ByYear = []ads.YearCount{}
	}
	for _, d := range res.Docs {
		tp := TopPaper{Bibcode: d.Bibcode, Title: d.Title, Authors: authorLine(d.Authors), Year: d.Year, Citations: d.CitationCount}
		if p, err := s.st.PaperByIdentifier(ctx, store.PaperIDs{Bibcode: d.Bibcode, DOI: d.DOI, ArxivID: d.ArxivID}); err == nil {
			tp.LibraryID = p.ID
		}
		lit.Top = append(lit.Top, tp)
	}
	return lit, ""
}

func authorLine(authors []string) string {
	switch len(authors) {
	case 0:
		return ""
	case 1:
		return authors[0]
	}
	return authors[0] + " et al."
}

// library finds the passages naming the object and groups them by paper.
func (s *Service) library(ctx context.Context, match string) (Library, error) {
	lib := Library{Papers: []MentionPaper{}, Passages: []store.PassageMention{}}
	hits, err := s.st.PassagesMentioning(ctx, match, maxPassages)
	if err != nil {
		return lib, fmt.Errorf("objects: library passages: %w", err)
	}
	index := map[int64]int{}
	for _, h := range hits {
		i, ok := index[h.PaperID]
		if !ok {
			i = len(lib.Papers)
			index[h.PaperID] = i
			lib.Papers = append(lib.Papers, MentionPaper{ID: h.PaperID, Title: h.Title, Year: h.Year, Bibcode: h.Bibcode})
		}
		lib.Papers[i].Passages++
	}
	lib.Passages = hits
	if lib.Passages == nil {
		lib.Passages = []store.PassageMention{}
	}
	return lib, nil
}
