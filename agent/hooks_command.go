package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// CommandHook runs a program for each event: the HookInput as JSON on
// stdin, an optional HookDecision as JSON on stdout (empty output means "no
// decision"). A non-zero exit, a timeout or unparsable output is an error
// (logged; the turn goes on).
type CommandHook struct {
	Argv    []string
	Timeout time.Duration
}

// maxHookOutput bounds what a hook may print.
const maxHookOutput = 64 << 10

// Handle implements Hook.
func (c CommandHook) Handle(ctx context.Context, in HookInput) (HookDecision, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := json.Marshal(in)
	if err != nil {
		return HookDecision{}, err
	}
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxHookOutput, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return HookDecision{}, fmt.Errorf("hook %s timed out after %s", c.Argv[0], timeout)
		}
		return HookDecision{}, fmt.Errorf("hook %s: %w: %s", c.Argv[0], err, stderr.String())
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if len(out) == 0 {
		return HookDecision{}, nil
	}
	var d HookDecision
	if err := json.Unmarshal(out, &d); err != nil {
		return HookDecision{}, fmt.Errorf("hook %s printed invalid JSON: %w", c.Argv[0], err)
	}
	return d, nil
}

type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// HooksFile is the format of {DATA_DIR}/hooks.json:
//
//	{"hooks": [{"event": "PreToolUse", "tools": ["run_bash"],
//	            "command": ["/usr/local/bin/check-bash"], "timeout_secs": 10}]}
type HooksFile struct {
	Hooks []HookSpec `json:"hooks"`
}

// HookSpec is one command hook.
type HookSpec struct {
	Event       HookEvent `json:"event"`
	Tools       []string  `json:"tools,omitempty"`
	Command     []string  `json:"command"`
	TimeoutSecs int       `json:"timeout_secs,omitempty"`
}

// LoadCommandHooks registers the command hooks listed in path. A missing
// file is not an error; a malformed one is (it names the problem).
func (h *Hooks) LoadCommandHooks(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("agent: read hooks file: %w", err)
	}
	var f HooksFile
	if err := json.Unmarshal(b, &f); err != nil {
		return 0, fmt.Errorf("agent: hooks file %s: %w", path, err)
	}
	known := map[HookEvent]bool{}
	for _, e := range AllHookEvents {
		known[e] = true
	}
	for i, s := range f.Hooks {
		if !known[s.Event] {
			return 0, fmt.Errorf("agent: hooks file %s: hook %d: unknown event %q", path, i, s.Event)
		}
		if len(s.Command) == 0 || s.Command[0] == "" {
			return 0, fmt.Errorf("agent: hooks file %s: hook %d: command is empty", path, i)
		}
		if s.TimeoutSecs < 0 || s.TimeoutSecs > 300 {
			return 0, fmt.Errorf("agent: hooks file %s: hook %d: timeout_secs must be 0–300", path, i)
		}
	}
	for _, s := range f.Hooks {
		h.Register(s.Event, "command:"+s.Command[0],
			CommandHook{Argv: s.Command, Timeout: time.Duration(s.TimeoutSecs) * time.Second}, s.Tools...)
	}
	return len(f.Hooks), nil
}
