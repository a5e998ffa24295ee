package shell

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// SandboxStatus is what Detect found out about the bubblewrap sandbox on
// this machine. The zero value means "not available, not detected".
type SandboxStatus struct {
	// Available reports whether bwrap ran a probe command successfully.
	Available bool
	// Reason says why the sandbox is not available ("" when it is), in words
	// fit for the settings page.
	Reason string

	bwrap string   // absolute path of the bwrap binary
	flags []string // the namespace and capability flags that worked
}

// usable reports whether commands can be run through bwrap (a hand-made
// SandboxStatus{Available: true} without a probe is not).
func (s SandboxStatus) usable() bool { return s.Available && s.bwrap != "" }

// reason is Reason with a fallback for the zero value.
func (s SandboxStatus) reason() string {
	if s.Reason != "" {
		return s.Reason
	}
	return "the sandbox was not detected"
}

// Message is one sentence for the UI about how commands will run.
func (s SandboxStatus) Message() string {
	if s.usable() {
		return "Commands run in a bubblewrap sandbox: read-only system, writable workspace, no network."
	}
	return "Commands run without an OS sandbox: " + s.reason() + "."
}

// namespaceVariants are the flag sets Detect tries, best first. Every
// variant drops all capabilities: as root without it the command could
// remount the read-only binds writable (checked on the build machine).
// --unshare-all only *tries* a user namespace; asking for one explicitly
// makes a failure visible, and the second variant covers root on kernels
// where user namespaces are disabled.
var namespaceVariants = [][]string{
	{"--unshare-all", "--unshare-user", "--cap-drop", "ALL"},
	{"--unshare-all", "--cap-drop", "ALL"},
}

// probeTimeout bounds one probe run.
const probeTimeout = 10 * time.Second

// Detect finds bwrap and really runs a command through the same sandbox
// the tool uses (with a temporary workspace), trying the namespace
// variants in order. It takes at most a few probe runs; call it once at
// start-up and pass the result to RunBash and to the UI.
func Detect(ctx context.Context) SandboxStatus {
	if runtime.GOOS != "linux" {
		return SandboxStatus{Reason: "the bubblewrap sandbox exists only on Linux"}
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return SandboxStatus{Reason: "bubblewrap (bwrap) is not installed"}
	}
	return probe(ctx, path)
}

// probe runs `true` through bwrap at path with each namespace variant.
func probe(ctx context.Context, path string) SandboxStatus {
	tmp, err := os.MkdirTemp("", "astroresearch-sandbox-probe-*")
	if err != nil {
		return SandboxStatus{Reason: "cannot create a probe directory: " + err.Error()}
	}
	defer os.RemoveAll(tmp)
	ws, err := prepareWorkspace(tmp)
	if err != nil {
		return SandboxStatus{Reason: "cannot create a probe directory: " + err.Error()}
	}
	o := Options{Workspace: ws}.withDefaults()
	var first string
	for _, flags := range namespaceVariants {
		s := SandboxStatus{Available: true, bwrap: path, flags: flags}
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		cmd := exec.CommandContext(pctx, path, bwrapArgs(flags, o, "probe", []string{shellPath(), "-c", "true"})...)
		cmd.Env = o.environment("probe")
		cmd.SysProcAttr = sysProcAttr()
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil {
			return s
		}
		if first == "" {
			first = explainProbe(out, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return SandboxStatus{Reason: first}
}

// explainProbe turns a failed probe into a reason for the user.
func explainProbe(out []byte, err error) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(out), []byte("\n"))
	msg := strings.TrimSpace(string(line))
	if msg == "" {
		msg = err.Error()
	}
	var exitErr *exec.ExitError
	lower := strings.ToLower(msg)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "bubblewrap did not answer within " + probeTimeout.String()
	case strings.Contains(lower, "namespace") || strings.Contains(lower, "uid map") ||
		strings.Contains(lower, "operation not permitted") || strings.Contains(lower, "permission denied"):
		return "bubblewrap cannot create namespaces (unprivileged user namespaces may be disabled): " + msg
	case errors.As(err, &exitErr):
		return "bubblewrap failed: " + msg
	default:
		return "bubblewrap could not be run: " + msg
	}
}

// shellPath is /bin/bash, or /bin/sh where bash is missing.
func shellPath() string {
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	return "/bin/sh"
}

// systemLinks are the top-level system directories that merged-/usr
// systems make symlinks into /usr and older ones keep as directories.
var systemLinks = []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// maskedFiles are secrets in /etc that a command run by root could read
// (root owns them); they are hidden behind /dev/null or an empty tmpfs.
var maskedFiles = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh", "/etc/ssl/private",
}

// bwrapArgs is the bwrap command line running argv in o.Workspace (which
// must exist and be symlink-free): new namespaces of every kind (so no
// network), no capabilities, a fresh session, only the allowlisted
// environment, the system and / read-only, a private /tmp, /proc and
// /dev, and the workspace bound writable at its own path. Nothing else of the host
// (the app's data dir, /root, /home, /work) is visible.
func bwrapArgs(flags []string, o Options, runID string, argv []string) []string {
	a := []string{"--die-with-parent", "--new-session"}
	a = append(a, flags...)
	a = append(a, "--clearenv")
	for _, kv := range o.environment(runID) {
		k, v, _ := strings.Cut(kv, "=")
		a = append(a, "--setenv", k, v)
	}
	a = append(a, "--ro-bind", "/usr", "/usr")
	for _, d := range systemLinks {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", target, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	a = append(a, "--ro-bind", "/etc", "/etc")
	for _, p := range maskedFiles {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			a = append(a, "--tmpfs", p, "--remount-ro", p)
		case fi.Mode().IsRegular():
			a = append(a, "--ro-bind", "/dev/null", p)
		}
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp")
	for _, p := range o.ReadOnlyPaths {
		a = append(a, "--ro-bind-try", p, p)
	}
	a = append(a, "--bind", o.Workspace, o.Workspace,
		// bwrap builds / as a tmpfs; read-only, it cannot be filled.
		"--remount-ro", "/",
		"--chdir", o.Workspace, "--")
	return append(a, argv...)
}
