package ads

import (
	"errors"
	"reflect"
	"testing"
)

func TestLinkGateway(t *testing.T) {
	def := New("", "", nil)
	custom := New("", "", nil, WithGatewayURL("http://127.0.0.1:9999/ui/"))
	tests := []struct {
		name    string
		c       *Client
		bibcode string
		source  ESource
		want    string
		err     bool
	}{
		{"eprint", def, "2019ApJ...875L...1E", EprintPDF, "https://ui.adsabs.harvard.edu/link_gateway/2019ApJ...875L...1E/EPRINT_PDF", false},
		{"publisher pdf", def, " 2019A&A...623A..24A ", PubPDF, "https://ui.adsabs.harvard.edu/link_gateway/2019A&A...623A..24A/PUB_PDF", false},
		{"publisher html", custom, "2019ApJ...875L...1E", PubHTML, "http://127.0.0.1:9999/ui/link_gateway/2019ApJ...875L...1E/PUB_HTML", false},
		{"bad bibcode", def, "../../admin", EprintPDF, "", true},
		{"bad source", def, "2019ApJ...875L...1E", ESource("PUB_PDF/../x"), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.c.LinkGateway(tt.bibcode, tt.source)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("got %q, %v; want %q (error %v)", got, err, tt.want, tt.err)
			}
			if tt.name == "bad bibcode" && !errors.Is(err, ErrMalformedID) {
				t.Errorf("err = %v, want ErrMalformedID", err)
			}
		})
	}
}

func TestFullTextLinks(t *testing.T) {
	c := New("", "", nil)
	const gw = "https://ui.adsabs.harvard.edu/link_gateway/2019ApJ...875L...1E/"
	tests := []struct {
		name string
		doc  Doc
		want []string
	}{
		{"listed sources in preference order", Doc{Bibcode: "2019ApJ...875L...1E", ESources: []string{"PUB_HTML", "pub_pdf", "EPRINT_HTML", "EPRINT_PDF"}},
			[]string{gw + "EPRINT_PDF", gw + "PUB_PDF", gw + "PUB_HTML", gw + "EPRINT_HTML"}},
		{"none listed", Doc{Bibcode: "2019ApJ...875L...1E"}, []string{gw + "EPRINT_PDF", gw + "PUB_PDF", gw + "PUB_HTML"}},
		{"unknown sources only", Doc{Bibcode: "2019ApJ...875L...1E", ESources: []string{"SOMETHING_NEW"}}, nil},
		{"no bibcode", Doc{ESources: []string{"EPRINT_PDF"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.FullTextLinks(tt.doc); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
