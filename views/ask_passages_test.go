package views

import (
	"context"
	"strings"
	"testing"
)

// TestPassagesReadAsText: a source passage cut from Markdown shows as
// text — no "## " heading marker, no "**" — its [n] label the only
// number (the list's own numbers are off in the stylesheet).
func TestPassagesReadAsText(t *testing.T) {
	a := AskAnswer{Question: "What is H0?", Paragraphs: [][]AskSentence{{{Text: "About 70.", Cites: []AskCite{{N: 1, URL: "/r#p1"}}}}},
		Passages: []AskPassage{{N: 1, Title: "Distance ladder", URL: "/r#p1", PaperURL: "/library/1",
			Excerpt: "## ABSTRACT\nWe find **H0 = 73** from [Cepheids](https://example.org)."}}}
	var b strings.Builder
	if err := AskAnswerView(a).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, bad := range []string{"## ABSTRACT", "**", "](https://"} {
		if strings.Contains(html, bad) {
			t.Errorf("passage shows Markdown %q:\n%s", bad, html)
		}
	}
	for _, want := range []string{"ABSTRACT\nWe find H0 = 73 from Cepheids.", `<ol class="passage-list"`, "[1]"} {
		if !strings.Contains(html, want) {
			t.Errorf("answer lacks %q:\n%s", want, html)
		}
	}
}
