package shell

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDetectHere logs what this machine offers; CI runs as root in a
// container, developers as themselves, so it asserts only consistency.
func TestDetectHere(t *testing.T) {
	s := detected()
	t.Logf("sandbox available=%v flags=%v reason=%q; UI: %s", s.Available, s.flags, s.Reason, s.Message())
	if s.Available != (s.Reason == "") || s.Available != s.usable() {
		t.Fatalf("inconsistent status %+v", s)
	}
}

// TestProbeFailures: a missing or refusing bwrap gives a reason, and a bwrap
// that cannot make a user namespace falls back to the second variant.
func TestProbeFailures(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noUserns := script("no-userns", `echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces" >&2; exit 1`)
	rootOnly := script("root-only", `for a in "$@"; do [ "$a" = --unshare-user ] && { echo "bwrap: Creating new namespace failed: Operation not permitted" >&2; exit 1; }; done; exit 0`)
	broken := script("broken", `echo "bwrap: Can't mount proc on /newroot/proc: Invalid argument" >&2; exit 1`)

	cases := []struct {
		name, path, reason string
		flags              []string
	}{
		{"not installed", filepath.Join(dir, "missing"), "could not be run", nil},
		{"no user namespaces", noUserns, "user namespaces may be disabled", nil},
		{"root without user namespaces", rootOnly, "", namespaceVariants[1]},
		{"other failure", broken, "bubblewrap failed: bwrap: Can't mount proc", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := probe(context.Background(), tc.path)
			if tc.reason == "" {
				if !s.usable() || !slices.Equal(s.flags, tc.flags) {
					t.Fatalf("status = %+v, want flags %v", s, tc.flags)
				}
				return
			}
			if s.Available || !strings.Contains(s.Reason, tc.reason) || !strings.HasPrefix(s.Message(), "Commands run without an OS sandbox: ") {
				t.Fatalf("status = %+v, want reason containing %q", s, tc.reason)
			}
		})
	}
}

// TestBwrapArgs: the command line isolates everything and binds no more
// of the host than the system and the workspace.
func TestBwrapArgs(t *testing.T) {
	o := Options{Workspace: "/data/app/workspace", ReadOnlyPaths: []string{"/opt/venv"}}.withDefaults()
	args := bwrapArgs(namespaceVariants[0], o, "rid", []string{"/bin/bash", "-c", "ls"})
	line := strings.Join(args, " ")
	for _, want := range []string{
		"--die-with-parent --new-session --unshare-all --unshare-user --cap-drop ALL --clearenv",
		"--setenv HOME /data/app/workspace", "--setenv " + runIDVar + " rid",
		"--ro-bind /usr /usr", "--ro-bind /etc /etc", "--proc /proc", "--dev /dev", "--tmpfs /tmp",
		"--ro-bind-try /opt/venv /opt/venv",
		"--bind /data/app/workspace /data/app/workspace --remount-ro / --chdir /data/app/workspace -- /bin/bash -c ls",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("bwrap args lack %q:\n%s", want, line)
		}
	}
	for i, a := range args {
		if (a == "--bind" || a == "--ro-bind") && args[i+1] == "/" {
			t.Errorf("the host root is bound: %s", line)
		}
		if a == "--bind" && args[i+1] != o.Workspace {
			t.Errorf("writable bind of %s", args[i+1])
		}
	}
	if _, err := os.Lstat("/etc/shadow"); err == nil && !strings.Contains(line, "--ro-bind /dev/null /etc/shadow") {
		t.Errorf("/etc/shadow is not masked:\n%s", line)
	}
}

// TestSandboxNetwork: inside the sandbox a listener on the host's loopback
// is unreachable; without it (mode off) the same command connects, which
// shows the probe is meaningful.
func TestSandboxNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo CONNECTED", port)
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, _ := newTool(t, m, Options{})
			res := execute(t, context.Background(), tool, BashArgs{Command: cmd, TimeoutSecs: 20})
			connected := strings.Contains(res.Output, "CONNECTED")
			if want := m.sandbox == SandboxOff; connected != want || res.IsError == want {
				t.Fatalf("connected = %v, want %v; result %+v", connected, want, res)
			}
		})
	}
}

// TestSandboxFilesystem: the workspace is writable, the system and / are
// read-only, and nothing of the app's data dir outside the workspace, the
// host's /tmp or this source tree is visible.
func TestSandboxFilesystem(t *testing.T) {
	status := sandboxed(t)
	dataDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dataDir, "app.db"), []byte("secret rows"), 0o600); err != nil {
		t.Fatal(err)
	}
	hostTmp, err := os.CreateTemp("", "host-tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	hostTmp.Close()
	t.Cleanup(func() { os.Remove(hostTmp.Name()) })
	src, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	probeName := fmt.Sprintf("astroresearch-probe-%d", os.Getpid())
	for _, d := range []string{"/usr", "/etc", "/"} {
		t.Cleanup(func() { os.Remove(filepath.Join(d, probeName)) }) // only if the sandbox leaked
	}
	tool, ws := newTool(t, mode{name: "bwrap", sandbox: SandboxRequire, status: status}, Options{Workspace: filepath.Join(dataDir, "workspace")})

	cases := []struct {
		name, cmd string
		ok        bool
	}{
		{"workspace writable", "echo hi > written && cat written", true},
		{"/usr read-only", "touch /usr/" + probeName, false},
		{"/etc read-only", "touch /etc/" + probeName, false},
		{"root read-only", "touch /" + probeName, false},
		{"private /tmp writable", "touch /tmp/x", true},
		{"host /tmp hidden", "test -e " + hostTmp.Name(), false},
		{"data dir hidden", "cat " + filepath.Join(dataDir, "app.db"), false},
		{"data dir lists only the workspace", `test "$(ls -A ` + dataDir + `)" = workspace`, true},
		{"source tree hidden", "test -e " + filepath.Join(src, "sandbox_test.go"), false},
		{"shadow masked", "grep -q : /etc/shadow", false},
		{"no capabilities", "grep -q 'CapEff:.0000000000000000' /proc/self/status", true},
		{"host processes hidden", fmt.Sprintf("test -e /proc/%d", os.Getpid()), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := execute(t, context.Background(), tool, BashArgs{Command: tc.cmd})
			if res.IsError == tc.ok || !meta[bool](t, res, "sandboxed") {
				t.Fatalf("%s: result %+v", tc.cmd, res)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(ws, "written")); err != nil || string(b) != "hi\n" {
		t.Fatalf("file written in the sandbox: %q, %v", b, err)
	}
}
