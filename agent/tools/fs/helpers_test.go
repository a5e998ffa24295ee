package fs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// testEnv is a data dir with the four roots, an outside directory holding
// a secret, and the five tools for user 7, session sess-1.
type testEnv struct {
	data, outside, lib, skills string
	ws                         string // user 7's workspace directory
	roots                      *Roots
	cache                      *FileCache
	tc                         *tools.Context
	tools                      map[string]tools.Tool
}

const (
	outsideSecret = "OUTSIDE-SECRET-7f3a"
	dbSecret      = "DB-SECRET-91bc"
)

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	e := &testEnv{data: t.TempDir(), outside: t.TempDir(), lib: t.TempDir(), skills: t.TempDir()}
	mustWrite(t, filepath.Join(e.outside, "secret.txt"), outsideSecret+"\n")
	mustWrite(t, filepath.Join(e.data, "app.db"), dbSecret+"\n")
	e.ws = filepath.Join(e.data, "workspace", "u7")
	mustWrite(t, filepath.Join(e.ws, "notes.md"), "# Notes\nHubble tension\nline three\n")
	mustWrite(t, filepath.Join(e.lib, "2401.01234.md"), "# Paper\nThe Hubble constant is 67.4\n")
	mustWrite(t, filepath.Join(e.skills, "photometry", "SKILL.md"), "---\nname: photometry\n---\nDo photometry.\n")
	roots, err := OpenRoots(Options{DataDir: e.data, LibraryDir: e.lib, SkillsDir: e.skills,
		Protected: []string{filepath.Join(e.data, "app.db")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	e.roots, e.cache = roots, NewFileCache(0, 0)
	e.tc = &tools.Context{SessionID: "sess-1", UserID: 7, AgentName: "lead"}
	e.tools = map[string]tools.Tool{}
	for _, tool := range Tools(roots, e.cache) {
		e.tools[tool.Name()] = tool
	}
	return e
}

// call runs a tool with args marshalled to JSON, as the executor would.
func (e *testEnv) call(t testing.TB, name string, args any) tools.Result {
	t.Helper()
	return e.callAs(t, e.tc, name, args)
}

func (e *testEnv) callAs(t testing.TB, tc *tools.Context, name string, args any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.tools[name].Execute(context.Background(), tc, raw)
	if err != nil {
		t.Fatalf("%s(%s): Go error %v", name, raw, err)
	}
	return res
}

// ok fails the test when res is an error result.
func ok(t testing.TB, res tools.Result) tools.Result {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", res.Output)
	}
	return res
}

func mustWrite(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func readString(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type toolT = tools.Tool
