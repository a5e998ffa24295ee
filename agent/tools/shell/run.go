package shell

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// drainGrace is how long output is still read after the command and its
// process group were killed; only a process that escaped both the group
// and the sweep can hold the pipe open longer, and it is then cut off.
const drainGrace = 2 * time.Second

// outcome is what one command run produced.
type outcome struct {
	output    string        // head and tail of stdout+stderr
	truncated bool          // output lost its middle
	total     int64         // bytes the command printed
	exitCode  int           // -1 when killed by a signal
	duration  time.Duration // start to exit (or kill)
	limit     time.Duration // the time limit that applied
	timedOut  bool          // killed at the time limit
	cancelled bool          // killed because the call was stopped
	sandboxed bool          // ran inside bwrap
	swept     int           // processes killed by the environment sweep
}

// run executes command with bash in o.Workspace, through bwrap when
// sandboxed, within timeout and ctx. Whatever happens, every process of
// the call is dead when run returns. A Go error means the command could
// not be run at all.
func run(ctx context.Context, o Options, s SandboxStatus, sandboxed bool, command string, timeout time.Duration) (outcome, error) {
	ws, err := prepareWorkspace(o.Workspace)
	if err != nil {
		return outcome{}, err
	}
	o.Workspace = ws
	runID := rand.Text()
	cmd := buildCmd(o, s, sandboxed, runID, command)

	r, w, err := os.Pipe()
	if err != nil {
		return outcome{}, fmt.Errorf("shell: output pipe: %w", err)
	}
	// One *os.File for both streams: the command writes straight into the
	// pipe (interleaved, no copying goroutine inside exec), so Wait returns
	// when the command exits even if its children still hold the pipe.
	cmd.Stdout, cmd.Stderr = w, w
	out := outcome{sandboxed: sandboxed, limit: timeout}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < timeout {
		out.limit = time.Until(dl)
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return outcome{}, fmt.Errorf("shell: start %s: %w", cmd.Path, err)
	}
	w.Close()
	capt := newCapture(o.OutputCap)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(capt, r)
	}()

	killed, werr := wait(runCtx, cmd)
	out.duration = time.Since(start)
	// The command is over; nothing it started may outlive the call.
	killGroup(cmd.Process.Pid)
	out.swept = sweep(runID)
	select {
	case <-copied:
	case <-time.After(drainGrace):
	}
	r.Close()
	<-copied

	out.output, out.truncated = capt.String()
	out.total = capt.Total()
	if killed {
		out.cancelled = errors.Is(ctx.Err(), context.Canceled)
		out.timedOut = !out.cancelled
	}
	var exitErr *exec.ExitError
	switch {
	case cmd.ProcessState != nil:
		out.exitCode = cmd.ProcessState.ExitCode()
	case werr != nil && !errors.As(werr, &exitErr):
		return out, fmt.Errorf("shell: wait: %w", werr)
	}
	return out, nil
}

// wait waits for cmd to exit, killing its process group when ctx ends
// first; killed reports that it did.
func wait(ctx context.Context, cmd *exec.Cmd) (killed bool, err error) {
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
		return false, err
	case <-ctx.Done():
		killGroup(cmd.Process.Pid)
		return true, <-waited
	}
}

// buildCmd is the bash command line, wrapped in bwrap when sandboxed, with
// the scrubbed environment, stdin from /dev/null and its own session.
func buildCmd(o Options, s SandboxStatus, sandboxed bool, runID, command string) *exec.Cmd {
	argv := []string{shellPath(), "-c", command}
	var cmd *exec.Cmd
	if sandboxed {
		cmd = exec.Command(s.bwrap, bwrapArgs(s.flags, o, runID, argv)...)
	} else {
		cmd = exec.Command(argv[0], argv[1:]...)
	}
	cmd.Dir = o.Workspace
	cmd.Env = o.environment(runID)
	cmd.SysProcAttr = sysProcAttr()
	return cmd
}

// prepareWorkspace creates the workspace and its TMPDIR if missing and
// returns the workspace path with symlinks resolved (bwrap binds it at
// that path).
func prepareWorkspace(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("shell: create workspace: %w", err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("shell: resolve workspace: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(real, ".tmp"), 0o700); err != nil {
		return "", fmt.Errorf("shell: create workspace TMPDIR: %w", err)
	}
	return real, nil
}
