package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

func numbered(from, to int, text func(int) string) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i, text(i))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestReadFile(t *testing.T) {
	e := newTestEnv(t)
	var long strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	mustWrite(t, filepath.Join(e.ws, "long.txt"), long.String())
	mustWrite(t, filepath.Join(e.ws, "crlf.txt"), "a\r\nb\r\nno newline")
	mustWrite(t, filepath.Join(e.ws, "empty.txt"), "")
	mustWrite(t, filepath.Join(e.ws, "wide.txt"), strings.Repeat("é", 2500)+"\nnext\n")
	mustWrite(t, filepath.Join(e.ws, "nul.bin"), "text\x00more")
	mustWrite(t, filepath.Join(e.ws, "latin1.txt"), "caf\xe9\n")
	mustWrite(t, filepath.Join(e.ws, "image.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	// A multi-byte rune split by the 8 KB sniff boundary is still text.
	mustWrite(t, filepath.Join(e.ws, "split.txt"), strings.Repeat(strings.Repeat("a", 99)+"\n", 81)+strings.Repeat("a", sniffLen-1-8100)+"é\n")
	line := func(i int) string { return fmt.Sprintf("line %d", i) }

	cases := []struct {
		name    string
		args    ReadArgs
		want    string // exact output, or
		contain string // a fragment of it
		isErr   bool
	}{
		{"whole", ReadArgs{Path: "workspace/long.txt"}, numbered(1, 30, line), "", false},
		{"bare path means workspace", ReadArgs{Path: "long.txt", Offset: 29}, numbered(29, 30, line), "", false},
		{"offset zero is one", ReadArgs{Path: "long.txt", Offset: 0, Limit: 2}, numbered(1, 2, line) +
			"\n[Showing lines 1–2 of workspace/long.txt (231 B). More follows: read_file with offset=3.]", "", false},
		{"window", ReadArgs{Path: "long.txt", Offset: 10, Limit: 3}, "", "    10\tline 10\n    11\tline 11\n    12\tline 12\n[Showing lines 10–12", false},
		{"past the end", ReadArgs{Path: "long.txt", Offset: 31}, "", "offset 31 is past the end of workspace/long.txt, which has 30 lines", true},
		{"crlf and no final newline", ReadArgs{Path: "crlf.txt"}, "     1\ta\n     2\tb\n     3\tno newline", "", false},
		{"empty", ReadArgs{Path: "empty.txt"}, "[workspace/empty.txt is empty]", "", false},
		{"long line cut", ReadArgs{Path: "wide.txt"}, "", strings.Repeat("é", 2000) + "… [line cut, 4.9 KB in full]\n     2\tnext", false},
		{"split rune at sniff boundary", ReadArgs{Path: "split.txt"}, "", "aé", false},
		{"NUL is binary", ReadArgs{Path: "nul.bin"}, "", "is a binary file", true},
		{"invalid UTF-8 is binary", ReadArgs{Path: "latin1.txt"}, "", "not valid UTF-8 text", true},
		{"png", ReadArgs{Path: "image.png"}, "", "image/png", true},
		{"directory", ReadArgs{Path: "library"}, "", "library is a directory; list it with glob_files", true},
		{"missing", ReadArgs{Path: "nope.md"}, "", "workspace/nope.md does not exist; find files with glob_files", true},
		{"library", ReadArgs{Path: "library/2401.01234.md"}, "     1\t# Paper\n     2\tThe Hubble constant is 67.4", "", false},
		{"skills", ReadArgs{Path: "skills/photometry/SKILL.md", Offset: 4}, "     4\tDo photometry.", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "read_file", c.args)
			if res.IsError != c.isErr {
				t.Fatalf("IsError = %v: %s", res.IsError, res.Output)
			}
			if c.want != "" && res.Output != c.want {
				t.Fatalf("output\n%q\nwant\n%q", res.Output, c.want)
			}
			if c.contain != "" && !strings.Contains(res.Output, c.contain) {
				t.Fatalf("output\n%q\nwant it to contain\n%q", res.Output, c.contain)
			}
		})
	}
}

func TestReadFileOutputCap(t *testing.T) {
	e := newTestEnv(t)
	row := strings.Repeat("x", 199)
	mustWrite(t, filepath.Join(e.ws, "big.txt"), strings.Repeat(row+"\n", 5000)) // ~1 MB
	res := ok(t, e.call(t, "read_file", ReadArgs{Path: "big.txt", Limit: 5000}))
	if len(res.Output) > MaxReadOutput+200 {
		t.Fatalf("output %d bytes, cap %d", len(res.Output), MaxReadOutput)
	}
	last := res.Metadata["last_line"].(int)
	if !strings.Contains(res.Output, fmt.Sprintf("offset=%d.]", last+1)) {
		t.Fatalf("no continuation hint at the end: %q", res.Output[len(res.Output)-200:])
	}
	next := ok(t, e.call(t, "read_file", ReadArgs{Path: "big.txt", Offset: last + 1, Limit: 5}))
	if !strings.HasPrefix(next.Output, fmt.Sprintf("%6d\t%s", last+1, row)) {
		t.Fatalf("continuation starts with %q", next.Output[:40])
	}
}

// TestReadFileHuge: 100 MB files (sparse, never in memory) are refused as
// binary or read with bounded output.
func TestReadFileHuge(t *testing.T) {
	e := newTestEnv(t)
	sparse := filepath.Join(e.ws, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res := e.call(t, "read_file", ReadArgs{Path: "sparse.bin"})
	if !res.IsError || !strings.Contains(res.Output, "binary file") || !strings.Contains(res.Output, "100.0 MB") {
		t.Fatalf("sparse file: %+v", res)
	}
	// Text first, then 100 MB of NUL bytes on one giant last line.
	head := filepath.Join(e.ws, "head.txt")
	f, err = os.Create(head)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, strings.Repeat("a text line\n", 1000))
	if err := f.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	res = ok(t, e.call(t, "read_file", ReadArgs{Path: "head.txt", Limit: 3}))
	if !strings.HasPrefix(res.Output, "     1\ta text line\n") || !strings.Contains(res.Output, "offset=4") {
		t.Fatalf("head of a huge file: %q", res.Output)
	}
	res = ok(t, e.call(t, "read_file", ReadArgs{Path: "head.txt", Offset: 1001}))
	if len(res.Output) > 10_000 || !strings.Contains(res.Output, "[line cut, 100.0 MB in full]") {
		t.Fatalf("giant line: %d bytes, tail %q", len(res.Output), res.Output[max(0, len(res.Output)-80):])
	}
}

func TestReadFileUnchangedStub(t *testing.T) {
	e := newTestEnv(t)
	first := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"}))
	if !strings.Contains(first.Output, "Hubble tension") {
		t.Fatalf("first read: %q", first.Output)
	}
	stub := ok(t, e.call(t, "read_file", ReadArgs{Path: "workspace/notes.md"}))
	if stub.Output != "[workspace/notes.md is unchanged since your last read of lines 1–3; content omitted, use the earlier result.]" ||
		stub.Metadata["unchanged"] != true {
		t.Fatalf("second read: %q", stub.Output)
	}
	// Another range is shown in full.
	if res := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md", Offset: 2})); strings.Contains(res.Output, "unchanged") {
		t.Fatalf("other range: %q", res.Output)
	}
	ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"}))
	// A sub-agent has its own context, so it gets the text.
	sub := &tools.Context{SessionID: "sess-1", UserID: 7, AgentName: "sub_1"}
	if res := ok(t, e.callAs(t, sub, "read_file", ReadArgs{Path: "notes.md"})); strings.Contains(res.Output, "unchanged") {
		t.Fatalf("sub-agent got a stub: %q", res.Output)
	}
	// A change on disk (same size, new time) shows the text again.
	ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"}))
	mustWrite(t, filepath.Join(e.ws, "notes.md"), "# Notes\nHubble TENSION\nline three\n")
	os.Chtimes(filepath.Join(e.ws, "notes.md"), time.Now(), time.Now().Add(time.Second))
	if res := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"})); !strings.Contains(res.Output, "TENSION") {
		t.Fatalf("after a change: %q", res.Output)
	}
	// Forget (compaction) shows it again.
	e.cache.Forget("sess-1")
	if res := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"})); strings.Contains(res.Output, "unchanged") {
		t.Fatalf("after Forget: %q", res.Output)
	}
	// A write through the tools invalidates, even within the mtime granularity.
	ok(t, e.call(t, "file_edit", EditArgs{Path: "notes.md", OldString: "TENSION", NewString: "tension"}))
	if res := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"})); !strings.Contains(res.Output, "Hubble tension") {
		t.Fatalf("after an edit: %q", res.Output)
	}
	snap := e.cache.Snapshot("sess-1", 10)
	if len(snap) != 1 || snap[0].Path != "workspace/notes.md" || snap[0].Content != "     1\t# N" {
		t.Fatalf("snapshot: %+v", snap)
	}
}

func TestToolResultsOwnSessionOnly(t *testing.T) {
	e := newTestEnv(t)
	mustWrite(t, filepath.Join(e.data, "tool-results", "sess-1", "call_1.txt"), "own result line\n")
	mustWrite(t, filepath.Join(e.data, "tool-results", "sess-2", "call_9.txt"), "SESS2-SECRET\n")
	for _, p := range []string{"tool-results/sess-1/call_1.txt", "tool-results/call_1.txt"} {
		res := ok(t, e.call(t, "read_file", ReadArgs{Path: p}))
		if res.Output != "     1\town result line" {
			t.Fatalf("%s: %q", p, res.Output)
		}
		e.cache.Forget("sess-1")
	}
	res := ok(t, e.call(t, "grep_files", GrepArgs{Pattern: "result|SECRET", Path: "tool-results"}))
	if !strings.HasPrefix(res.Output, "tool-results/sess-1/call_1.txt:1: own result line\n") || strings.Contains(res.Output, "SECRET") {
		t.Fatalf("grep tool-results: %q", res.Output)
	}
	res = ok(t, e.call(t, "glob_files", GlobArgs{Pattern: "tool-results/**"}))
	if res.Output != "tool-results/sess-1/call_1.txt\n[1 file]" {
		t.Fatalf("glob tool-results: %q", res.Output)
	}
	res = e.call(t, "file_write", WriteArgs{Path: "tool-results/call_1.txt", Content: "x"})
	if !res.IsError || !strings.Contains(res.Output, "read-only") {
		t.Fatalf("write into tool-results: %+v", res)
	}
	// A session id that is not plain maps to its hashed directory.
	odd := &tools.Context{SessionID: "odd/../id", UserID: 7}
	mustWrite(t, filepath.Join(e.data, "tool-results", SessionDirName(odd.SessionID), "c.txt"), "hashed\n")
	res = ok(t, e.callAs(t, odd, "read_file", ReadArgs{Path: "tool-results/c.txt"}))
	if res.Output != "     1\thashed" {
		t.Fatalf("hashed session: %q", res.Output)
	}
	res = e.callAs(t, &tools.Context{UserID: 7}, "read_file", ReadArgs{Path: "tool-results/c.txt"})
	if !res.IsError {
		t.Fatalf("no session: %+v", res)
	}
}

func TestWorkspacePerUser(t *testing.T) {
	e := newTestEnv(t)
	other := &tools.Context{SessionID: "sess-9", UserID: 8}
	ok(t, e.callAs(t, other, "file_write", WriteArgs{Path: "notes.md", Content: "user 8's notes\n"}))
	if got := readString(t, filepath.Join(e.data, "workspace", "u8", "notes.md")); got != "user 8's notes\n" {
		t.Fatalf("user 8 wrote %q", got)
	}
	res := ok(t, e.call(t, "read_file", ReadArgs{Path: "notes.md"}))
	if strings.Contains(res.Output, "user 8") {
		t.Fatalf("user 7 sees user 8's file: %q", res.Output)
	}
}
