package views

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestReaderTablesScrollByKeyboard: every table of the text sits in a
// named region in the tab order (a wide one scrolls sideways, and a
// keyboard must reach it), with or without a cited passage around it; a
// paper's own raw HTML cannot name a region anything else.
func TestReaderTablesScrollByKeyboard(t *testing.T) {
	md := "# P\n\n## 1 Data\n\n| Name | z |\n| --- | --- |\n| GN-z11 | 10.6 |\n\n- a list\n\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n\n" +
		"<div role=\"region\" tabindex=\"0\" aria-label=\"Click here\">raw</div>\n\nGN-z11 is far.\n"
	plain, _, err := ReaderHTML(md)
	if err != nil {
		t.Fatal(err)
	}
	marked, _, found, err := ReaderHTMLWithPassage(md, PassageMark{ID: 7, Start: strings.Index(md, "| Name"), End: strings.Index(md, "- a list")})
	if err != nil || !found {
		t.Fatalf("passage: found %v, %v", found, err)
	}
	for name, html := range map[string]string{"plain": plain, "with a passage": marked} {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		doc.Find("table").Each(func(i int, tb *goquery.Selection) {
			w := tb.Parent()
			role, _ := w.Attr("role")
			tab, _ := w.Attr("tabindex")
			label, _ := w.Attr("aria-label")
			if !w.HasClass("reader-scroll") || role != "region" || tab != "0" {
				t.Errorf("%s: table %d is in %s class=%q role=%q tabindex=%q, want the focusable region", name, i+1, goquery.NodeName(w), w.AttrOr("class", ""), role, tab)
			}
			labels = append(labels, label)
		})
		if strings.Join(labels, "|") != "Scrollable table 1|Scrollable table 2" {
			t.Errorf("%s: region names %q", name, labels)
		}
		if strings.Contains(html, "Click here") {
			t.Errorf("%s: a paper's raw aria-label came through: %s", name, html)
		}
		if name == "with a passage" && doc.Find("#passage-7 .reader-scroll table").Length() != 1 {
			t.Errorf("the cited passage does not hold the first table: %s", html)
		}
	}
	if got := QuoteAnchor(md, "GN-z11 is far.", ""); got != "sec-1-data" {
		t.Errorf("QuoteAnchor after a table = %q", got)
	}
}
