package fs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// benchTree writes files files of ~1 KB under dir/workspace, 100 per
// directory; every 250th holds the needle "magnetar".
func benchTree(b *testing.B, dir string, files int) {
	b.Helper()
	body := strings.Repeat("The rotation curve of the galaxy flattens beyond ten kiloparsecs.\n", 15)
	for i := range files {
		sub := filepath.Join(dir, "workspace", fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		text := body
		if i%250 == 0 {
			text += "A magnetar flare was observed.\n"
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%05d.md", i)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCall(b *testing.B, tool tools.Tool, tc *tools.Context, args any) tools.Result {
	raw, _ := json.Marshal(args)
	res, err := tool.Execute(context.Background(), tc, raw)
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %s", tool.Name(), err, res.Output)
	}
	return res
}

// BenchmarkGrepFiles50k compares grep_files with grep -r over the same
// 50,000-file tree in one run and reports both and their ratio.
func BenchmarkGrepFiles50k(b *testing.B) {
	grepBin, err := exec.LookPath("grep")
	if err != nil {
		b.Fatal("grep not installed: the comparison needs it (Debian package grep)")
	}
	dir := b.TempDir()
	start := time.Now()
	benchTree(b, dir, 50_000)
	b.Logf("tree of 50,000 files written in %v", time.Since(start).Round(time.Millisecond))
	roots, err := OpenRoots(Options{DataDir: dir, SharedWorkspace: true})
	if err != nil {
		b.Fatal(err)
	}
	defer roots.Close()
	tool := GrepFiles(roots)
	tc := &tools.Context{SessionID: "bench"}
	args := GrepArgs{Pattern: "magnetar", MaxResults: 1000}
	ours := func() int {
		res := benchCall(b, tool, tc, args)
		return res.Metadata["matches"].(int)
	}
	theirs := func() int {
		out, err := exec.Command(grepBin, "-rn", "-E", "magnetar", filepath.Join(dir, "workspace")).Output()
		if err != nil {
			b.Fatal(err)
		}
		return bytes.Count(out, []byte("\n"))
	}
	if o, g := ours(), theirs(); o != 200 || g != 200 { // also warms the page cache
		b.Fatalf("matches: grep_files %d, grep -r %d, want 200", o, g)
	}
	var oursT, grepT time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		ours()
		t1 := time.Now()
		theirs()
		oursT += t1.Sub(t0)
		grepT += time.Since(t1)
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(oursT), "grep_files-ms/op")
	b.ReportMetric(ms(grepT), "grep-r-ms/op")
	b.ReportMetric(float64(oursT)/float64(grepT), "ratio")
	b.Logf("50,000 files: grep_files %.1f ms, grep -r %.1f ms, ratio %.2f (%d runs)", ms(oursT), ms(grepT), float64(oursT)/float64(grepT), n)
}

// BenchmarkReadFile10MB reads a 10 MB text file: the first page and a
// page at the end (which scans the whole file).
func BenchmarkReadFile10MB(b *testing.B) {
	dir := b.TempDir()
	line := strings.Repeat("x", 99) + "\n"
	lines := (10 << 20) / len(line)
	mustWrite(b, filepath.Join(dir, "workspace", "big.txt"), strings.Repeat(line, lines))
	roots, err := OpenRoots(Options{DataDir: dir, SharedWorkspace: true})
	if err != nil {
		b.Fatal(err)
	}
	defer roots.Close()
	tool := ReadFile(roots, nil) // no cache: every read renders
	tc := &tools.Context{SessionID: "bench"}
	for _, c := range []struct {
		name   string
		offset int
	}{{"head", 1}, {"tail", lines - DefaultReadLines + 1}} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "tail" {
				b.SetBytes(10 << 20) // the whole file is scanned
			}
			b.ReportAllocs()
			for b.Loop() {
				benchCall(b, tool, tc, ReadArgs{Path: "big.txt", Offset: c.offset})
			}
		})
	}
}
