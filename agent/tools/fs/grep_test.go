package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGrepFiles(t *testing.T) {
	e := newTestEnv(t)
	mustWrite(t, filepath.Join(e.ws, "drafts", "intro.md"), "Intro\nThe Hubble constant H0\nhubble again\n")
	mustWrite(t, filepath.Join(e.ws, "drafts", "paper.tex"), "\\section{Hubble}\r\n")
	mustWrite(t, filepath.Join(e.ws, "drafts", "deep", "x.tex"), "Hubble deep\n")
	mustWrite(t, filepath.Join(e.ws, "data.bin"), "Hubble\x00binary")
	mustWrite(t, filepath.Join(e.ws, ".git", "HEAD"), "Hubble in git\n")
	mustWrite(t, filepath.Join(e.ws, "wide.txt"), "Hubble "+strings.Repeat("w", 500)+"\n")
	big := filepath.Join(e.ws, "big.txt")
	mustWrite(t, big, "Hubble big\n")
	if err := os.Truncate(big, MaxGrepFileSize+1); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  GrepArgs
		want  string
		isErr bool
	}{
		{"all of workspace", GrepArgs{Pattern: "Hubble"},
			"workspace/drafts/deep/x.tex:1: Hubble deep\n" +
				"workspace/drafts/intro.md:2: The Hubble constant H0\n" +
				"workspace/drafts/paper.tex:1: \\section{Hubble}\n" +
				"workspace/notes.md:2: Hubble tension\n" +
				"workspace/wide.txt:1: Hubble " + strings.Repeat("w", 293) + "…\n" +
				"[5 matching lines in 5 files; 5 files searched]\n" +
				"[1 binary file skipped; 1 file over 10 MB skipped]", false},
		{"case insensitive in a dir", GrepArgs{Pattern: "hubble", Path: "workspace/drafts/intro.md", CaseInsensitive: true},
			"workspace/drafts/intro.md:2: The Hubble constant H0\nworkspace/drafts/intro.md:3: hubble again\n" +
				"[2 matching lines in 1 file; 1 file searched]", false},
		{"base-name glob", GrepArgs{Pattern: "Hubble", Path: "drafts", Glob: "*.tex"},
			"workspace/drafts/deep/x.tex:1: Hubble deep\nworkspace/drafts/paper.tex:1: \\section{Hubble}\n" +
				"[2 matching lines in 2 files; 2 files searched]", false},
		{"path glob with **", GrepArgs{Pattern: "Hubble", Glob: "drafts/**/*.{md,tex}"},
			"workspace/drafts/deep/x.tex:1: Hubble deep\nworkspace/drafts/intro.md:2: The Hubble constant H0\n" +
				"workspace/drafts/paper.tex:1: \\section{Hubble}\n[3 matching lines in 3 files; 3 files searched]", false},
		{"anchors per line", GrepArgs{Pattern: "^hubble|H0$", Path: "drafts"},
			"workspace/drafts/intro.md:2: The Hubble constant H0\nworkspace/drafts/intro.md:3: hubble again\n" +
				"[2 matching lines in 1 file; 3 files searched]", false},
		{"cap", GrepArgs{Pattern: "Hubble", MaxResults: 2},
			"workspace/drafts/deep/x.tex:1: Hubble deep\nworkspace/drafts/intro.md:2: The Hubble constant H0\n" +
				"[Stopped at 2 matching lines; narrow the pattern, path or glob, or raise max_results.]\n" +
				"[1 binary file skipped; 1 file over 10 MB skipped]", false},
		{"library", GrepArgs{Pattern: `\d+\.\d`, Path: "library"},
			"library/2401.01234.md:2: The Hubble constant is 67.4\n[1 matching line in 1 file; 1 file searched]", false},
		{"no match", GrepArgs{Pattern: "quasar", Path: "library"}, "No matches for \"quasar\" in library (1 file searched).", false},
		{"bad regex", GrepArgs{Pattern: "(?<=x)y"}, "", true},
		{"bad glob", GrepArgs{Pattern: "x", Glob: "[a"}, "", true},
		{"missing dir", GrepArgs{Pattern: "x", Path: "nope"}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "grep_files", c.args)
			if res.IsError != c.isErr {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			if !c.isErr && res.Output != c.want {
				t.Fatalf("output\n%s\nwant\n%s", res.Output, c.want)
			}
		})
	}
	if res := e.call(t, "grep_files", GrepArgs{Pattern: "(?<=x)y"}); !strings.Contains(res.Output, "RE2") {
		t.Errorf("bad regex message: %s", res.Output)
	}
}

func TestMatchLines(t *testing.T) {
	re := mustRegexp(t, "(?m)x*")
	got := matchLines(re, []byte("a\nb\n"), "f", 10)
	if strings.Join(got, "|") != "f:1: a|f:2: b" {
		t.Fatalf("empty matches: %q", got)
	}
	if got := matchLines(mustRegexp(t, "(?m)a\\nb"), []byte("z\na\nb\n"), "f", 10); strings.Join(got, "|") != "f:2: a" {
		t.Fatalf("multi-line match: %q", got)
	}
	many := strings.Repeat("hit\n", 10_000)
	if got := matchLines(mustRegexp(t, "(?m)hit"), []byte(many), "f", 3); len(got) != 3 || got[2] != "f:3: hit" {
		t.Fatalf("limit: %q", got)
	}
	if got := matchLines(mustRegexp(t, "(?m)^"), []byte(""), "f", 3); len(got) != 0 {
		t.Fatalf("empty file: %q", got)
	}
}

func TestGrepManyFilesInOrder(t *testing.T) {
	e := newTestEnv(t)
	for i := range 1500 { // several parallel batches
		mustWrite(t, filepath.Join(e.ws, "many", fmt.Sprintf("f%04d.txt", i)), fmt.Sprintf("needle %d\n", i))
	}
	res := ok(t, e.call(t, "grep_files", GrepArgs{Pattern: "needle", Path: "many", MaxResults: 1000}))
	lines := strings.Split(res.Output, "\n")
	if lines[0] != "workspace/many/f0000.txt:1: needle 0" || lines[999] != "workspace/many/f0999.txt:1: needle 999" {
		t.Fatalf("order: %q ... %q", lines[0], lines[999])
	}
}
