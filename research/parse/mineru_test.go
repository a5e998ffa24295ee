package parse

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// The fake MinerU follows mineru-api's POST /file_parse
// (opendatalab/MinerU, mineru/cli/fast_api.py): the PDFs as the multipart
// field "files", form flags such as return_md, and the JSON answer
// {"backend", "version", "results": {"<file stem>": {"md_content"}}};
// failures are {"error"} with 400/500, {"detail"} with 503 at capacity.
// testdata/mineru_file_parse.json holds Markdown in the shape MinerU's
// pipeline backend writes: every heading "# …", display math between "$$"
// lines, tables as one-line HTML, figures as ![](images/….jpg).
func fakeMinerU(t *testing.T, answer []byte, status int) (*httptest.Server, *[]byte, *http.Request) {
	t.Helper()
	var got []byte
	var seen http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, _, err := r.FormFile("files")
		if r.URL.Path != "/file_parse" || r.Method != http.MethodPost || err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"detail":[{"type":"missing","loc":["body","files"],"msg":"Field required"}]}`)
			return
		}
		got, _ = io.ReadAll(f)
		seen = *r
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &got, &seen
}

func TestMinerUEngine(t *testing.T) {
	answer, err := os.ReadFile("testdata/mineru_file_parse.json")
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "paper.pdf")
	os.WriteFile(pdf, []byte("%PDF-1.7 test"), 0o644)
	srv, got, seen := fakeMinerU(t, answer, http.StatusOK)
	e := &MinerUEngine{Web: fetch.New(fetch.Options{Allow: []string{srv.URL}}), URL: srv.URL + "/"}
	var steps []string
	doc, err := e.Parse(context.Background(), Input{PDFPath: pdf}, func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	if string(*got) != "%PDF-1.7 test" || doc.Engine != "mineru" || doc.Source != srv.URL+"/file_parse" {
		t.Fatalf("sent %q, engine %q, source %q", *got, doc.Engine, doc.Source)
	}
	if seen.FormValue("return_md") != "true" || seen.FormValue("lang_list") != "en" || len(steps) == 0 {
		t.Errorf("form return_md=%q lang_list=%q, steps %v", seen.FormValue("return_md"), seen.FormValue("lang_list"), steps)
	}
	checkGolden(t, "mineru_file_parse.md", doc.Markdown)
	for _, must := range []string{
		"# Cold gas in ultra-faint dwarf galaxies\n", "## Abstract\n", "## 1 Introduction\n", "## 2 Data\n", "### 2.1 Stacking\n",
		"gas rich ([Smith & Jones 2020](#ref-2)), and their slope $\\beta$ is steep. [Lee (2021)](#ref-1) stacked",
		"Smith et al. (2019) did not", // not in the list: left as text
		`$$A_{\lambda} = k(\lambda)\, E(B-V) \tag{1}$$`,
		"**Figure 1:** Stacked spectrum of the sample.",
		"| Name | z |\n| --- | --- |\n| GN-z11 | 10.6 |", `<td colspan="2">Band</td>`,
		"## Acknowledgements\n\nWe thank the referee.",
		"1. <span id=\"ref-1\"></span>Lee, C. 2021, Stacking spectra, [arXiv:2101.01234](<https://arxiv.org/abs/2101.01234>)",
		"2. <span id=\"ref-2\"></span>Smith, A., & Jones, B. 2020, ApJ, 900, 1, [doi:10.3847/1538-4357/abc123](<https://doi.org/10.3847/1538-4357/abc123>)",
	} {
		if !strings.Contains(doc.Markdown, must) {
			t.Errorf("missing %q in\n%s", must, doc.Markdown)
		}
	}
	if strings.Contains(doc.Markdown, "images/") {
		t.Error("an image link to a file we do not keep survived")
	}
}

func TestMinerUEngineErrors(t *testing.T) {
	ctx := context.Background()
	pdf := filepath.Join(t.TempDir(), "paper.pdf")
	os.WriteFile(pdf, []byte("%PDF-1.7 "+strings.Repeat("x", 2000)), 0o644)
	if _, err := (&MinerUEngine{}).Parse(ctx, Input{PDFPath: pdf}, nil); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("unconfigured: %v", err)
	}
	busy, _, _ := fakeMinerU(t, []byte(`{"detail":"Server is at maximum capacity: 2. Please try again later."}`), http.StatusServiceUnavailable)
	e := &MinerUEngine{Web: fetch.New(fetch.Options{Allow: []string{busy.URL}}), URL: busy.URL}
	if _, err := e.Parse(ctx, Input{PDFPath: pdf}, nil); err == nil || !strings.Contains(err.Error(), "HTTP 503: Server is at maximum capacity") {
		t.Errorf("busy server: %v", err)
	}
	if _, err := e.Parse(ctx, Input{}, nil); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("no PDF: %v", err)
	}
	broken, _, _ := fakeMinerU(t, []byte(`{"error":"Failed to process file: bad PDF"}`), http.StatusInternalServerError)
	e = &MinerUEngine{Web: fetch.New(fetch.Options{Allow: []string{broken.URL}}), URL: broken.URL}
	if _, err := e.Parse(ctx, Input{PDFPath: pdf}, nil); err == nil || !strings.Contains(err.Error(), "HTTP 500: Failed to process file: bad PDF") {
		t.Errorf("server error: %v", err)
	}
	noMD, _, _ := fakeMinerU(t, []byte(`{"backend":"pipeline","version":"2.5.4","results":{"paper":{}}}`), http.StatusOK)
	e = &MinerUEngine{Web: fetch.New(fetch.Options{Allow: []string{noMD.URL}}), URL: noMD.URL}
	if _, err := e.Parse(ctx, Input{PDFPath: pdf}, nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("no md_content: %v", err)
	}
	answer := readTestdata(t, "testdata/mineru_file_parse.json")
	ok, _, _ := fakeMinerU(t, answer, http.StatusOK)
	e = &MinerUEngine{Web: fetch.New(fetch.Options{Allow: []string{ok.URL}}), URL: ok.URL, Limits: Limits{MaxFileBytes: 100}}
	if _, err := e.Parse(ctx, Input{PDFPath: pdf}, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("PDF over the file limit: %v", err)
	}
	e.Limits = Limits{MaxTextBytes: 100}
	if _, err := e.Parse(ctx, Input{PDFPath: pdf}, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("answer over the text limit: %v", err)
	}
}

// TestMinerUNumericCitations: "[n]" labels in the list link "[n]" in the text.
func TestMinerUNumericCitations(t *testing.T) {
	md := normalizeMinerU("# T\n\n# 1 Introduction\n\nAs shown [1, 2] and [7].\n\n# References\n\n[1] A. Smith, ApJ 900, 1 (2020)\n\n[2] B. Lee, A&A 600, A1 (2017)\n")
	for _, must := range []string{
		`As shown \[[1](#ref-1), [2](#ref-2)\] and \[7\].`,
		"1. <span id=\"ref-1\"></span>A. Smith, ApJ 900, 1 (2020)", "2. <span id=\"ref-2\"></span>B. Lee",
	} {
		if !strings.Contains(md, must) {
			t.Errorf("missing %q in\n%s", must, md)
		}
	}
}

// FuzzMinerU: arbitrary answers never panic and the output stays bounded.
func FuzzMinerU(f *testing.F) {
	answer := readTestdata(f, "testdata/mineru_file_parse.json")
	f.Add(string(answer))
	f.Add(`{"results":{"x":{"md_content":"# A\n\n$$\nx\n\n<table><tr><td rowspan=\"99999\">1</td></tr>\n\n# References\n\n[1] Smith 2020\n\nSmith 2020 [1] $Smith 2020$"}}}`)
	f.Add(`{"results":{"x":{"md_content":"` + "```" + `\nunclosed"}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		md, err := MinerUToMarkdown([]byte(in), "x")
		if err == nil && len(md) > 8*len(in)+64 {
			t.Fatalf("%d bytes of Markdown from %d bytes", len(md), len(in))
		}
	})
}
