package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPersistLargeOutput(t *testing.T) {
	dir := t.TempDir()
	out, path, err := persistLargeOutput(dir, "sess-1", "call_1", "short", 10)
	if err != nil || out != "short" || path != "" {
		t.Fatalf("small output changed: %q %q %v", out, path, err)
	}
	big := strings.Repeat("α", 5000)
	stub, path, err := persistLargeOutput(dir, "sess-1", "call_1", big, 4000)
	if err != nil {
		t.Fatal(err)
	}
	if path != "tool-results/sess-1/call_1.txt" || !strings.HasPrefix(stub, "<persisted-output") || !strings.Contains(stub, "5000 characters") {
		t.Fatalf("stub %q path %q", stub[:120], path)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, path)); string(b) != big {
		t.Fatal("file does not hold the full output")
	}
	// Idempotent: a second write keeps the first file.
	if _, _, err := persistLargeOutput(dir, "sess-1", "call_1", strings.Repeat("b", 5000), 4000); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, path)); string(b) != big {
		t.Fatal("existing file was overwritten")
	}
}

func FuzzOutputFileName(f *testing.F) {
	for _, s := range []string{"call_1", "../../etc/passwd", "a/b", "", "..", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		name := outputFileName(id)
		if strings.ContainsAny(name, "/\\\x00") || name == ".txt" || strings.HasPrefix(name, ".") || filepath.Base(name) != name {
			t.Fatalf("outputFileName(%q) = %q escapes or is unsafe", id, name)
		}
	})
}
