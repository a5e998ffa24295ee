package parse

import "testing"

func TestSectionsAndSlice(t *testing.T) {
	md := "# T\n\nintro\n\n## 1 Introduction\n\na\n\n### 1.1 Aims\n\nb\n\n## 2 Method\n\nc é\n"
	secs := Sections(md)
	if len(secs) != 4 || secs[1].Title != "1 Introduction" || md[secs[1].Start:secs[1].End] != "## 1 Introduction\n\na\n\n### 1.1 Aims\n\nb\n\n" {
		t.Fatalf("sections %+v", secs)
	}
	for name, want := range map[string]string{"introduction": "1 Introduction", "METHOD": "2 Method", "aims": "1.1 Aims"} {
		if s, ok := FindSection(md, name); !ok || s.Title != want {
			t.Errorf("FindSection(%q) = %+v %v", name, s, ok)
		}
	}
	if _, ok := FindSection(md, "results"); ok {
		t.Error("found a missing section")
	}
	part, next := Slice(md, len(md)-2, 1) // inside "é"
	if part != "é" && part != "" || next > len(md) {
		t.Errorf("Slice = %q %d", part, next)
	}
	if part, next := Slice(md, 0, 0); part != md || next != len(md) {
		t.Errorf("Slice all = %d", next)
	}
}

func TestLinkIdentifiers(t *testing.T) {
	for in, want := range map[string]string{
		"Smith A., 2020, ApJ, 900, 1, doi:10.3847/1538-4357/abc123.":   "Smith A., 2020, ApJ, 900, 1, [doi:10.3847/1538-4357/abc123](<https://doi.org/10.3847/1538-4357/abc123>).",
		"Jones B., 2021, arXiv:2101.01234 [astro-ph]":                  "Jones B., 2021, [arXiv:2101.01234](<https://arxiv.org/abs/2101.01234>) \\[astro-ph\\]",
		"Old C., 1999, astro-ph/9901001, https://doi.org/10.1086/30_7": "Old C., 1999, astro-ph/9901001, [https://doi.org/10.1086/30\\_7](<https://doi.org/10.1086/30_7>)",
	} {
		if got := linkIdentifiers(in); got != want {
			t.Errorf("linkIdentifiers(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
