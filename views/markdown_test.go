package views

import (
	"strings"
	"testing"
)

func TestMarkdownHTML(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the output
		not       []string // must not appear
	}{
		{"emphasis and GFM", "**bold** ~~old~~ https://arxiv.org/abs/2401.00001",
			[]string{"<strong>bold</strong>", "<del>old</del>", `<a href="https://arxiv.org/abs/2401.00001" rel="nofollow noreferrer noopener" target="_blank">`}, nil},
		{"inline math kept verbatim", `the ratio $a_1 * b_2 / c_3$ holds`,
			[]string{`<span class="math math-inline">$a_1 * b_2 / c_3$</span>`}, []string{"<em>"}},
		{"display math over lines", "$$\n\\sum_i x_i * y_i\n$$",
			[]string{"<span class=\"math math-display\">$$\n\\sum_i x_i * y_i\n$$</span>"}, []string{"<em>"}},
		{"prices are not math", "costs $5 and $10 today", []string{"costs $5 and $10 today"}, []string{"math"}},
		{"math in code untouched", "`$x$`", []string{"<code>$x$</code>"}, []string{"math"}},
		{"headings move below the page's", "# Result\n## Detail", []string{"<h3>Result</h3>", "<h4>Detail</h4>"}, []string{"<h1>", "<h2>"}},
		{"table alignment without style", "| a | b |\n|:-|-:|\n| 1 | 2 |", []string{`<th align="left">a</th>`, `<td align="right">2</td>`}, []string{"style"}},
		{"raw HTML sanitised", `<sub>0</sub> <script>alert(1)</script><img src=x onerror="alert(2)"> <a href="javascript:alert(3)">j</a> <span hx-get="/x" hx-swap-oob="true" onclick="y()" style="color:red">s</span>`,
			[]string{"<sub>0</sub>", "<span>s</span>"}, []string{"script", "alert", "onerror", "javascript:", "hx-", "onclick", "style", "<img"}},
		{"markdown javascript link", "[x](javascript:alert(1)) [y](data:text/html,hi)", []string{"x", "y"}, []string{"javascript:", "data:", "href"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MarkdownHTML(tt.src)
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

// TestReaderMathBeforeDigits: in paper text (every literal $ escaped by
// the engines) a formula may be followed by a digit; TeX written by the
// engines never leaves HTML outside its span.
func TestReaderMathBeforeDigits(t *testing.T) {
	got, _, err := ReaderHTML("About $\\sim$10 Myr, 3$\\times$10$^{5}$ stars and $M$.\n\nWe find $v \\lt a href=\"https://evil.example/\"\\gt$1 km/s.\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<span class="math math-inline">$\sim$</span>10 Myr`, `3<span class="math math-inline">$\times$</span>10<span class="math math-inline">$^{5}$</span> stars`,
		`<span class="math math-inline">$M$</span>`, `<span class="math math-inline">$v \lt a href=&#34;https://evil.example/&#34;\gt$</span>1 km/s`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "<a href=\"https://evil.example/") {
		t.Errorf("TeX became a link:\n%s", got)
	}
	// Elsewhere prices stay text.
	if notes, _ := MarkdownHTML("costs $5 and $10 today"); strings.Contains(notes, "math") {
		t.Errorf("notes: %s", notes)
	}
}
