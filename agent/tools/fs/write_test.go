package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileWrite(t *testing.T) {
	e := newTestEnv(t)
	res := ok(t, e.call(t, "file_write", WriteArgs{Path: "drafts/2024/summary.md", Content: "one\ntwo\n"}))
	if res.Output != "Created workspace/drafts/2024/summary.md (8 bytes, 2 lines)." || res.Metadata["created"] != true {
		t.Fatalf("create: %+v", res)
	}
	target := filepath.Join(e.ws, "drafts", "2024", "summary.md")
	if got := readString(t, target); got != "one\ntwo\n" {
		t.Fatalf("content %q", got)
	}
	os.Chmod(target, 0o600)
	res = ok(t, e.call(t, "file_write", WriteArgs{Path: "workspace/drafts/2024/summary.md", Content: "one\nTWO\n"}))
	if !strings.HasPrefix(res.Output, "Overwrote") || res.Metadata["diff"] != "--- a/workspace/drafts/2024/summary.md\n+++ b/workspace/drafts/2024/summary.md\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n" ||
		res.Metadata["additions"] != 1 || res.Metadata["deletions"] != 1 {
		t.Fatalf("overwrite: %+v", res)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("permissions not kept: %v", fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(target))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	ok(t, e.call(t, "file_write", WriteArgs{Path: "empty.md", Content: ""}))
	if fi, err := os.Stat(filepath.Join(e.ws, "empty.md")); err != nil || fi.Size() != 0 {
		t.Fatalf("empty write: %v", err)
	}

	refused := []struct{ path, msg string }{
		{"library/new.md", "library/ is read-only"},
		{"library/2401.01234.md", "library/ is read-only"},
		{"skills/photometry/SKILL.md", "skills/ is read-only"},
		{"tool-results/x.txt", "tool-results/ is read-only"},
		{"workspace", "is a directory"},
		{"drafts", "is a directory"},
		{"notes.md/child.md", "not a directory"},
		{"drafts/.x.tmp-abc", "reserved"},
	}
	for _, r := range refused {
		res := e.call(t, "file_write", WriteArgs{Path: r.path, Content: "x"})
		if !res.IsError || !strings.Contains(res.Output, r.msg) {
			t.Errorf("write %s: %+v, want %q", r.path, res, r.msg)
		}
	}
	if got := readString(t, filepath.Join(e.lib, "2401.01234.md")); !strings.Contains(got, "67.4") {
		t.Errorf("library file changed: %q", got)
	}
}

func TestFileWriteSkillsWritable(t *testing.T) {
	data, skills := t.TempDir(), t.TempDir()
	r, err := OpenRoots(Options{DataDir: data, SkillsDir: skills, SkillsWritable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e := &testEnv{tc: newTestEnv(t).tc}
	e.tools = map[string]toolT{"file_write": FileWrite(r, nil)}
	ok(t, e.call(t, "file_write", WriteArgs{Path: "skills/new/SKILL.md", Content: "---\nname: new\n---\n"}))
	if got := readString(t, filepath.Join(skills, "new", "SKILL.md")); !strings.HasPrefix(got, "---") {
		t.Fatalf("skill content %q", got)
	}
}
