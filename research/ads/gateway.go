package ads

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// ESource names a full-text source served by the ADS link gateway.
type ESource string

// Full-text sources, as ADS names them in the esources field.
const (
	EprintPDF  ESource = "EPRINT_PDF"  // arXiv PDF
	EprintHTML ESource = "EPRINT_HTML" // arXiv abstract/HTML page
	PubPDF     ESource = "PUB_PDF"     // publisher PDF (may need a subscription)
	PubHTML    ESource = "PUB_HTML"    // publisher article page
	AuthorPDF  ESource = "AUTHOR_PDF"  // PDF provided by the author
	ADSPDF     ESource = "ADS_PDF"     // scan hosted by ADS
)

// LinkGateway returns the gateway URL that redirects to source's full text
// of bibcode, e.g. https://ui.adsabs.harvard.edu/link_gateway/
// 2019ApJ...875L...1E/EPRINT_PDF. It needs no token and makes no request;
// the downloader fetches it (through the guarded client, which re-checks
// every redirect). It fails with ErrMalformedID for a malformed bibcode and
// an error for an unknown source.
func (c *Client) LinkGateway(bibcode string, source ESource) (string, error) {
	b := strings.TrimSpace(bibcode)
	if !ValidBibcode(b) {
		return "", fmt.Errorf("ads: link gateway for %q: not a bibcode: %w", shorten(bibcode), ErrMalformedID)
	}
	if !slices.Contains(gatewaySources(), source) {
		return "", fmt.Errorf("ads: link gateway: unknown source %q", shorten(string(source)))
	}
	return c.gateway + "/link_gateway/" + url.PathEscape(b) + "/" + string(source), nil
}

// gatewaySources returns the known sources in the order FullTextLinks
// tries them: open PDFs first, publisher pages last.
func gatewaySources() []ESource {
	return []ESource{EprintPDF, PubPDF, AuthorPDF, ADSPDF, PubHTML, EprintHTML}
}

// FullTextLinks returns the gateway URLs worth trying for d's full text,
// best first: arXiv PDF, publisher PDF, author PDF, ADS scan, publisher
// HTML, arXiv HTML — limited to the sources d.ESources lists, or EPRINT_PDF,
// PUB_PDF and PUB_HTML when it lists none. It returns nil for a record
// without a valid bibcode.
func (c *Client) FullTextLinks(d Doc) []string {
	if !ValidBibcode(d.Bibcode) {
		return nil
	}
	want := []ESource{EprintPDF, PubPDF, PubHTML}
	if len(d.ESources) > 0 {
		want = nil
		for _, s := range d.ESources {
			want = append(want, ESource(strings.ToUpper(s)))
		}
	}
	var out []string
	for _, s := range gatewaySources() {
		if slices.Contains(want, s) {
			u, _ := c.LinkGateway(d.Bibcode, s) // bibcode and source checked
			out = append(out, u)
		}
	}
	return out
}
