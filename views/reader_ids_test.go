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
