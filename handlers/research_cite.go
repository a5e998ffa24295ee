package handlers

import (
	"context"
	"errors"
	"strconv"

	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

// Citations in answers (issue 5): arXiv ids, ADS bibcodes and DOIs an
// answer mentions become links to the paper's page in the library when it
// is there, else to arXiv, ADS or doi.org. The candidates are found by
// shape and then checked by the same parsers the library uses.

// citation is one identifier as written in an answer (library.FindCitations).
type citation = library.Citation

// findCitations returns the identifiers in text, each written form once.
func findCitations(text string) []citation { return library.FindCitations(text) }

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
			href, ok := known[c.Text]
			if !ok {
				href = s.citationHref(ctx, c)
				known[c.Text] = href
			}
			out[c.Text] = href
		}
		return out
	}
}

// citationHref is the link of one citation.
func (s *Server) citationHref(ctx context.Context, c citation) string {
	p, err := s.st.PaperByIdentifier(ctx, c.IDs)
	switch {
	case err == nil:
		return s.cfg.BasePath + "/library/" + strconv.FormatInt(p.ID, 10)
	case !errors.Is(err, store.ErrNotFound):
		s.log.WarnContext(ctx, "citation lookup failed", "err", err)
	}
	return c.Href
}
