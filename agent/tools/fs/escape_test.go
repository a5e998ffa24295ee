package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEscapesRefusedByEveryTool tries every way out of the roots on every
// file tool: the result must be an error that leaks nothing, and nothing
// outside may change.
func TestEscapesRefusedByEveryTool(t *testing.T) {
	e := newTestEnv(t)
	otherUser := filepath.Join(e.data, "workspace", "u8", "notes.md")
	mustWrite(t, otherUser, "OTHER-USER-SECRET\n")
	mustWrite(t, filepath.Join(e.data, "tool-results", "sess-2", "call_9.txt"), "SESS2-SECRET\n")
	mustWrite(t, filepath.Join(e.data, "tool-results", "sess-1", "call_1.txt"), "own result\n")
	outRel, err := filepath.Rel(e.ws, e.outside)
	if err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "/", filepath.Join(e.ws, "rootlink"))
	mustSymlink(t, "..", filepath.Join(e.ws, "parentlink"))
	mustSymlink(t, "../..", filepath.Join(e.ws, "updata"))
	mustSymlink(t, e.outside, filepath.Join(e.ws, "outabs"))
	mustSymlink(t, outRel, filepath.Join(e.ws, "deep", "outrel"))
	mustSymlink(t, filepath.Join(e.data, "app.db"), filepath.Join(e.ws, "dbabs"))
	mustSymlink(t, "../../app.db", filepath.Join(e.ws, "dblink"))
	mustSymlink(t, "../../../"+filepath.Base(e.outside)+"/secret.txt", filepath.Join(e.lib, "paperlink.md"))
	viaRoot := "rootlink" + filepath.ToSlash(e.outside) + "/pwned.txt"

	paths := []string{
		"../../etc/passwd", "/etc/passwd", "sub/../../x", "~/x", "~", "..", "workspace/../app.db",
		"library/../../app.db", `..\..\x`, "C:/x", "a\x00b", "notes.md\x00.txt",
		"rootlink/etc/passwd", "rootlink", "workspace/rootlink/etc/passwd", viaRoot,
		"parentlink/u8/notes.md", "parentlink/u8/pwned.txt", "updata/app.db", "updata/pwned.txt",
		"outabs/secret.txt", "outabs", "outabs/pwned.txt", "deep/outrel/secret.txt", "deep/outrel/pwned.txt",
		"dbabs", "dblink", "library/paperlink.md",
		"tool-results/sess-2/call_9.txt", "tool-results/../tool-results/sess-2/call_9.txt",
	}
	// Arguments per tool for one path. A write aimed at /etc/passwd is
	// renamed to a harmless name: the tests may run as root.
	argsFor := map[string]func(p string) any{
		"read_file":  func(p string) any { return ReadArgs{Path: p} },
		"grep_files": func(p string) any { return GrepArgs{Pattern: "SECRET|root:", Path: p} },
		"glob_files": func(p string) any { return GlobArgs{Pattern: "**", Path: p} },
		"file_write": func(p string) any {
			return WriteArgs{Path: strings.ReplaceAll(p, "etc/passwd", "etc/astro-fs-test-must-not-exist"), Content: "pwned"}
		},
		"file_edit": func(p string) any { return EditArgs{Path: p, OldString: "SECRET", NewString: "pwned"} },
	}
	leaks := []string{outsideSecret, dbSecret, "OTHER-USER-SECRET", "SESS2-SECRET", "root:x:0", e.outside, e.data}
	for name, mk := range argsFor {
		for _, p := range paths {
			t.Run(name+"/"+p, func(t *testing.T) {
				res := e.call(t, name, mk(p))
				if !res.IsError {
					t.Fatalf("escape %q was not refused: %s", p, res.Output)
				}
				for _, leak := range leaks {
					if strings.Contains(res.Output, leak) && !strings.Contains(p, leak) { // echoing the input is fine
						t.Fatalf("output leaks %q: %s", leak, res.Output)
					}
				}
			})
		}
	}

	// Nothing outside changed.
	if got := readString(t, filepath.Join(e.outside, "secret.txt")); got != outsideSecret+"\n" {
		t.Errorf("outside secret changed: %q", got)
	}
	if entries, _ := os.ReadDir(e.outside); len(entries) != 1 {
		t.Errorf("outside dir gained files: %v", entries)
	}
	if got := readString(t, filepath.Join(e.data, "app.db")); got != dbSecret+"\n" {
		t.Errorf("database changed: %q", got)
	}
	if got := readString(t, otherUser); got != "OTHER-USER-SECRET\n" {
		t.Errorf("other user's file changed: %q", got)
	}
	for _, p := range []string{"/etc/astro-fs-test-must-not-exist", filepath.Join(e.data, "pwned.txt"),
		filepath.Join(e.data, "workspace", "u8", "pwned.txt"), filepath.Join(e.outside, "pwned.txt")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// TestWalksDoNotFollowLinks: a search of the whole workspace must not find
// what lies behind links that leave it.
func TestWalksDoNotFollowLinks(t *testing.T) {
	e := newTestEnv(t)
	mustSymlink(t, e.outside, filepath.Join(e.ws, "outabs"))
	mustSymlink(t, "/", filepath.Join(e.ws, "rootlink"))
	mustSymlink(t, "..", filepath.Join(e.ws, "parentlink"))
	mustSymlink(t, filepath.Join(e.outside, "secret.txt"), filepath.Join(e.ws, "filelink.txt"))
	res := ok(t, e.call(t, "grep_files", GrepArgs{Pattern: "SECRET|root:"}))
	if strings.Contains(res.Output, outsideSecret) || !strings.Contains(res.Output, "No matches") {
		t.Fatalf("grep followed a link: %s", res.Output)
	}
	if !strings.Contains(res.Output, "4 symbolic links not followed") {
		t.Errorf("grep does not report skipped links: %s", res.Output)
	}
	res = ok(t, e.call(t, "glob_files", GlobArgs{Pattern: "**"}))
	if res.Output != "workspace/notes.md\n[1 file]\n[4 symbolic links not followed]" {
		t.Fatalf("glob output: %q", res.Output)
	}
}

// TestLinksInsideARootWork: os.Root allows links that stay inside.
func TestLinksInsideARootWork(t *testing.T) {
	e := newTestEnv(t)
	mustSymlink(t, "notes.md", filepath.Join(e.ws, "inlink.md"))
	res := ok(t, e.call(t, "read_file", ReadArgs{Path: "inlink.md"}))
	if !strings.Contains(res.Output, "Hubble tension") {
		t.Fatalf("read through an inside link: %s", res.Output)
	}
	// Writing through a link is refused rather than replacing the link.
	res = e.call(t, "file_write", WriteArgs{Path: "inlink.md", Content: "x"})
	if !res.IsError || !strings.Contains(res.Output, "symbolic link") {
		t.Fatalf("write through a link: %+v", res)
	}
}
