package parse

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// noWeb is a Getter and Doer that never fetches: Applicable must decide
// without the network.
type noWeb struct{}

func (noWeb) Get(context.Context, string, ...fetch.Option) (*fetch.Response, error) {
	return nil, errors.New("no network in Applicable")
}

func (noWeb) Do(context.Context, *http.Request, ...fetch.Option) (*fetch.Response, error) {
	return nil, errors.New("no network in Applicable")
}

func TestEnginesApplicable(t *testing.T) {
	web := noWeb{}
	tests := []struct {
		name   string
		engine applicable
		in     Input
		want   bool
	}{
		{"arXiv HTML with an id", &ArxivHTMLEngine{Web: web}, Input{ArxivID: "2401.00001"}, true},
		{"arXiv HTML without", &ArxivHTMLEngine{Web: web}, Input{DOI: "10.3847/1"}, false},
		{"IOP DOI", &IOPHTMLEngine{Web: web, URL: "https://iopscience.iop.org"}, Input{DOI: "10.3847/2041-8213/ab0ec7"}, true},
		{"IOP other DOI", &IOPHTMLEngine{Web: web, URL: "https://iopscience.iop.org"}, Input{DOI: "10.1051/0004-6361/1"}, false},
		{"A&A DOI", &AandAHTMLEngine{Web: web, URL: "https://www.aanda.org"}, Input{DOI: "10.1051/0004-6361/202037001"}, true},
		{"A&A unconfigured", &AandAHTMLEngine{}, Input{DOI: "10.1051/0004-6361/202037001"}, false},
		{"PDF stored", &PDFEngine{}, Input{PDFPath: "/data/library/pdf/x.pdf"}, true},
		{"no PDF", &PDFEngine{}, Input{ArxivID: "2401.00001"}, false},
		{"MinerU unconfigured", &MinerUEngine{}, Input{PDFPath: "/x.pdf"}, false},
		{"GROBID with a PDF", &GrobidEngine{Web: web, URL: "http://grobid"}, Input{PDFPath: "/x.pdf"}, true},
	}
	for _, tt := range tests {
		if got := tt.engine.Applicable(tt.in); got != tt.want {
			t.Errorf("%s: Applicable = %v, want %v", tt.name, got, tt.want)
		}
	}
}
