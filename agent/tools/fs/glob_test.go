package fs

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func mustRegexp(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	return regexp.MustCompile(s)
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"**", "a/b/c.md", true},
		{"**/*.md", "c.md", true},
		{"**/*.md", "a/b/c.md", true},
		{"**/*.md", "a/b/c.tex", false},
		{"*.md", "c.md", true},
		{"*.md", "a/c.md", false},
		{"a/**/c.md", "a/c.md", true},
		{"a/**/c.md", "a/x/y/c.md", true},
		{"a/**/c.md", "b/x/c.md", false},
		{"a/**", "a/x/y", true},
		{"**/b/**", "a/b/c", true},
		{"**/b/**", "a/c", false},
		{"*.{md,tex}", "x.tex", true},
		{"*.{md,tex}", "x.txt", false},
		{"{a,b}/*.md", "b/x.md", true},
		{"x**y.md", "xzzy.md", true},
		{"?.md", "ab.md", false},
		{"[ab].md", "b.md", true},
		{"**/**/**/**/**/**/**/**/**/**/**/**/z", strings.Repeat("a/", 40) + "y", false},
	}
	for _, c := range cases {
		g, err := compileGlob(c.pattern, false)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", c.pattern, err)
		}
		if got := g.match(c.name); got != c.want {
			t.Errorf("match(%q, %q) = %v", c.pattern, c.name, got)
		}
	}
	for _, bad := range []string{"", "[a", "a/../b", "/abs/*", "~/x", "{a,b", "a}", "{a,{b}}", `a\*`,
		strings.Repeat("{a,b}", 7)} {
		if _, err := compileGlob(bad, false); err == nil {
			t.Errorf("compileGlob(%q) accepted", bad)
		}
	}
}

func TestGlobFiles(t *testing.T) {
	e := newTestEnv(t)
	for _, p := range []string{"drafts/b.md", "drafts/a.tex", "drafts/2024/c.md", "drafts/2024/deep/d.md", ".git/x.md", "z.txt"} {
		mustWrite(t, filepath.Join(e.ws, p), "x\n")
	}
	mustWrite(t, filepath.Join(e.lib, "sub", "2402.00001.md"), "x\n")
	cases := []struct {
		name  string
		args  GlobArgs
		want  string
		isErr bool
	}{
		{"recursive md", GlobArgs{Pattern: "**/*.md"}, "workspace/drafts/2024/c.md\nworkspace/drafts/2024/deep/d.md\n" +
			"workspace/drafts/b.md\nworkspace/notes.md\n[4 files]", false},
		{"top level only", GlobArgs{Pattern: "*.md"}, "workspace/notes.md\n[1 file]", false},
		{"literal prefix", GlobArgs{Pattern: "drafts/2024/*.md"}, "workspace/drafts/2024/c.md\n[1 file]", false},
		{"root in pattern", GlobArgs{Pattern: "library/**/*.md"}, "library/2401.01234.md\nlibrary/sub/2402.00001.md\n[2 files]", false},
		{"path and braces", GlobArgs{Pattern: "*.{md,tex}", Path: "workspace/drafts"}, "workspace/drafts/a.tex\nworkspace/drafts/b.md\n[2 files]", false},
		{"cap", GlobArgs{Pattern: "**", MaxResults: 2}, "workspace/drafts/2024/c.md\nworkspace/drafts/2024/deep/d.md\n" +
			"[2 of 6 files shown, sorted by path; narrow the pattern or path to see the rest]", false},
		{"skills", GlobArgs{Pattern: "**/SKILL.md", Path: "skills"}, "skills/photometry/SKILL.md\n[1 file]", false},
		{"no match", GlobArgs{Pattern: "*.fits"}, "No files match \"*.fits\" in workspace.", false},
		{"missing implied dir", GlobArgs{Pattern: "nope/*.md"}, "No files match \"nope/*.md\": workspace/nope does not exist.", false},
		{"dotdot", GlobArgs{Pattern: "../*"}, "", true},
		{"missing path", GlobArgs{Pattern: "*", Path: "nope"}, "", true},
		{"home in pattern", GlobArgs{Pattern: "~/x/*.md"}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "glob_files", c.args)
			if res.IsError != c.isErr {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			if !c.isErr && res.Output != c.want {
				t.Fatalf("output\n%s\nwant\n%s", res.Output, c.want)
			}
		})
	}
}
