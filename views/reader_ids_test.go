package views

import (
	"strings"
	"testing"
)

// A paper's headings cannot take the ids of the reader page's own
// elements (note-form, selection-actions, ...): generated ids carry the
// sec- prefix, and raw HTML ids without it are dropped.
func TestReaderHeadingIDsCannotClobberPageIDs(t *testing.T) {
	md := "# Paper\n\n## Note form\n\ntext\n\n## Selection actions\n\nmore\n\n## Note form\n\nagain\n\n<h2 id=\"reader-text\">Raw</h2>\n"
	html, toc, err := ReaderHTML(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="sec-note-form"`, `id="sec-selection-actions"`, `id="sec-note-form-1"`} {
		if !strings.Contains(html, want) {
			t.Errorf("missing %s in %s", want, html)
		}
	}
	for _, bad := range []string{`id="note-form"`, `id="selection-actions"`, `id="reader-text"`} {
		if strings.Contains(html, bad) {
			t.Errorf("a paper heading took the page's %s: %s", bad, html)
		}
	}
	for _, e := range toc {
		if !strings.HasPrefix(e.ID, headingIDPrefix) || !strings.Contains(html, `id="`+e.ID+`"`) {
			t.Errorf("table of contents entry %+v does not match a heading of the text", e)
		}
	}
	if len(toc) != 4 {
		t.Errorf("toc %+v, want 4 entries", toc)
	}
}

// A heading longer than the sanitiser's id limit (a paragraph the PDF
// engine took for a heading, a long title) keeps its id, so its contents
// link and the no-JavaScript return anchor of a note lead to it; two such
// headings that start alike still get distinct ids.
func TestReaderLongHeadingKeepsItsID(t *testing.T) {
	long := strings.Repeat("Spectral energy distributions of dusty galaxies ", 4)
	md := "# Paper\n\n## " + long + "one\n\nFirst body words.\n\n## " + long + "two\n\nSecond body words.\n\n## Ωμέγα " + strings.Repeat("é", 60) + "\n\nThird body words.\n"
	html, toc, err := ReaderHTML(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(toc) != 4 {
		t.Fatalf("toc %+v, want 4 entries", toc)
	}
	seen := map[string]bool{}
	for _, e := range toc {
		if e.ID == "" || seen[e.ID] {
			t.Errorf("heading %q has the id %q, empty or taken", e.Title, e.ID)
		}
		seen[e.ID] = true
		if !strings.Contains(html, `id="`+e.ID+`"`) {
			t.Errorf("the sanitiser dropped the id %q of heading %q", e.ID, e.Title)
		}
	}
	for quote, want := range map[string]string{"First body words.": toc[1].ID, "Second body words.": toc[2].ID, "Third body words.": toc[3].ID} {
		if got := QuoteAnchor(md, quote, ""); got != want || !strings.Contains(html, `id="`+got+`"`) {
			t.Errorf("QuoteAnchor(%q) = %q, want %q (an id of the page)", quote, got, want)
		}
	}
}
