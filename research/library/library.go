package library

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/store"
)

// ADS and Arxiv are the lookups the library needs.
type (
	ADS interface {
		Lookup(ctx context.Context, id string) (ads.Doc, error)
		HasToken() bool
	}
	Arxiv interface {
		Lookup(ctx context.Context, id arxiv.ID) (arxiv.Entry, error)
	}
)

// Library resolves and imports papers. Safe for concurrent use.
type Library struct {
	st    *store.Store
	ads   ADS
	arxiv Arxiv
}

// New returns the library service.
func New(st *store.Store, a ADS, x Arxiv) *Library { return &Library{st: st, ads: a, arxiv: x} }

// ErrNotFound means neither ADS nor arXiv knows the reference.
var ErrNotFound = errors.New("no such paper in ADS or arXiv")

// Resolve returns the metadata of ref without storing it: arXiv ids from
// arXiv (and ADS, when a token is set, for the published version);
// bibcodes and DOIs from ADS (an arXiv abstract fills a missing one).
func (l *Library) Resolve(ctx context.Context, ref Ref) (store.Paper, error) {
	switch ref.Kind {
	case RefArxiv:
		e, err := l.arxiv.Lookup(ctx, ref.Arxiv)
		if errors.Is(err, arxiv.ErrNotFound) {
			return store.Paper{}, fmt.Errorf("arXiv:%s: %w", ref.Arxiv, ErrNotFound)
		}
		if err != nil {
			return store.Paper{}, err
		}
		p := fromArxiv(e)
		if l.ads.HasToken() {
			if d, err := l.ads.Lookup(ctx, "arXiv:"+e.ID.Base); err == nil {
				p = overlayADS(p, d)
			}
		}
		return p, nil
	case RefBibcode, RefDOI:
		d, err := l.ads.Lookup(ctx, ref.Value)
		switch {
		case errors.Is(err, ads.ErrNoToken):
			return store.Paper{}, fmt.Errorf("looking up %s needs NASA ADS: %w", ref.Value, err)
		case errors.Is(err, ads.ErrNotFound):
			return store.Paper{}, fmt.Errorf("%s: %w", ref.Value, ErrNotFound)
		case err != nil:
			return store.Paper{}, err
		}
		p := overlayADS(store.Paper{}, d)
		if p.Abstract == "" && d.ArxivID != "" {
			if id, err := arxiv.ParseID(d.ArxivID); err == nil {
				if e, err := l.arxiv.Lookup(ctx, id); err == nil {
					p.Abstract = e.Summary
					p.ArxivVersion = &e.ID.Version
				}
			}
		}
		return p, nil
	}
	return store.Paper{}, ErrUnknownRef
}

// Import resolves ref and adds it to the library, merging with an entry
// that shares any identifier (idempotent). It reports whether the paper
// is new.
func (l *Library) Import(ctx context.Context, userID int64, ref Ref) (store.Paper, bool, error) {
	if ref.Kind == RefArxiv {
		if p, err := l.st.PaperByIdentifier(ctx, store.PaperIDs{ArxivID: ref.Arxiv.Base}); err == nil {
			return p, false, nil
		}
	} else if p, err := l.st.PaperByIdentifier(ctx, store.PaperIDs{Bibcode: ref.Value, DOI: ref.Value}); err == nil {
		return p, false, nil
	}
	p, err := l.Resolve(ctx, ref)
	if err != nil {
		return store.Paper{}, false, err
	}
	p.AddedBy = &userID
	return l.st.UpsertPaper(ctx, p)
}

// Lookup returns the library entry for ref when there is one (inLibrary
// true), otherwise the remote metadata.
func (l *Library) Lookup(ctx context.Context, ref Ref) (p store.Paper, inLibrary bool, err error) {
	ids := store.PaperIDs{Bibcode: ref.Value, DOI: ref.Value}
	if ref.Kind == RefArxiv {
		ids = store.PaperIDs{ArxivID: ref.Arxiv.Base}
	}
	if p, err := l.st.PaperByIdentifier(ctx, ids); err == nil {
		return p, true, nil
	}
	p, err = l.Resolve(ctx, ref)
	return p, false, err
}

func fromArxiv(e arxiv.Entry) store.Paper {
	id, v := e.ID.Base, e.ID.Version
	p := store.Paper{Title: e.Title, Abstract: e.Summary, ArxivID: &id, ArxivVersion: &v, Authors: e.AuthorNames(),
		Categories: strings.Join(e.Categories, " "), Journal: e.JournalRef}
	if !e.Published.IsZero() {
		y := e.Published.Year()
		p.Year = &y
	}
	if e.DOI != "" {
		if d, err := ads.NormalizeDOI(e.DOI); err == nil {
			p.DOI = &d
		}
	}
	return p
}

// overlayADS puts ADS's metadata on p: identifiers, journal, citations,
// keywords always; title and authors when the paper is published (ADS's
// version of record wins) or p has none.
func overlayADS(p store.Paper, d ads.Doc) store.Paper {
	published := d.Refereed || (d.Journal != "" && d.Journal != "arXiv e-prints")
	if published || p.Title == "" {
		p.Title = d.Title
	}
	if published || len(p.Authors) == 0 {
		p.Authors = d.Authors
	}
	if d.Journal != "" && (published || p.Journal == "") {
		p.Journal = d.Journal
	}
	if p.Abstract == "" {
		p.Abstract = d.Abstract
	}
	if d.Year != 0 {
		y := d.Year
		p.Year = &y
	}
	b := d.Bibcode
	p.Bibcode = &b
	if d.DOI != "" {
		doi := d.DOI
		p.DOI = &doi
	}
	if d.ArxivID != "" && p.ArxivID == nil {
		a := d.ArxivID
		p.ArxivID = &a
	}
	if d.CitationCount != nil {
		p.CitationCount = d.CitationCount // a record without a count keeps the one known
	}
	p.Refereed = d.Refereed
	p.Volume, p.Page = d.Volume, d.Page
	p.Keywords = d.Keywords
	return p
}
