package parse

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func requireSamples(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatalf("pdftotext missing (make deps-parse installs poppler-utils): %v", err)
	}
	for _, s := range samples {
		if _, err := os.Stat(s.pdf); err != nil {
			t.Fatalf("%s missing (make deps-parse installs texlive-publishers-doc): %v", s.name, err)
		}
	}
}

// plainText runs pdftotext with args (the baseline).
func plainText(t testing.TB, path string, args ...string) string {
	t.Helper()
	out, err := exec.Command("pdftotext", append(append([]string{"-q", "-enc", "UTF-8"}, args...), path, "-")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestPDFQuality checks the PDF engine against the LaTeX sources: word
// recall ≥ 0.99, every \section found as a heading, and paragraph order
// better than pdftotext -raw's.
func TestPDFQuality(t *testing.T) {
	requireSamples(t)
	e := &PDFEngine{}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			tr, err := loadTruth(s.tex)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := e.Parse(context.Background(), Input{PDFPath: s.pdf}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if os.Getenv("PARSE_DUMP") != "" {
				_ = os.WriteFile(os.Getenv("PARSE_DUMP")+"/"+s.name+".md", []byte(doc.Markdown), 0o644)
			}
			q := measure(tr, doc.Markdown, true)
			raw := measure(tr, plainText(t, s.pdf, "-raw"), false)
			plain := measure(tr, plainText(t, s.pdf), false)
			for _, x := range []struct {
				name string
				q    quality
			}{{"engine", q}, {"pdftotext", plain}, {"pdftotext -raw", raw}} {
				t.Logf("%-15s word recall %.3f  section headings %.2f  order %.3f  paragraphs intact in order %.3f", x.name, x.q.wordRecall, x.q.headingRecall, x.q.order, x.q.paras)
			}
			if q.wordRecall < 0.99 {
				t.Errorf("word recall %.3f < 0.99", q.wordRecall)
			}
			if len(q.missing) > 0 {
				t.Errorf("sections not found as headings: %q", q.missing)
			}
			if s.name == "mnras guide" && !strings.Contains(doc.Markdown, "## REFERENCES\n\n- <span id=\"ref-1\"></span>Author A. N., 2013, Journal of Improbable Astronomy, 1, 1\n\n- <span id=\"ref-2\"></span>Jones C. D., 2015,") {
				t.Error("the reference list is not one anchored item per reference")
			}
			if s.name == "mnras guide" && (!strings.Contains(doc.Markdown, "([Smith 2014](#ref-3); [Jones 2015](#ref-2))") || !strings.Contains(doc.Markdown, "[Author (2013)](#ref-1)")) {
				t.Error("author–year citations are not linked to the reference list")
			}
			if s.name == "revtex apssamp" && (!strings.Contains(doc.Markdown, `- <span id="ref-1"></span>\[1\] E. Witten, (2001), hep-th/0106109, and references therein`) ||
				!strings.Contains(doc.Markdown, `\[[2](#ref-2)\]`)) {
				t.Error("the numbered reference list is not anchored, or citations are not linked to it")
			}
			if q.paras < raw.paras+0.2 {
				t.Errorf("paragraph order %.3f not clearly better than pdftotext -raw's %.3f", q.paras, raw.paras)
			}
		})
	}
}

// BenchmarkPDFEngines prints, per sample, each engine's parse time per
// page and quality next to plain pdftotext.
func BenchmarkPDFEngines(b *testing.B) {
	requireSamples(b)
	for _, s := range samples {
		tr, err := loadTruth(s.tex)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name+"/engine=pdf", func(b *testing.B) {
			e := &PDFEngine{}
			var doc Document
			start := time.Now()
			for b.Loop() {
				doc, err = e.Parse(context.Background(), Input{PDFPath: s.pdf}, nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			report(b, measure(tr, doc.Markdown, true), time.Since(start), doc.Pages)
		})
		for _, mode := range [][]string{nil, {"-raw"}} {
			b.Run(fmt.Sprintf("%s/engine=pdftotext%v", s.name, mode), func(b *testing.B) {
				var out string
				start := time.Now()
				for b.Loop() {
					out = plainText(b, s.pdf, mode...)
				}
				pages := 0
				for _, c := range out {
					if c == '\f' {
						pages++
					}
				}
				report(b, measure(tr, out, false), time.Since(start), pages)
			})
		}
	}
}

func report(b *testing.B, q quality, total time.Duration, pages int) {
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N)/float64(max(1, pages)), "ms/page")
	b.ReportMetric(q.wordRecall, "word-recall")
	b.ReportMetric(q.headingRecall, "section-recall")
	b.ReportMetric(q.order, "order")
	b.ReportMetric(q.paras, "para-order")
}

// BenchmarkLayout is the Go side alone (decode pdftotext's XHTML and
// rebuild the text), per page, without the pdftotext process.
func BenchmarkLayout(b *testing.B) {
	requireSamples(b)
	for _, s := range samples {
		out, err := exec.Command("pdftotext", "-q", "-enc", "UTF-8", "-bbox-layout", s.pdf, "-").Output()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name, func(b *testing.B) {
			pages := 0
			start := time.Now()
			for b.Loop() {
				ps, err := readBBox(strings.NewReader(string(out)), 0)
				if err != nil {
					b.Fatal(err)
				}
				pages = len(ps)
				layoutMarkdown(ps)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N)/float64(max(1, pages)), "ms/page")
			b.SetBytes(int64(len(out)))
		})
	}
}
