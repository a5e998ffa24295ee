package library

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/store"
)

// Citations in answers (issue 5): the paper identifiers a text mentions,
// used to link answers to papers (handlers) and to list what an answer
// cites in a research record (agent/record).

// MaxCitations bounds the identifiers FindCitations returns for one text.
const MaxCitations = 50

var (
	// arXiv: new style (optionally "arXiv:") or old style archive/YYMMNNN.
	citeArxivRe = regexp.MustCompile(`(?i)(?:arXiv:\s?)?(?:\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(?:v\d{1,3})?`)
	// Bibcode: 19 characters, four-digit year first; ValidBibcode decides.
	citeBibcodeRe = regexp.MustCompile(`\d{4}[A-Za-z&][A-Za-z0-9.&:+-]{13}[A-Za-z.]`)
	// DOI, optionally "doi:"; trailing punctuation is trimmed afterwards.
	citeDOIRe = regexp.MustCompile(`(?i)(?:doi:\s?)?10\.\d{4,9}(?:\.\d+)*/[^\s"'<>\[\]{}|\\^` + "`" + `]+`)
)

// Citation is one paper identifier as written in a text (an answer).
type Citation struct {
	// Text is the identifier as written, e.g. "arXiv:2401.01234v2".
	Text string
	// IDs is what it identifies, normalised for a library lookup.
	IDs store.PaperIDs
	// Href is the paper's page outside the library (arXiv, ADS, doi.org).
	Href string
}

// FindCitations returns the arXiv ids, bibcodes and DOIs in text, each
// written form once, at most MaxCitations: candidates found by shape and
// checked by the parsers the library uses (arxiv.ParseID,
// ads.ValidBibcode, ads.NormalizeDOI).
func FindCitations(text string) []Citation {
	var out []Citation
	seen := map[string]bool{}
	add := func(c Citation) {
		if !seen[c.Text] && len(out) < MaxCitations {
			seen[c.Text] = true
			out = append(out, c)
		}
	}
	for _, m := range citeArxivRe.FindAllString(text, -1) {
		if id, err := arxiv.ParseID(m); err == nil {
			add(Citation{Text: m, IDs: store.PaperIDs{ArxivID: id.Base}, Href: "https://arxiv.org/abs/" + id.String()})
		}
	}
	for _, loc := range citeBibcodeRe.FindAllStringIndex(text, -1) {
		m := text[loc[0]:loc[1]]
		if ads.ValidBibcode(m) && !alnumAt(text, loc[0]-1) && !alnumAt(text, loc[1]) {
			add(Citation{Text: m, IDs: store.PaperIDs{Bibcode: m},
				Href: "https://ui.adsabs.harvard.edu/abs/" + url.PathEscape(m) + "/abstract"})
		}
	}
	for _, m := range citeDOIRe.FindAllString(text, -1) {
		m = trimDOITail(m)
		if doi, err := ads.NormalizeDOI(m); err == nil {
			u := url.URL{Scheme: "https", Host: "doi.org", Path: "/" + doi}
			add(Citation{Text: m, IDs: store.PaperIDs{DOI: doi}, Href: u.String()})
		}
	}
	return out
}

// alnumAt reports whether text[i] exists and is an ASCII letter or digit.
func alnumAt(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// trimDOITail drops sentence punctuation after a DOI, and a closing
// bracket that the DOI does not open.
func trimDOITail(s string) string {
	for s != "" {
		last := s[len(s)-1]
		switch {
		case strings.IndexByte(".,;:!?'\"", last) >= 0:
			s = s[:len(s)-1]
		case last == ')' && strings.Count(s, "(") < strings.Count(s, ")"):
			s = s[:len(s)-1]
		default:
			return s
		}
	}
	return s
}
