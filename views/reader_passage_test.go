package views

import (
	"strings"
	"testing"
)

func TestReaderHTMLWithPassage(t *testing.T) {
	md := "# Paper\n\n## 1 Introduction\n\nFirst paragraph.\n\nSecond paragraph with a note.[^1]\n\n" +
		"## 2 Results\n\n- item one\n- item two\n\n$$\nE = mc^2\n$$\n\nLast paragraph.\n\n[^1]: The footnote.\n"
	start := strings.Index(md, "Second paragraph")
	end := strings.Index(md, "## 2 Results")
	html, toc, found, err := ReaderHTMLWithPassage(md, PassageMark{ID: 42, Start: start, End: end})
	if err != nil || !found || len(toc) != 3 {
		t.Fatalf("found %v, toc %v, err %v", found, toc, err)
	}
	open := `<div class="passage" id="passage-42" tabindex="-1">`
	i := strings.Index(html, open)
	if i < 0 {
		t.Fatalf("no passage element:\n%s", html)
	}
	inside := html[i:]
	inside = inside[:strings.Index(inside, "</div>")]
	if !strings.Contains(inside, "Second paragraph") || strings.Contains(inside, "First paragraph") || strings.Contains(inside, "Results") {
		t.Errorf("passage element holds the wrong blocks:\n%s", inside)
	}
	if !strings.Contains(html, `class="footnotes"`) {
		t.Errorf("footnotes lost their class:\n%s", html)
	}

	// A range across a list and display math wraps each whole block once.
	start, end = strings.Index(md, "- item two"), strings.Index(md, "Last paragraph")
	html, _, found, _ = ReaderHTMLWithPassage(md, PassageMark{ID: 7, Start: start, End: end})
	if !found || strings.Count(html, `id="passage-7"`) != 1 || !strings.Contains(html, "item one") {
		t.Errorf("list and math passage:\n%s", html)
	}
	if _, _, found, _ := ReaderHTMLWithPassage(md, PassageMark{ID: 9, Start: len(md) + 5, End: len(md) + 9}); found {
		t.Error("a range outside the text was found")
	}
	// Plain rendering is unchanged by the passage machinery.
	plain, _, _ := ReaderHTML(md)
	if strings.Contains(plain, "passage") {
		t.Errorf("plain rendering has a passage:\n%s", plain)
	}
	// Raw HTML in a paper cannot smuggle attributes beyond the allowlist.
	evil, _, _ := ReaderHTML(`<div class="passage x" id="passage-1" onclick="alert(1)" tabindex="5">x</div>`)
	if strings.Contains(evil, "onclick") || strings.Contains(evil, `tabindex="5"`) || strings.Contains(evil, "passage x") {
		t.Errorf("sanitiser let through: %s", evil)
	}
}
