package views

import (
	"strings"
	"testing"
)

func TestQuoteAnchor(t *testing.T) {
	md := "# Paper\n\nAbstract text before any section.\n\n## 1 Introduction\n\nDust shapes what we see ([Calzetti 2000](#ref-1)).\n" +
		"The slope $\\beta$ is\nsteep.\n\n## 2 Method\n\nWe fit *the* slope again.\n\n| Name | z |\n| --- | --- |\n| GN-z11 | 10.6 |\n\n" +
		"## 3 Results\n\nThe slope is steep.\n\n- one item\n- second item ends here\n\n## 4 Summary\n\nDust shapes what we see, again.\n"
	for _, tc := range []struct {
		name, quote, prefix, want string
	}{
		{"plain", "Dust shapes what we see", "", "sec-1-introduction"},
		{"across a link", "we see (Calzetti 2000). The", "", "sec-1-introduction"},
		{"formula skipped, lines joined", "The slope is steep.", "", "sec-1-introduction"},
		{"emphasis", "We fit the slope", "", "sec-2-method"},
		{"table cell", "GN-z11", "", "sec-2-method"},
		{"repeated: the prefix decides", "The slope is steep.", "GN-z11 10.6 3 Results ", "sec-3-results"},
		{"across blocks", "ends here 4 Summary Dust", "", "sec-3-results"},
		{"whitespace collapsed", "  Dust   shapes\nwhat we see,  again ", "", "sec-4-summary"},
		{"first words of a longer quote", "We fit the slope again. and then words that the text does not have", "", "sec-2-method"},
		{"before the first section", "Abstract text before", "", "sec-paper"},
		{"absent", "no such words in this paper", "", ""},
		{"empty", "   ", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := QuoteAnchor(md, tc.quote, tc.prefix); got != tc.want {
				t.Errorf("QuoteAnchor(%q) = %q, want %q", tc.quote, got, tc.want)
			}
		})
	}
}

// FuzzQuoteAnchor: any text and quote; the answer is "" or the id of one
// of the reader's headings, kept in the sanitised page.
func FuzzQuoteAnchor(f *testing.F) {
	f.Add("# P\n\n## 1 Intro\n\nDust shapes $x$ what.\n", "Dust shapes what", "")
	f.Add("## A\n\n| a | b |\n|---|---|\n| GN-z11 | $z$ |\n\n## A\n\nagain GN-z11\n", "GN-z11", "again")
	f.Add("- item\n  - nested *emph* [link](#x)\n\n> quote\n\n```\ncode\n```\n", "nested emph link", "\u00a0\t")
	f.Fuzz(func(t *testing.T, md, quote, prefix string) {
		got := QuoteAnchor(md, quote, prefix)
		if got == "" {
			return
		}
		html, toc, err := ReaderHTML(md)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html, `id="`+got+`"`) {
			t.Fatalf("QuoteAnchor = %q, not an id of the page (the sanitiser dropped it?)", got)
		}
		for _, h := range toc {
			if h.ID == got {
				return
			}
		}
		t.Fatalf("QuoteAnchor = %q, not a heading id of %v", got, toc)
	})
}

// TestQuoteAnchorRealHeadings: the shapes of real papers' headings — the
// same title twice ("Results" of two analyses), a formula in a heading,
// a heading with only a formula — get the ids the page gives them.
func TestQuoteAnchorRealHeadings(t *testing.T) {
	md := "# Paper\n\n## 2 Photometry\n\n### Results\n\nFirst results words.\n\n## 3 Spectroscopy\n\n### Results\n\nSecond results words.\n\n" +
		"## 4 The $z\\sim6$ sample\n\nSample words here.\n\n## $\\beta$\n\nSlope words here.\n"
	html, toc, err := ReaderHTML(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ quote, want string }{
		{"First results words.", "sec-results"},
		{"Second results words.", "sec-results-1"},
		{"Sample words here.", "sec-4-the-zsim6-sample"},
		{"Slope words here.", "sec-beta"},
	} {
		got := QuoteAnchor(md, tc.quote, "")
		if got != tc.want || !strings.Contains(html, `id="`+got+`"`) {
			t.Errorf("QuoteAnchor(%q) = %q, want %q on the page (toc %+v)", tc.quote, got, tc.want, toc)
		}
	}
}
