package ads

import (
	"strings"
	"unicode"
)

// Quote returns s as an ADS (Solr) phrase: wrapped in double quotes, with
// backslashes and double quotes escaped and control characters replaced by
// spaces, so user text placed in a fielded query can never close the
// phrase early or inject operators. Invalid UTF-8 becomes U+FFFD.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ByBibcode returns the query matching the record with this bibcode:
// bibcode:"2019ApJ...875L...1E". Surrounding space is trimmed; the bibcode
// is not validated (see ValidBibcode) but is always safely quoted.
func ByBibcode(bibcode string) string {
	return "bibcode:" + Quote(strings.TrimSpace(bibcode))
}

// ByDOI returns the query matching records with this DOI: doi:"10.…". The
// DOI is normalized when NormalizeDOI accepts it and quoted as given
// (trimmed) otherwise.
func ByDOI(doi string) string {
	if d, err := NormalizeDOI(doi); err == nil {
		doi = d
	}
	return "doi:" + Quote(strings.TrimSpace(doi))
}

// ByArxiv returns the query matching the record with this arXiv id through
// its identifier list: identifier:"arXiv:1906.11238". An "arXiv:" prefix and
// a version suffix are removed when the id is well formed; anything else is
// quoted as given (trimmed).
func ByArxiv(id string) string {
	id = strings.TrimSpace(id)
	if n, err := normalizeArxiv(id); err == nil {
		id = n
	} else if len(id) >= 6 && strings.EqualFold(id[:6], "arxiv:") {
		id = id[6:]
	}
	return "identifier:" + Quote("arXiv:"+id)
}

// CitationsOf returns the query for the records citing bibcode:
// citations(bibcode:"…").
func CitationsOf(bibcode string) string {
	return "citations(" + ByBibcode(bibcode) + ")"
}

// ReferencesOf returns the query for the records bibcode cites:
// references(bibcode:"…").
func ReferencesOf(bibcode string) string {
	return "references(" + ByBibcode(bibcode) + ")"
}
