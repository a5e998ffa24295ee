package library

import "github.com/astroresearch/astroresearch/store"

// CiteKeys returns, by paper id, the BibTeX keys BibTeX(ctx, papers, ads)
// gives the same papers in the same order: the bibcode for papers ADS
// exports (a bibcode and a token), the local key with its a, b, ...
// suffixes for the others. If ADS then fails, BibTeX generates every entry
// locally and those papers' keys differ.
func CiteKeys(papers []store.Paper, ads Exporter) map[int64]string {
	out := make(map[int64]string, len(papers))
	keys := map[string]int{}
	for _, p := range papers {
		if p.Bibcode != nil && ads != nil && ads.HasToken() {
			out[p.ID] = *p.Bibcode
			continue
		}
		out[p.ID] = uniqueKey(p, keys)
	}
	return out
}
