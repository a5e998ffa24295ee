package parse

import (
	"os"
	"strings"
	"testing"
	"time"
)

// latexmlSamples are real LaTeXML renderings (latexmlc 0.8.7, Debian's
// latexml, --format=html5, the markup arXiv's HTML and ar5iv use) of the
// ground-truth papers, so the HTML engine is measured against the same
// LaTeX sources as the PDF engine.
var latexmlSamples = []struct{ name, html, tex string }{
	{"revtex apssamp", "testdata/latexml/apssamp.html", texdoc + "revtex/sample/aps/apssamp.tex.gz"},
	{"mnras guide", "testdata/latexml/mnras_guide.html", texdoc + "mnras/mnras_guide.tex.gz"},
}

// TestArxivHTMLQuality: word recall ≥ 0.98 and every \section a heading.
func TestArxivHTMLQuality(t *testing.T) {
	requireSamples(t)
	for _, s := range latexmlSamples {
		page, err := os.ReadFile(s.html)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := loadTruth(s.tex)
		if err != nil {
			t.Fatal(err)
		}
		md, err := HTMLToMarkdown(page)
		if err != nil {
			t.Fatal(err)
		}
		q := measure(tr, md, true)
		t.Logf("%s: arxiv-html word recall %.3f  section headings %.2f  order %.3f  paragraphs intact in order %.3f", s.name, q.wordRecall, q.headingRecall, q.order, q.paras)
		if s.name == "mnras guide" && (!strings.Contains(md, `2. <span id="ref-2"></span>Jones`) ||
			strings.Count(md, "](#ref-") < 10) {
			t.Errorf("%s: reference list or linked citations missing", s.name)
		}
		if q.wordRecall < 0.98 || len(q.missing) > 0 {
			t.Errorf("%s: recall %.3f, sections missing %q", s.name, q.wordRecall, q.missing)
		}
	}
}

// BenchmarkArxivHTML prints the HTML engine's time per document and its
// quality on the LaTeXML renderings.
func BenchmarkArxivHTML(b *testing.B) {
	requireSamples(b)
	for _, s := range latexmlSamples {
		page, err := os.ReadFile(s.html)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := loadTruth(s.tex)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name+"/engine=arxiv-html", func(b *testing.B) {
			var md string
			start := time.Now()
			for b.Loop() {
				if md, err = HTMLToMarkdown(page); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/doc")
			q := measure(tr, md, true)
			b.ReportMetric(q.wordRecall, "word-recall")
			b.ReportMetric(q.headingRecall, "section-recall")
			b.ReportMetric(q.order, "order")
			b.ReportMetric(q.paras, "para-order")
		})
	}
}
