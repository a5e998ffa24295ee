// Package literature searches NASA ADS and arXiv together and merges their
// answers into one list of papers (docs/features.md T7): de-duplicated by arXiv id, DOI
// and bibcode, ADS metadata preferred for published papers, arXiv filling
// the rest.
package literature

import (
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
)

// Paper is one merged search hit.
type Paper struct {
	Title         string   `json:"title"`
	Authors       []string `json:"authors"`
	Year          int      `json:"year,omitempty"`
	Journal       string   `json:"journal,omitempty"`
	Abstract      string   `json:"abstract,omitempty"`
	Bibcode       string   `json:"bibcode,omitempty"`
	DOI           string   `json:"doi,omitempty"`
	ArxivID       string   `json:"arxiv_id,omitempty"` // version-less
	Categories    []string `json:"categories,omitempty"`
	CitationCount *int     `json:"citation_count,omitempty"` // nil when ADS did not answer for it
	Refereed      bool     `json:"refereed"`
	Sources       []string `json:"sources"` // "ads", "arxiv"
	// Date is when the paper appeared: its arXiv submission (YYYY-MM-DD)
	// when known, else ADS's publication date ("YYYY-MM-00" when the day
	// is unknown); "" when neither source said.
	Date string `json:"date,omitempty"`
}

// Published reports whether the paper appeared in a journal (ADS's
// metadata is then authoritative).
func (p Paper) Published() bool {
	return p.Refereed || (p.Journal != "" && p.Journal != "arXiv e-prints")
}

// fromADS converts an ADS record.
func fromADS(d ads.Doc) Paper {
	return Paper{Title: d.Title, Authors: d.Authors, Year: d.Year, Journal: d.Journal, Abstract: d.Abstract,
		Bibcode: d.Bibcode, DOI: d.DOI, ArxivID: d.ArxivID, CitationCount: d.CitationCount, Refereed: d.Refereed,
		Sources: []string{"ads"}, Date: d.PubDate}
}

// fromArxiv converts an arXiv entry.
func fromArxiv(e arxiv.Entry) Paper {
	year, date := 0, ""
	if !e.Published.IsZero() {
		year, date = e.Published.Year(), e.Published.UTC().Format("2006-01-02")
	}
	return Paper{Title: e.Title, Authors: e.AuthorNames(), Year: year, Abstract: e.Summary, DOI: e.DOI,
		ArxivID: e.ID.Base, Categories: e.Categories, Journal: e.JournalRef, Sources: []string{"arxiv"}, Date: date}
}

// keys are the identifiers a paper can be matched by.
func keys(p Paper) []string {
	var k []string
	if p.ArxivID != "" {
		k = append(k, "arxiv:"+strings.ToLower(p.ArxivID))
	}
	if p.DOI != "" {
		k = append(k, "doi:"+strings.ToLower(p.DOI))
	}
	if p.Bibcode != "" {
		k = append(k, "bibcode:"+p.Bibcode)
	}
	return k
}

// Merge de-duplicates ADS docs and arXiv entries. The order is ADS's
// (its relevance or sort), then the arXiv entries ADS did not have, in
// arXiv's order. When a paper is in both, ADS's metadata wins for a
// published paper; for a preprint arXiv's title and authors are kept (they
// are the submitter's current version); either way missing fields are
// filled from the other source.
func Merge(docs []ads.Doc, entries []arxiv.Entry) []Paper {
	var out []Paper
	index := map[string]int{}
	add := func(p Paper) {
		for _, k := range keys(p) {
			if i, ok := index[k]; ok {
				out[i] = combine(out[i], p)
				for _, k2 := range keys(out[i]) {
					index[k2] = i
				}
				return
			}
		}
		out = append(out, p)
		for _, k := range keys(p) {
			index[k] = len(out) - 1
		}
	}
	for _, d := range docs {
		add(fromADS(d))
	}
	for _, e := range entries {
		add(fromArxiv(e))
	}
	return out
}

// combine merges two records of one paper.
func combine(a, b Paper) Paper {
	ad, ax := a, b // ADS record first when there is one
	if !has(a.Sources, "ads") && has(b.Sources, "ads") {
		ad, ax = b, a
	}
	out := ad
	if !has(ad.Sources, "ads") || (!ad.Published() && has(ax.Sources, "arxiv")) {
		// A preprint: the arXiv submission is the current text.
		out.Title = firstNonEmpty(ax.Title, ad.Title)
		if len(ax.Authors) > 0 {
			out.Authors = ax.Authors
		}
	}
	out.Abstract = firstNonEmpty(out.Abstract, ax.Abstract)
	out.DOI = firstNonEmpty(out.DOI, ax.DOI)
	out.ArxivID = firstNonEmpty(out.ArxivID, ax.ArxivID)
	out.Bibcode = firstNonEmpty(out.Bibcode, ax.Bibcode)
	out.Journal = firstNonEmpty(out.Journal, ax.Journal)
	if ax.Date != "" && has(ax.Sources, "arxiv") {
		out.Date = ax.Date // the day it appeared, rather than ADS's month
	}
	out.Date = firstNonEmpty(out.Date, ax.Date)
	if out.Year == 0 {
		out.Year = ax.Year
	}
	if len(out.Categories) == 0 {
		out.Categories = ax.Categories
	}
	if out.CitationCount == nil {
		out.CitationCount = ax.CitationCount
	}
	out.Refereed = out.Refereed || ax.Refereed
	out.Sources = union(ad.Sources, ax.Sources)
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, s := range b {
		if !has(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
