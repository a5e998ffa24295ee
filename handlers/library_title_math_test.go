package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

// TestReaderTitleMath: an arXiv title's formula ("$z\sim6$") is marked for
// math.js, as the text's formulas are, wherever the title is a heading or
// a link — the reader's h1 and its contents, the library list, the paper
// page (and its abstract) — and those pages load math.js; the TeX is
// escaped, never markup.
func TestReaderTitleMath(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	ctx := context.Background()
	id := "2401.07777"
	title := `Dusty galaxies at $z\sim6$ <b>& beyond</b>`
	p, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: title, ArxivID: &id, Abstract: `We find $M_\star > 10^{10}$ in all.`})
	if err != nil {
		t.Fatal(err)
	}
	md := "# Dusty galaxies\n\n## 2 The $z\\sim6$ sample\n\nText.\n"
	if err := a.store.SavePaperContent(ctx, store.PaperContent{PaperID: p.ID, Markdown: md, Engine: "arxiv-html"}); err != nil {
		t.Fatal(err)
	}
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	formula := `<span class="math math-inline">$z\sim6$</span>`
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"reader", base + "/read", []string{`<h1 data-testid="reader-title">Dusty galaxies at ` + formula + ` &lt;b&gt;&amp; beyond&lt;/b&gt;</h1>`,
			`<a href="#sec-2-the-zsim6-sample">2 The ` + formula + ` sample</a>`}},
		{"paper page", base, []string{`<h1 data-testid="paper-title">Dusty galaxies at ` + formula,
			`data-testid="paper-abstract">We find <span class="math math-inline">$M_\star &gt; 10^{10}$</span> in all.</p>`}},
		{"library", "/library", []string{`class="paper-title">Dusty galaxies at ` + formula}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.get(tc.path)
			expectStatus(t, tc.name, res, http.StatusOK)
			expectContains(t, tc.name, res.body, append(tc.want, `/static/js/math.js`)...)
			if strings.Contains(res.body, "<b>&") {
				t.Errorf("%s: the title's markup is not escaped", tc.name)
			}
		})
	}
}
