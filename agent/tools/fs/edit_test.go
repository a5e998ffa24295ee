package fs

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFileEdit(t *testing.T) {
	e := newTestEnv(t)
	const text = "alpha\nbeta\ngamma\nbeta\ndelta\n"
	cases := []struct {
		name    string
		file    string // initial content of workspace/e.txt
		args    EditArgs
		isErr   bool
		contain string // in the output
		after   string // file content afterwards
	}{
		{"unique", text, EditArgs{OldString: "gamma", NewString: "GAMMA"}, false,
			"Edited workspace/e.txt: replaced 1 occurrence (+1 −1 lines), starting at line 3.", "alpha\nbeta\nGAMMA\nbeta\ndelta\n"},
		{"twice", text, EditArgs{OldString: "beta", NewString: "B"}, true,
			"old_string occurs 2 times in workspace/e.txt (at lines 2, 4). Include more surrounding lines", text},
		{"made unique with context", text, EditArgs{OldString: "gamma\nbeta", NewString: "gamma\nBETA"}, false,
			"starting at line 3", "alpha\nbeta\ngamma\nBETA\ndelta\n"},
		{"replace all", text, EditArgs{OldString: "beta", NewString: "B", ReplaceAll: true}, false,
			"replaced 2 occurrences (+2 −2 lines), starting at line 2", "alpha\nB\ngamma\nB\ndelta\n"},
		{"nowhere", text, EditArgs{OldString: "epsilon", NewString: "x"}, true,
			"old_string was not found in workspace/e.txt. It must match the file exactly", text},
		{"line-number prefix", text, EditArgs{OldString: "     3\tgamma", NewString: "x"}, true,
			"line-number prefixes", text},
		{"whitespace differs", "  indented line\n", EditArgs{OldString: "indented  line", NewString: "x"}, true,
			"different spacing or indentation", "  indented line\n"},
		{"trailing whitespace differs", "value\n", EditArgs{OldString: "value \n\n", NewString: "x"}, true,
			"different leading or trailing whitespace", "value\n"},
		{"same strings", text, EditArgs{OldString: "beta", NewString: "beta"}, true, "the same", text},
		{"delete", text, EditArgs{OldString: "delta\n", NewString: ""}, false, "(+0 −1 lines)", "alpha\nbeta\ngamma\nbeta\n"},
		{"CRLF file, LF old_string", "one\r\ntwo\r\nthree\r\n", EditArgs{OldString: "one\ntwo", NewString: "1\n2"}, false,
			"replaced 1 occurrence", "1\r\n2\r\nthree\r\n"},
		{"binary", "a\x00b", EditArgs{OldString: "a", NewString: "b"}, true, "binary file", "a\x00b"},
	}
	path := filepath.Join(e.ws, "e.txt")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustWrite(t, path, c.file)
			args := c.args
			args.Path = "e.txt"
			res := e.call(t, "file_edit", args)
			if res.IsError != c.isErr || !strings.Contains(res.Output, c.contain) {
				t.Fatalf("result %+v, want error=%v containing %q", res, c.isErr, c.contain)
			}
			if got := readString(t, path); got != c.after {
				t.Fatalf("file %q, want %q", got, c.after)
			}
		})
	}
	mustWrite(t, path, text)
	res := ok(t, e.call(t, "file_edit", EditArgs{Path: "e.txt", OldString: "gamma", NewString: "G"}))
	if res.Metadata["diff"] != "--- a/workspace/e.txt\n+++ b/workspace/e.txt\n@@ -1,5 +1,5 @@\n alpha\n beta\n-gamma\n+G\n beta\n delta\n" ||
		res.Metadata["replacements"] != 1 {
		t.Fatalf("metadata %+v", res.Metadata)
	}
	for _, r := range []struct{ path, msg string }{
		{"missing.md", "does not exist; create it with file_write"},
		{"library/2401.01234.md", "read-only"},
		{"drafts", "does not exist"},
	} {
		res := e.call(t, "file_edit", EditArgs{Path: r.path, OldString: "a", NewString: "b"})
		if !res.IsError || !strings.Contains(res.Output, r.msg) {
			t.Errorf("edit %s: %+v, want %q", r.path, res, r.msg)
		}
	}
}
