// Package shell holds the run_bash tool (docs/features.md T4): a shell command run in
// the agent's workspace with a time limit, a bounded output, a scrubbed
// environment and, where the machine allows it, a bubblewrap sandbox with a
// read-only system and no network. Every process the command starts is
// killed when the call ends, however it ends.
package shell

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// SandboxMode says when commands run inside the bubblewrap sandbox.
type SandboxMode string

const (
	// SandboxAuto uses the sandbox when Detect found it working and runs
	// commands without it otherwise, telling the model and the UI so.
	// The zero value of SandboxMode means SandboxAuto.
	SandboxAuto SandboxMode = "auto"
	// SandboxRequire refuses to run commands when the sandbox is unavailable.
	SandboxRequire SandboxMode = "require"
	// SandboxOff never uses the sandbox (process group and scrubbed
	// environment only).
	//
	// Without the sandbox the scrubbed environment stops accidental leaks
	// only: the command runs as the app's user, so it can read the app's
	// files and the app's start-up environment in /proc/<pid>/environ,
	// and reach the network. Production should use the sandbox.
	SandboxOff SandboxMode = "off"
)

// ParseSandboxMode parses "auto", "require" or "off" (case-insensitive;
// empty means auto).
func ParseSandboxMode(s string) (SandboxMode, error) {
	switch m := SandboxMode(strings.ToLower(strings.TrimSpace(s))); m {
	case "", SandboxAuto:
		return SandboxAuto, nil
	case SandboxRequire, SandboxOff:
		return m, nil
	default:
		return "", fmt.Errorf("shell: sandbox mode %q: want auto, require or off", s)
	}
}

// Defaults for the zero fields of Options.
const (
	DefaultTimeout    = 60 * time.Second
	DefaultMaxTimeout = 600 * time.Second
	DefaultOutputCap  = 30_000
	// DefaultPath is the PATH commands get. It names system directories
	// only; /usr/local is visible in the sandbox because /usr is.
	DefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
)

// Options configure run_bash. The zero value of every field but Workspace
// is usable.
type Options struct {
	// Workspace is the absolute directory commands run in; it is created
	// if missing. In the sandbox it is the only writable host directory,
	// mounted at the same path. It must not be "/".
	Workspace string
	// UserDir, when set, gives each user their own directory under
	// Workspace (the same one the file tools use), so one user's commands
	// never see another's files.
	UserDir func(userID int64) string
	// Timeout is the time limit of a call that gives no timeout_secs
	// (default DefaultTimeout).
	Timeout time.Duration
	// MaxTimeout caps timeout_secs (default DefaultMaxTimeout). Keep it at
	// or below the runtime's per-tool timeout, which cancels the call's
	// context anyway.
	MaxTimeout time.Duration
	// OutputCap is how many bytes of combined stdout+stderr the result
	// keeps: the first half and the last half, with a marker saying how
	// many bytes in between were dropped (default DefaultOutputCap).
	OutputCap int
	// Path is the PATH commands get (default DefaultPath).
	Path string
	// Sandbox says when to use the bubblewrap sandbox (default SandboxAuto).
	Sandbox SandboxMode
	// ReadOnlyPaths are extra absolute host directories bound read-only in
	// the sandbox (e.g. a Python virtual environment under /opt). The
	// system directories (/usr, /bin, /lib*, /etc) are always bound.
	ReadOnlyPaths []string
}

// Validate reports the first problem with o, naming the field.
func (o Options) Validate() error {
	switch {
	case o.Workspace == "":
		return fmt.Errorf("shell: Workspace is empty")
	case !filepath.IsAbs(o.Workspace):
		return fmt.Errorf("shell: Workspace %q is not an absolute path", o.Workspace)
	case filepath.Clean(o.Workspace) == "/":
		return fmt.Errorf("shell: Workspace must not be the root directory")
	case o.Timeout < 0, o.MaxTimeout < 0, o.OutputCap < 0:
		return fmt.Errorf("shell: Timeout, MaxTimeout and OutputCap must not be negative")
	}
	if _, err := ParseSandboxMode(string(o.Sandbox)); err != nil {
		return err
	}
	for _, p := range o.ReadOnlyPaths {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("shell: ReadOnlyPaths entry %q is not an absolute path", p)
		}
	}
	return nil
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	o.Workspace = filepath.Clean(o.Workspace)
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxTimeout == 0 {
		o.MaxTimeout = DefaultMaxTimeout
	}
	if o.Timeout > o.MaxTimeout {
		o.Timeout = o.MaxTimeout
	}
	if o.OutputCap == 0 {
		o.OutputCap = DefaultOutputCap
	}
	if o.Path == "" {
		o.Path = DefaultPath
	}
	if o.Sandbox == "" {
		o.Sandbox = SandboxAuto
	}
	return o
}

// timeoutFor is the effective limit of a call asking for secs (0: default).
func (o Options) timeoutFor(secs int) time.Duration {
	if secs <= 0 {
		return o.Timeout
	}
	return min(time.Duration(secs)*time.Second, o.MaxTimeout)
}

// runIDVar marks every process of one call in its environment, so that
// processes that left the call's process group can still be found and
// killed (see sweep).
const runIDVar = "ASTRORESEARCH_RUN_ID"

// environment is the complete environment of a command: a fixed allowlist
// built from scratch, never copied from this process, so no secret of the
// app (LLM_API_KEY, ADS_API_TOKEN, AWS_*, ...) can reach the command.
func (o Options) environment(runID string) []string {
	return []string{
		"PATH=" + o.Path,
		"HOME=" + o.Workspace,
		"TMPDIR=" + o.tmpDir(),
		"LANG=C.UTF-8",
		"TERM=dumb",
		runIDVar + "=" + runID,
	}
}

// tmpDir is TMPDIR: inside the workspace, so temporary files stay in the
// one writable place in both modes.
func (o Options) tmpDir() string { return filepath.Join(o.Workspace, ".tmp") }
