package ads

import (
	"context"
	"fmt"
	"strings"
)

// IDKind says which identifier scheme an identifier belongs to.
type IDKind int

// Identifier kinds recognised by ParseID.
const (
	KindUnknown IDKind = iota
	KindBibcode
	KindDOI
	KindArxiv
)

// ParseID recognises id as a bibcode, a DOI (any form NormalizeDOI
// accepts) or an arXiv id (optionally "arXiv:"-prefixed and versioned) and
// returns its kind and normalized form, or KindUnknown and an error
// wrapping ErrMalformedID.
func ParseID(id string) (IDKind, string, error) {
	s := strings.TrimSpace(id)
	if ValidBibcode(s) {
		return KindBibcode, s, nil
	}
	if d, err := NormalizeDOI(s); err == nil {
		return KindDOI, d, nil
	}
	if a, err := normalizeArxiv(s); err == nil {
		return KindArxiv, a, nil
	}
	return KindUnknown, "", fmt.Errorf("ads: %q is not a bibcode, DOI or arXiv id: %w", shorten(id), ErrMalformedID)
}

// Lookup returns the ADS record for id, a bibcode, DOI or arXiv id (see
// ParseID). It fails with ErrMalformedID (no request made), ErrNotFound when
// ADS has no such record, or any Search error.
func (c *Client) Lookup(ctx context.Context, id string) (Doc, error) {
	if c.token == "" {
		return Doc{}, fmt.Errorf("ads: lookup: %w", ErrNoToken)
	}
	kind, norm, err := ParseID(id)
	if err != nil {
		return Doc{}, err
	}
	q := Query{Rows: 1}
	switch kind {
	case KindBibcode:
		q.Q = ByBibcode(norm)
	case KindDOI:
		q.Q = ByDOI(norm)
	default:
		q.Q = ByArxiv(norm)
	}
	res, err := c.search(ctx, q)
	if err != nil {
		return Doc{}, fmt.Errorf("ads: lookup %q: %w", norm, err)
	}
	if len(res.Docs) == 0 {
		return Doc{}, fmt.Errorf("ads: lookup %q: %w", norm, ErrNotFound)
	}
	return res.Docs[0], nil
}

// Citations returns one page (newest first) of the records citing bibcode.
// A malformed bibcode fails with ErrMalformedID before any request; an
// unknown one gives an empty Result. rows and start are as in Query.
func (c *Client) Citations(ctx context.Context, bibcode string, rows, start int) (Result, error) {
	return c.related(ctx, "citations", CitationsOf, bibcode, rows, start)
}

// References returns one page (newest first) of the records bibcode cites;
// see Citations.
func (c *Client) References(ctx context.Context, bibcode string, rows, start int) (Result, error) {
	return c.related(ctx, "references", ReferencesOf, bibcode, rows, start)
}

func (c *Client) related(ctx context.Context, op string, build func(string) string, bibcode string, rows, start int) (Result, error) {
	if c.token == "" {
		return Result{}, fmt.Errorf("ads: %s: %w", op, ErrNoToken)
	}
	b := strings.TrimSpace(bibcode)
	if !ValidBibcode(b) {
		return Result{}, fmt.Errorf("ads: %s of %q: not a bibcode: %w", op, shorten(bibcode), ErrMalformedID)
	}
	res, err := c.search(ctx, Query{Q: build(b), Sort: "date desc", Rows: rows, Start: start})
	if err != nil {
		return Result{}, fmt.Errorf("ads: %s of %s: %w", op, b, err)
	}
	return res, nil
}
