// Package library is the astronomer's paper library service: resolving
// identifiers against ADS and arXiv and importing papers idempotently
// (docs/features.md L1, L3, T8).
package library

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
)

// RefKind says what kind of identifier a reference is.
type RefKind int

// Reference kinds.
const (
	RefArxiv RefKind = iota + 1
	RefBibcode
	RefDOI
)

// Ref is a parsed paper reference.
type Ref struct {
	Kind  RefKind
	Arxiv arxiv.ID
	Value string // bibcode or normalised DOI
}

// ErrUnknownRef means the text is not an identifier or URL we recognise.
var ErrUnknownRef = errors.New("not an arXiv id, bibcode, DOI or a paper URL I know")

// ParseRef recognises an arXiv id (any form, URLs included), an ADS
// bibcode or abstract-page URL, a DOI (bare, doi: or https://doi.org/...),
// or an IOP article URL (which carries the DOI).
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 2000 {
		return Ref{}, ErrUnknownRef
	}
	if id, err := arxiv.ParseID(s); err == nil {
		return Ref{Kind: RefArxiv, Arxiv: id}, nil
	}
	if ads.ValidBibcode(s) {
		return Ref{Kind: RefBibcode, Value: s}, nil
	}
	if doi, err := ads.NormalizeDOI(s); err == nil {
		return Ref{Kind: RefDOI, Value: doi}, nil
	}
	if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		return refFromURL(u)
	}
	return Ref{}, ErrUnknownRef
}

// refFromURL handles paper pages whose URL carries an identifier.
func refFromURL(u *url.URL) (Ref, error) {
	host := strings.ToLower(u.Hostname())
	parts := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	switch {
	case host == "ui.adsabs.harvard.edu" || host == "adsabs.harvard.edu":
		// /abs/<bibcode>/abstract
		for i, p := range parts {
			if p == "abs" && i+1 < len(parts) {
				if b, err := url.PathUnescape(parts[i+1]); err == nil && ads.ValidBibcode(b) {
					return Ref{Kind: RefBibcode, Value: b}, nil
				}
			}
		}
	case host == "iopscience.iop.org":
		// /article/10.3847/1538-4357/ab1234[/pdf|/meta]
		for i, p := range parts {
			if p == "article" && i+3 <= len(parts) {
				doi := strings.Join(parts[i+1:min(len(parts), i+4)], "/")
				if d, err := ads.NormalizeDOI(doi); err == nil {
					return Ref{Kind: RefDOI, Value: d}, nil
				}
			}
		}
	case host == "www.aanda.org" || host == "aanda.org":
		if d, ok := aandaDOI(parts); ok {
			return Ref{Kind: RefDOI, Value: d}, nil
		}
	}
	return Ref{}, fmt.Errorf("%w: %s", ErrUnknownRef, u.Redacted())
}

// aandaArticle is an A&A article id in its URLs: aa33051-18 (number,
// two-digit year), with .html or .pdf when it names the file.
var aandaArticle = regexp.MustCompile(`^aa([0-9]{4,6})-([0-9]{2})(?:\.html|\.pdf)?$`)

// aandaDOI finds the DOI in an A&A (aanda.org) article URL's path: either
// the DOI itself (/10.1051/0004-6361/201833051) or the article id of the
// abstract, full-text and PDF pages (/articles/aa/full_html/2018/08/
// aa33051-18/aa33051-18.html), from which A&A's DOIs are made:
// 10.1051/0004-6361/2018 33051 since 2009, 10.1051/0004-6361:2006 5071
// before.
func aandaDOI(parts []string) (string, bool) {
	if len(parts) >= 2 && strings.HasPrefix(parts[0], "10.1051") {
		d, err := ads.NormalizeDOI(strings.Join(parts, "/"))
		return d, err == nil
	}
	if len(parts) == 0 || parts[0] != "articles" {
		return "", false
	}
	for _, p := range parts {
		m := aandaArticle.FindStringSubmatch(p)
		if m == nil {
			continue
		}
		yy := m[2]
		sep := "/"
		if yy < "09" || yy > "90" {
			sep = ":" // the old scheme
		}
		century := "20"
		if yy > "90" {
			century = "19"
		}
		d, err := ads.NormalizeDOI("10.1051/0004-6361" + sep + century + yy + m[1])
		return d, err == nil
	}
	return "", false
}
