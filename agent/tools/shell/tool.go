package shell

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// BashArgs are run_bash's arguments.
type BashArgs struct {
	Command     string `json:"command" desc:"The bash command line to run; it starts in the workspace directory." minLength:"1" maxLength:"10000"`
	TimeoutSecs int    `json:"timeout_secs,omitempty" desc:"Time limit in seconds for this call; the tool description gives the default." min:"1" max:"600"`
}

// RunBash returns the run_bash tool (T4). status comes from Detect and is
// ignored when opts.Sandbox is SandboxOff. The tool asks for permission on
// every call (the user's central "always allow" rules can override that),
// is cancelled by a user stop, never runs in parallel and is not read-only.
//
// Results: the combined output (head and tail kept) followed by a status
// line "[exit code N · D s]". A non-zero exit, a timeout, a stop and a
// refusal in SandboxRequire mode are error results the model sees; a
// command that cannot be started at all (no shell, workspace not
// creatable, invalid opts) is a Go error. Metadata holds exit_code,
// duration_ms, timeout_secs, output_bytes, truncated, timed_out,
// cancelled, sandboxed and, when not sandboxed, sandbox_reason.
func RunBash(opts Options, status SandboxStatus) tools.Tool {
	invalid := opts.Validate()
	o := opts.withDefaults()
	sandboxed := o.Sandbox != SandboxOff && status.usable()
	return tools.New("run_bash", description(o, status, sandboxed),
		func(ctx context.Context, tc *tools.Context, args BashArgs) (tools.Result, error) {
			if invalid != nil {
				return tools.Result{}, invalid
			}
			if ctx.Err() != nil {
				return tools.Errorf("run_bash: the call was stopped before the command started."), nil
			}
			if o.Sandbox == SandboxRequire && !sandboxed {
				return tools.Errorf("run_bash is disabled: the OS sandbox is required but not available (%s).", status.reason()), nil
			}
			call := o
			if o.UserDir != nil {
				call.Workspace = filepath.Join(o.Workspace, o.UserDir(tc.UserID))
			}
			out, err := run(ctx, call, status, sandboxed, args.Command, o.timeoutFor(args.TimeoutSecs))
			if err != nil {
				return tools.Result{}, err
			}
			return result(o, status, out), nil
		},
		tools.WithPermission(func(context.Context, *tools.Context, BashArgs) tools.PermissionDecision {
			return tools.DecisionAsk
		}),
		tools.WithDeferred(), // rarely needed for literature work: kept out of the fixed prompt
	)
}

// description tells the model where commands run and within which limits.
func description(o Options, status SandboxStatus, sandboxed bool) string {
	var b strings.Builder
	b.WriteString("Run a bash command in the research workspace and return its output. ")
	if o.UserDir != nil {
		b.WriteString("The command starts in your workspace directory (also $HOME), the same files the file tools show as workspace/; files written there persist between calls. ")
	} else {
		fmt.Fprintf(&b, "The command starts in %s (also $HOME); files written there persist between calls. ", o.Workspace)
	}
	if sandboxed {
		b.WriteString("It runs in a sandbox: the system is read-only, only the workspace is writable, and there is no network access. ")
	} else {
		b.WriteString("There is no OS sandbox on this machine: stay inside the workspace and do not use the network. ")
	}
	b.WriteString("The environment holds no credentials. ")
	fmt.Fprintf(&b, "Time limit: %s by default, timeout_secs up to %s. ", secs(o.Timeout), secs(o.MaxTimeout))
	b.WriteString("When the call ends every process it started is killed, so do not leave background jobs running. ")
	fmt.Fprintf(&b, "Output (stdout and stderr together) is cut to about %d characters, keeping the beginning and the end. ", o.OutputCap)
	b.WriteString("A non-zero exit status is reported as an error together with the output. The user is asked before each command runs.")
	return b.String()
}

// result formats an outcome for the model and the UI.
func result(o Options, status SandboxStatus, out outcome) tools.Result {
	var b strings.Builder
	if !out.sandboxed && o.Sandbox == SandboxAuto {
		fmt.Fprintf(&b, "Note: this command ran without an OS sandbox (%s).\n", status.reason())
	}
	if out.total == 0 {
		b.WriteString("(no output)\n")
	} else {
		b.WriteString(out.output)
		if !strings.HasSuffix(out.output, "\n") {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "[exit code %d · %s", out.exitCode, secs(out.duration))
	if out.truncated {
		fmt.Fprintf(&b, " · output truncated, %d bytes in total", out.total)
	}
	b.WriteString("]")
	switch {
	case out.timedOut:
		fmt.Fprintf(&b, "\n[timed out after %s: the command and every process it started were killed]", secs(out.limit))
	case out.cancelled:
		b.WriteString("\n[stopped by the user: the command and every process it started were killed]")
	}
	md := map[string]any{
		"exit_code":    out.exitCode,
		"duration_ms":  out.duration.Milliseconds(),
		"timeout_secs": int(out.limit / time.Second),
		"output_bytes": out.total,
		"truncated":    out.truncated,
		"timed_out":    out.timedOut,
		"cancelled":    out.cancelled,
		"sandboxed":    out.sandboxed,
	}
	if !out.sandboxed {
		md["sandbox_reason"] = status.reason()
		if o.Sandbox == SandboxOff {
			md["sandbox_reason"] = "the sandbox is turned off"
		}
	}
	return tools.Result{
		Output:   b.String(),
		IsError:  out.exitCode != 0 || out.timedOut || out.cancelled,
		Metadata: md,
	}
}

// secs formats d as "1.2 s" (or "60 s" for whole seconds).
func secs(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
