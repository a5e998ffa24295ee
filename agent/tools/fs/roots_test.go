package fs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
)

func TestOpenRootsRefusesProtected(t *testing.T) {
	data := t.TempDir()
	db := filepath.Join(data, "astro.db")
	parent := filepath.Dir(data)
	link := filepath.Join(t.TempDir(), "datalink")
	mustSymlink(t, data, link)
	cases := []struct {
		name string
		opts Options
	}{
		{"no data dir", Options{}},
		{"workspace is the data dir", Options{DataDir: data, WorkspaceDir: data}},
		{"library contains the data dir", Options{DataDir: data, LibraryDir: parent}},
		{"skills through a link to the data dir", Options{DataDir: data, SkillsDir: link}},
		{"protected file inside the workspace", Options{DataDir: data, WorkspaceDir: filepath.Join(data, "ws"),
			Protected: []string{filepath.Join(data, "ws", ".env")}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r, err := OpenRoots(c.opts); err == nil {
				r.Close()
				t.Fatal("accepted")
			}
		})
	}
	r, err := OpenRoots(Options{DataDir: data, LibraryDir: filepath.Join(data, "library"), Protected: []string{db}})
	if err != nil {
		t.Fatalf("library under the data dir: %v", err)
	}
	if !r.Writable(RootWorkspace) || r.Writable(RootLibrary) || r.Writable(RootToolResults) || r.Writable("nope") {
		t.Error("writability")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestToolDefinitions(t *testing.T) {
	e := newTestEnv(t)
	want := map[string]struct {
		readOnly, safe bool
		interrupt      tools.InterruptBehavior
	}{
		"read_file":  {true, true, tools.Cancel},
		"grep_files": {true, true, tools.Cancel},
		"glob_files": {true, true, tools.Cancel},
		"file_write": {false, false, tools.Block},
		"file_edit":  {false, false, tools.Block},
	}
	reg := tools.NewRegistry()
	for _, tool := range Tools(e.roots, e.cache) {
		if err := reg.Add(tool); err != nil {
			t.Fatal(err)
		}
		w, ok := want[tool.Name()]
		if !ok {
			t.Fatalf("unexpected tool %s", tool.Name())
		}
		c := tools.Caps(tool)
		if c.ReadOnly != w.readOnly || c.ConcurrencySafe(json.RawMessage(`{"path":"x","pattern":"x"}`)) != w.safe || c.Interrupt != w.interrupt {
			t.Errorf("%s caps %+v", tool.Name(), c)
		}
		// The scheme is stated once, in read_file; the others refer to it
		// and are deferred behind load_tool (a lean fixed prompt).
		if tool.Name() == "read_file" {
			if !strings.Contains(tool.Description(), "workspace/ (") || !strings.Contains(tool.Description(), "library/2401.01234.md") {
				t.Errorf("%s description lacks the addressing scheme", tool.Name())
			}
			if c.Deferred {
				t.Error("read_file must stay resident: persisted outputs are read with it")
			}
		} else {
			if !strings.Contains(tool.Description(), "Paths as in read_file: workspace/ (writable)") || strings.Contains(tool.Description(), "library/2401.01234.md") {
				t.Errorf("%s description does not refer to read_file's scheme: %q", tool.Name(), tool.Description())
			}
			if !c.Deferred {
				t.Errorf("%s is not deferred", tool.Name())
			}
		}
		if c.Summary == "" || strings.HasSuffix(c.Summary, "…") {
			t.Errorf("%s summary %q", tool.Name(), c.Summary)
		}
		if !json.Valid(tool.Parameters()) {
			t.Errorf("%s parameters invalid", tool.Name())
		}
	}
	// Schema validation reaches the model as an error result.
	res, err := e.tools["read_file"].Execute(context.Background(), e.tc, json.RawMessage(`{"path":"x","limit":99999}`))
	if err != nil || !res.IsError {
		t.Fatalf("limit over the maximum: %+v %v", res, err)
	}
}

// TestConcurrentUse runs the tools in parallel (for -race).
func TestConcurrentUse(t *testing.T) {
	e := newTestEnv(t)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			tc := &tools.Context{SessionID: fmt.Sprintf("s%d", g), UserID: 7, AgentName: "lead"}
			for i := range 20 {
				p := fmt.Sprintf("g%d/f%d.md", g, i%4)
				e.callAs(t, tc, "file_write", WriteArgs{Path: p, Content: fmt.Sprintf("v%d\n", i)})
				e.callAs(t, tc, "read_file", ReadArgs{Path: p})
				e.callAs(t, tc, "grep_files", GrepArgs{Pattern: "v1"})
				e.callAs(t, tc, "glob_files", GlobArgs{Pattern: "**/*.md"})
				e.callAs(t, tc, "file_edit", EditArgs{Path: p, OldString: "v", NewString: "w"})
			}
		})
	}
	wg.Wait()
	e.roots.mu.Lock()
	defer e.roots.mu.Unlock()
	if len(e.roots.users) != 1 {
		t.Fatalf("user roots: %d", len(e.roots.users))
	}
	if _, err := os.Stat(filepath.Join(e.ws, "g5", "f3.md")); err != nil {
		t.Fatal(err)
	}
}
