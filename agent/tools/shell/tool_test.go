package shell

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
)

func TestToolCapabilities(t *testing.T) {
	tool := RunBash(Options{Workspace: "/srv/ws"}, SandboxStatus{})
	if tool.Name() != "run_bash" {
		t.Fatalf("name %q", tool.Name())
	}
	c := tools.Caps(tool)
	args := json.RawMessage(`{"command":"ls"}`)
	if c.Interrupt != tools.Cancel || c.ReadOnly || c.ConcurrencySafe(args) || c.Permission == nil {
		t.Fatalf("caps = %+v", c)
	}
	if d := c.Permission(context.Background(), &tools.Context{}, args); d != tools.DecisionAsk {
		t.Fatalf("permission = %v, want DecisionAsk", d)
	}
	if c.Summary != "Run a bash command in the research workspace and return its output." {
		t.Fatalf("summary %q", c.Summary)
	}
}

func TestDescription(t *testing.T) {
	with := RunBash(Options{Workspace: "/srv/ws"}, SandboxStatus{Available: true, bwrap: "/usr/bin/bwrap"}).Description()
	without := RunBash(Options{Workspace: "/srv/ws"}, SandboxStatus{}).Description()
	off := RunBash(Options{Workspace: "/srv/ws", Sandbox: SandboxOff}, SandboxStatus{Available: true, bwrap: "/usr/bin/bwrap"}).Description()
	for _, d := range []string{with, without, off} {
		for _, want := range []string{"/srv/ws", "60 s by default", "up to 600 s", "30000 characters", "no credentials"} {
			if !strings.Contains(d, want) {
				t.Errorf("description lacks %q: %s", want, d)
			}
		}
	}
	if !strings.Contains(with, "there is no network access") || !strings.Contains(without, "no OS sandbox") || !strings.Contains(off, "no OS sandbox") {
		t.Errorf("sandbox not described:\n%s\n%s", with, without)
	}
}

func TestBadArguments(t *testing.T) {
	tool := RunBash(Options{Workspace: filepath.Join(t.TempDir(), "ws"), Sandbox: SandboxOff}, SandboxStatus{})
	for _, raw := range []string{`{}`, `{"command":""}`, `{"command":"ls","timeout_secs":0}`, `{"command":"ls","timeout_secs":601}`,
		`{"command":"` + strings.Repeat("x", 10001) + `"}`, `{"command":"ls","cwd":"/"}`} {
		res, err := tool.Execute(context.Background(), &tools.Context{}, json.RawMessage(raw))
		if err != nil || !res.IsError {
			t.Errorf("Execute(%.60s) = %+v, %v; want an error result", raw, res, err)
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	tool := RunBash(Options{Workspace: "relative"}, SandboxStatus{})
	_, err := tool.Execute(context.Background(), &tools.Context{}, json.RawMessage(`{"command":"true"}`))
	if err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("err = %v", err)
	}
}

// TestRequireWithoutSandbox: mode require refuses to run anything.
func TestRequireWithoutSandbox(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	tool := RunBash(Options{Workspace: ws, Sandbox: SandboxRequire}, SandboxStatus{Reason: "bubblewrap (bwrap) is not installed"})
	res := execute(t, context.Background(), tool, BashArgs{Command: "touch ran"})
	if !res.IsError || res.Output != "run_bash is disabled: the OS sandbox is required but not available (bubblewrap (bwrap) is not installed)." {
		t.Fatalf("result = %+v", res)
	}
}

// TestAutoWithoutSandbox: mode auto runs the command but says so, first
// thing in the output and in the metadata.
func TestAutoWithoutSandbox(t *testing.T) {
	tool := RunBash(Options{Workspace: filepath.Join(t.TempDir(), "ws")}, SandboxStatus{Reason: "bubblewrap (bwrap) is not installed"})
	res := execute(t, context.Background(), tool, BashArgs{Command: "echo hello"})
	want := "Note: this command ran without an OS sandbox (bubblewrap (bwrap) is not installed).\nhello\n[exit code 0 · "
	if res.IsError || !strings.HasPrefix(res.Output, want) {
		t.Fatalf("output = %q, want prefix %q", res.Output, want)
	}
	if meta[bool](t, res, "sandboxed") || meta[string](t, res, "sandbox_reason") != "bubblewrap (bwrap) is not installed" {
		t.Fatalf("metadata = %v", res.Metadata)
	}
}
