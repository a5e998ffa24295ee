//go:build unix

package fs

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFIFOIsNeverOpened: a named pipe would block a read forever.
func TestFIFOIsNeverOpened(t *testing.T) {
	e := newTestEnv(t)
	if err := syscall.Mkfifo(filepath.Join(e.ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := e.call(t, "read_file", ReadArgs{Path: "pipe"}); !res.IsError || res.Output != "workspace/pipe is not a regular file." {
		t.Fatalf("read: %+v", res)
	}
	if res := ok(t, e.call(t, "grep_files", GrepArgs{Pattern: "x"})); !strings.Contains(res.Output, "1 file searched") {
		t.Fatalf("grep: %s", res.Output)
	}
	if res := ok(t, e.call(t, "glob_files", GlobArgs{Pattern: "*"})); res.Output != "workspace/notes.md\n[1 file]" {
		t.Fatalf("glob: %s", res.Output)
	}
	if res := e.call(t, "file_write", WriteArgs{Path: "pipe", Content: "x"}); !res.IsError || !strings.Contains(res.Output, "not a regular file") {
		t.Fatalf("write: %+v", res)
	}
	if res := e.call(t, "file_edit", EditArgs{Path: "pipe", OldString: "a", NewString: "b"}); !res.IsError || !strings.Contains(res.Output, "not a regular file") {
		t.Fatalf("edit: %+v", res)
	}
}
