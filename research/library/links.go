package library

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/store"
)

// LinkSource lists the records citing a bibcode and those it cites, and
// looks records up (the ADS client).
type LinkSource interface {
	HasToken() bool
	Lookup(ctx context.Context, id string) (ads.Doc, error)
	Citations(ctx context.Context, bibcode string, rows, start int) (ads.Result, error)
	References(ctx context.Context, bibcode string, rows, start int) (ads.Result, error)
}

// Links keeps the citation and reference lists of library papers (docs/features.md
// L5): fetched from ADS, stored with the paper, shown with each linked
// paper's library status. Safe for concurrent use.
type Links struct {
	st   *store.Store
	src  LinkSource
	rows int
}

// NewLinks returns the links service; it stores up to ads.MaxRows records
// per list (the newest first).
func NewLinks(st *store.Store, src LinkSource) *Links {
	return &Links{st: st, src: src, rows: ads.MaxRows}
}

// ErrNoBibcode means the paper has no identifier ADS could know it by.
var ErrNoBibcode = errors.New("the paper has no bibcode, arXiv id or DOI, which ADS needs to list its citations and references")

// ErrNotInADS means ADS does not know the paper (yet: new preprints take a
// few days), so it has no bibcode.
var ErrNotInADS = errors.New("ADS does not know this paper yet")

// Check reports whether p's lists can be fetched: nil, an error wrapping
// ads.ErrNoToken (checked first), or ErrNoBibcode. A paper without a
// bibcode but with an arXiv id or DOI passes: Refresh asks ADS for it.
func (l *Links) Check(p store.Paper) error {
	if !l.src.HasToken() {
		return fmt.Errorf("citations and references: %w", ads.ErrNoToken)
	}
	if empty(p.Bibcode) && empty(p.ArxivID) && empty(p.DOI) {
		return ErrNoBibcode
	}
	return nil
}

func empty(s *string) bool { return s == nil || *s == "" }

// Refresh fetches p's citations and references from ADS and stores both
// lists, replacing what was stored (the ADS client caches its answers for
// 10 minutes, so a refresh within them stores the same lists). A paper imported without ADS (no token
// then) first gets its bibcode, and ADS's metadata fills its gaps; ADS not
// knowing it is ErrNotInADS. Nothing is stored unless both lists answer.
func (l *Links) Refresh(ctx context.Context, p store.Paper) error {
	if err := l.Check(p); err != nil {
		return err
	}
	if empty(p.Bibcode) {
		var err error
		if p, err = l.findBibcode(ctx, p); err != nil {
			return err
		}
	}
	cites, err := l.src.Citations(ctx, *p.Bibcode, l.rows, 0)
	if err != nil {
		return err
	}
	refs, err := l.src.References(ctx, *p.Bibcode, l.rows, 0)
	if err != nil {
		return err
	}
	if err := l.st.ReplacePaperLinks(ctx, p.ID, store.LinkCitation, linksOf(cites.Docs), cites.NumFound); err != nil {
		return err
	}
	return l.st.ReplacePaperLinks(ctx, p.ID, store.LinkReference, linksOf(refs.Docs), refs.NumFound)
}

// findBibcode asks ADS for p by arXiv id, then DOI, and merges what ADS
// knows into the library entry; it returns the entry with its bibcode.
func (l *Links) findBibcode(ctx context.Context, p store.Paper) (store.Paper, error) {
	var ids []string
	if !empty(p.ArxivID) {
		ids = append(ids, "arXiv:"+*p.ArxivID)
	}
	if !empty(p.DOI) {
		ids = append(ids, *p.DOI)
	}
	for _, id := range ids {
		d, err := l.src.Lookup(ctx, id)
		if errors.Is(err, ads.ErrNotFound) {
			continue
		}
		if err != nil {
			return p, err
		}
		found := overlayADS(store.Paper{ArxivID: p.ArxivID, DOI: p.DOI}, d)
		if _, _, err := l.st.UpsertPaper(ctx, found); err != nil {
			return p, err
		}
		if p, err = l.st.PaperByID(ctx, p.ID); err != nil {
			return p, err
		}
		if empty(p.Bibcode) { // the bibcode went to another entry of the same paper
			return p, ErrNotInADS
		}
		return p, nil
	}
	return p, ErrNotInADS
}

// Stored returns p's stored lists (citations, references); ok is false
// when they were never fetched.
func (l *Links) Stored(ctx context.Context, p store.Paper) (cites, refs store.LinkList, ok bool, err error) {
	cites, err = l.st.PaperLinks(ctx, p.ID, store.LinkCitation)
	if errors.Is(err, store.ErrNotFound) {
		return cites, refs, false, nil
	}
	if err != nil {
		return cites, refs, false, err
	}
	refs, err = l.st.PaperLinks(ctx, p.ID, store.LinkReference)
	if errors.Is(err, store.ErrNotFound) {
		return cites, refs, false, nil
	}
	return cites, refs, err == nil, err
}

// Lists returns p's lists, fetching them from ADS first when they were
// never fetched or refresh is set.
func (l *Links) Lists(ctx context.Context, p store.Paper, refresh bool) (cites, refs store.LinkList, err error) {
	if !refresh {
		cites, refs, ok, err := l.Stored(ctx, p)
		if err != nil || ok {
			return cites, refs, err
		}
	}
	if err := l.Refresh(ctx, p); err != nil {
		return cites, refs, err
	}
	cites, refs, _, err = l.Stored(ctx, p)
	return cites, refs, err
}

// linksOf turns ADS records into stored links; records without a bibcode
// (never sent by ADS, but not trusted) are skipped.
func linksOf(docs []ads.Doc) []store.PaperLink {
	out := make([]store.PaperLink, 0, len(docs))
	for _, d := range docs {
		if d.Bibcode == "" {
			continue
		}
		l := store.PaperLink{Bibcode: d.Bibcode, Title: d.Title, Authors: shortAuthors(d.Authors), Journal: d.Journal}
		if d.Year != 0 {
			y := d.Year
			l.Year = &y
		}
		if d.ArxivID != "" {
			a := d.ArxivID
			l.ArxivID = &a
		}
		if d.DOI != "" {
			doi := d.DOI
			l.DOI = &doi
		}
		l.CitationCount = d.CitationCount
		out = append(out, l)
	}
	return out
}

// shortAuthors is the first three authors, "et al." after.
func shortAuthors(a []string) string {
	if len(a) <= 3 {
		return strings.Join(a, "; ")
	}
	return strings.Join(a[:3], "; ") + " et al."
}
