package parse

import (
	"context"

	"github.com/astroresearch/astroresearch/store"
)

// applicable is implemented by engines that can tell, without any
// network request, whether they could handle a paper — the same check
// their Parse starts with. An engine without it counts as applicable.
type applicable interface {
	Applicable(in Input) bool
}

// Applicable implements applicable: the paper has an arXiv id.
func (e *ArxivHTMLEngine) Applicable(in Input) bool { return in.ArxivID != "" && e.Web != nil }

// Applicable implements applicable: the service is set and the paper has an IOP DOI.
func (e *IOPHTMLEngine) Applicable(in Input) bool {
	return e.URL != "" && e.Web != nil && IOPDOI(in.DOI)
}

// Applicable implements applicable: the service is set and the paper has an A&A DOI.
func (e *AandAHTMLEngine) Applicable(in Input) bool {
	return e.URL != "" && e.Web != nil && AandADOI(in.DOI)
}

// Applicable implements applicable: a PDF is stored.
func (e *PDFEngine) Applicable(in Input) bool { return in.PDFPath != "" }

// Applicable implements applicable: the service is set and a PDF is stored.
func (e *MinerUEngine) Applicable(in Input) bool {
	return e.URL != "" && e.Web != nil && in.PDFPath != ""
}

// Applicable implements applicable: the service is set and a PDF is stored.
func (e *GrobidEngine) Applicable(in Input) bool {
	return e.URL != "" && e.Web != nil && in.PDFPath != ""
}

// HasSource reports whether some engine could try to parse p: it has an
// identifier an HTML engine serves, or a stored PDF. False means a parse
// would fail at once (the paper page then asks for the PDF first instead
// of offering "Parse for reading").
func (s *Service) HasSource(ctx context.Context, p store.Paper) (bool, error) {
	in, err := s.input(ctx, p)
	if err != nil {
		return false, err
	}
	for _, e := range s.engines {
		if a, ok := e.(applicable); !ok || a.Applicable(in) {
			return true, nil
		}
	}
	return false, nil
}
