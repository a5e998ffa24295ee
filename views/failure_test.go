package views

import (
	"strings"
	"testing"
)

func TestFailures(t *testing.T) {
	tests := []struct {
		name        string
		f           Failure
		summary     string
		detail      string
		detailLacks string
	}{
		{"resolver address removed", DownloadFailure(`arxiv: Get "https://arxiv.org/pdf/2401.1": dial tcp: lookup arxiv.org on 10.96.0.10:53: no such host`),
			"could not be reached", "lookup arxiv.org on [address]", "10.96.0.10"},
		{"IPv6 address removed", DownloadFailure(`dial tcp [fd00::1]:443: connect: connection refused`),
			"could not be reached", "dial tcp [address]", "fd00"},
		{"no source", DownloadFailure("arxiv: HTTP 404; ads: HTTP 404"), "No source", "arxiv: HTTP 404; ads: HTTP 404", ""},
		{"one source answered, another unreachable", DownloadFailure("no source gave a PDF: arXiv: HTTP 404; publisher (DOI): fetch: GET https://doi.org/10.3847/x: resolve doi.org: lookup doi.org on 10.255.255.53:53: no such host"),
			"No source", "lookup doi.org on [address]", "10.255.255.53"},
		{"cancelled download", DownloadFailure("cancelled"), "stopped before it finished", "cancelled", ""},
		{"repeated parse failure said once", ParseFailure("parse failed: pdf: parse failed: pdftotext: exit status 1"),
			"could not be converted", "pdf: parse failed: pdftotext: exit status 1", ""},
		{"nothing to parse", ParseFailure("no stored PDF and no arXiv HTML version: download the PDF first"),
			"download the PDF first", "no stored PDF", ""},
	}
	for _, tt := range tests {
		if !strings.Contains(tt.f.Summary, tt.summary) || strings.Count(tt.f.Summary, ".")+strings.Count(tt.f.Summary, ";") > 2 {
			t.Errorf("%s: summary %q, want one sentence with %q", tt.name, tt.f.Summary, tt.summary)
		}
		if tt.f.Detail != tt.detail && !strings.Contains(tt.f.Detail, tt.detail) {
			t.Errorf("%s: detail %q, want %q", tt.name, tt.f.Detail, tt.detail)
		}
		if tt.detailLacks != "" && strings.Contains(tt.f.Detail, tt.detailLacks) {
			t.Errorf("%s: detail %q still shows %q", tt.name, tt.f.Detail, tt.detailLacks)
		}
		if strings.Count(strings.ToLower(tt.f.Detail), "parse failed") > 1 {
			t.Errorf("%s: detail %q repeats itself", tt.name, tt.f.Detail)
		}
	}
}
