package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// detected probes bubblewrap once per test binary.
var detected = sync.OnceValue(func() SandboxStatus { return Detect(context.Background()) })

// mode is one way of running commands under test.
type mode struct {
	name    string
	sandbox SandboxMode
	status  SandboxStatus
}

// modes is "off" always, plus "bwrap" (mode require) when the sandbox works
// here, so every fault is tested with and without it.
func modes(t *testing.T) []mode {
	t.Helper()
	m := []mode{{name: "off", sandbox: SandboxOff}}
	if s := detected(); s.usable() {
		m = append(m, mode{name: "bwrap", sandbox: SandboxRequire, status: s})
	} else {
		t.Logf("bubblewrap sandbox not available, testing without it only: %s", s.Reason)
	}
	return m
}

// sandboxed returns the working bubblewrap sandbox. `make test` installs
// bubblewrap, so a machine without a working one fails these tests instead
// of silently not running them.
func sandboxed(t *testing.T) SandboxStatus {
	t.Helper()
	s := detected()
	if !s.usable() {
		t.Fatalf("bubblewrap sandbox not available (install Debian's bubblewrap; make test does): %s", s.Reason)
	}
	return s
}

// newTool builds run_bash on a fresh workspace.
func newTool(t *testing.T, m mode, opts Options) (tools.Tool, string) {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = filepath.Join(t.TempDir(), "workspace")
	}
	opts.Sandbox = m.sandbox
	return RunBash(opts, m.status), opts.Workspace
}

// execute runs the tool with args and fails the test on a Go error. A
// guard context keeps a broken kill path from hanging the test binary.
func execute(t *testing.T, ctx context.Context, tool tools.Tool, args BashArgs) tools.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Execute(ctx, &tools.Context{}, raw)
	if err != nil {
		t.Fatalf("Execute(%s): %v", raw, err)
	}
	return res
}

// token is a sleep duration unique to this test run, so its processes can
// be told apart from every other process on the machine.
func token(t *testing.T) string {
	t.Helper()
	return fmt.Sprintf("%d.%d", 4000+len(t.Name()), os.Getpid()%100000)
}

// processesWith lists live processes whose command line is "sleep tok".
func processesWith(tok string) []int {
	want := []byte("sleep\x00" + tok + "\x00")
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.HasSuffix(cmdline, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// requireGone fails unless no "sleep tok" process is left; a killed process
// may need a moment to finish exiting, so it polls for a while.
func requireGone(t *testing.T, tok string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := processesWith(tok)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				_ = killPID(pid)
			}
			t.Fatalf("processes survived the call: %v", pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killPID cleans up after a failed test.
func killPID(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// meta reads a metadata field.
func meta[T any](t *testing.T, res tools.Result, key string) T {
	t.Helper()
	v, ok := res.Metadata[key].(T)
	if !ok {
		t.Fatalf("metadata %q = %#v (%T)", key, res.Metadata[key], res.Metadata[key])
	}
	return v
}
