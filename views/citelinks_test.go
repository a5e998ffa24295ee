package views

import (
	"strings"
	"testing"
)

func TestMarkdownLinks(t *testing.T) {
	links := map[string]string{
		"arXiv:2401.01234":     "/base/library/7",
		"2401.01234":           "https://arxiv.org/abs/2401.01234",
		"2019ApJ...882L..12A":  "https://ui.adsabs.harvard.edu/abs/2019ApJ...882L..12A/abstract",
		"10.1093/mnras/stz123": "https://doi.org/10.1093/mnras/stz123",
	}
	tests := []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"identifiers become links", "See arXiv:2401.01234, 2019ApJ...882L..12A and 10.1093/mnras/stz123.",
			[]string{`<a href="/base/library/7" rel="nofollow">arXiv:2401.01234</a>,`,
				`<a href="https://ui.adsabs.harvard.edu/abs/2019ApJ...882L..12A/abstract" rel="nofollow noreferrer noopener" target="_blank">2019ApJ...882L..12A</a>`,
				`<a href="https://doi.org/10.1093/mnras/stz123" rel="nofollow noreferrer noopener" target="_blank">10.1093/mnras/stz123</a>.`}, nil},
		{"bare id and emphasis", "*Paper* 2401.01234 **x**", []string{`<em>Paper</em> <a href="https://arxiv.org/abs/2401.01234"`, `<strong>x</strong>`}, nil},
		{"not inside code, links or longer numbers", "`2401.01234` [2401.01234](https://example.org) 12401.012345",
			[]string{"<code>2401.01234</code>", `<a href="https://example.org"`}, []string{"arxiv.org"}},
		{"not inside math", "$2401.01234$", []string{`<span class="math math-inline">$2401.01234$</span>`}, []string{"<a "}},
		{"model links get the base path", "[passage](/library/3/read?passage=9#passage-9) [kept](/base/research) [out](https://x.org/y)",
			[]string{`<a href="/base/library/3/read?passage=9#passage-9" rel="nofollow">passage</a>`, `<a href="/base/research" rel="nofollow">kept</a>`, `href="https://x.org/y"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MarkdownHTMLWith(tt.src, MarkdownOptions{BasePath: "/base", Links: links})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("output contains %q:\n%s", n, got)
				}
			}
		})
	}
}

// FuzzMarkdownLinks: whatever the text and identifiers, rendering
// succeeds and the policy still applies (no script, no javascript: URL).
func FuzzMarkdownLinks(f *testing.F) {
	f.Add("See arXiv:2401.01234 and *x* 2401.01234", "2401.01234")
	f.Add("<script>x</script> [a](/b)", "a")
	f.Fuzz(func(t *testing.T, src, key string) {
		got, err := MarkdownHTMLWith(src, MarkdownOptions{BasePath: "/p", Links: map[string]string{key: "javascript:alert(1)", "x": "/library/1"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, "<script") || strings.Contains(got, `href="javascript:`) {
			t.Fatalf("unsafe output for %q: %s", src, got)
		}
	})
}
