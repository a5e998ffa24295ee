package handlers

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/store"
)

// Citations in answers (issue 5): arXiv ids, ADS bibcodes and DOIs an
// answer mentions become links to the paper's page in the library when it
// is there, else to arXiv, ADS or doi.org. The candidates are found by
// shape and then checked by the same parsers the library uses.

// maxCitations bounds the identifiers looked up for one answer.
const maxCitations = 50

var (
	// arXiv: new style (optionally "arXiv:") or old style archive/YYMMNNN.
	citeArxivRe = regexp.MustCompile(`(?i)(?:arXiv:\s?)?(?:\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(?:v\d{1,3})?`)
	// Bibcode: 19 characters, four-digit year first; ValidBibcode decides.
	citeBibcodeRe = regexp.MustCompile(`\d{4}[A-Za-z&][A-Za-z0-9.&:+-]{13}[A-Za-z.]`)
	// DOI, optionally "doi:"; trailing punctuation is trimmed afterwards.
	citeDOIRe = regexp.MustCompile(`(?i)(?:doi:\s?)?10\.\d{4,9}(?:\.\d+)*/[^\s"'<>\[\]{}|\\^` + "`" + `]+`)
)

// citation is one identifier as written in an answer.
type citation struct {
	text string // as written, e.g. "arXiv:2401.01234v2"
	ids  store.PaperIDs
	href string // outside the library
}

// findCitations returns the identifiers in text, each written form once.
func findCitations(text string) []citation {
	var out []citation
	seen := map[string]bool{}
	add := func(c citation) {
		if !seen[c.text] && len(out) < maxCitations {
			seen[c.text] = true
			out = append(out, c)
		}
	}
	for _, m := range citeArxivRe.FindAllString(text, -1) {
		if id, err := arxiv.ParseID(m); err == nil {
			add(citation{text: m, ids: store.PaperIDs{ArxivID: id.Base}, href: "https://arxiv.org/abs/" + id.String()})
		}
	}
	for _, loc := range citeBibcodeRe.FindAllStringIndex(text, -1) {
		m := text[loc[0]:loc[1]]
		if ads.ValidBibcode(m) && !alnumAt(text, loc[0]-1) && !alnumAt(text, loc[1]) {
			add(citation{text: m, ids: store.PaperIDs{Bibcode: m},
				href: "https://ui.adsabs.harvard.edu/abs/" + url.PathEscape(m) + "/abstract"})
		}
	}
	for _, m := range citeDOIRe.FindAllString(text, -1) {
		m = trimDOITail(m)
		if doi, err := ads.NormalizeDOI(m); err == nil {
			u := url.URL{Scheme: "https", Host: "doi.org", Path: "/" + doi}
			add(citation{text: m, ids: store.PaperIDs{DOI: doi}, href: u.String()})
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

// citationLinker returns a function that maps each identifier in an
// answer to its link: the paper's library page when the library has it,
// else the outside page. It remembers what it looked up, so a session's
// replay asks the library once per identifier. Not safe for concurrent
// use (one per timeline).
func (s *Server) citationLinker() func(ctx context.Context, answer string) map[string]string {
	known := map[string]string{}
	return func(ctx context.Context, answer string) map[string]string {
		cites := findCitations(answer)
		if len(cites) == 0 {
			return nil
		}
		out := make(map[string]string, len(cites))
		for _, c := range cites {
			href, ok := known[c.text]
			if !ok {
				href = s.citationHref(ctx, c)
				known[c.text] = href
			}
			out[c.text] = href
		}
		return out
	}
}

// citationHref is the link of one citation.
func (s *Server) citationHref(ctx context.Context, c citation) string {
	p, err := s.st.PaperByIdentifier(ctx, c.ids)
	switch {
	case err == nil:
		return s.cfg.BasePath + "/library/" + strconv.FormatInt(p.ID, 10)
	case !errors.Is(err, store.ErrNotFound):
		s.log.WarnContext(ctx, "citation lookup failed", "err", err)
	}
	return c.href
}
