package shell

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNeverEndingCommand: a command that never ends is killed at its time
// limit, at the runtime's deadline, and when the user stops the call.
func TestNeverEndingCommand(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name+"/timeout", func(t *testing.T) {
			tool, _ := newTool(t, m, Options{})
			tok := token(t)
			res := execute(t, context.Background(), tool, BashArgs{Command: "echo tick; sleep " + tok, TimeoutSecs: 1})
			if !res.IsError || !meta[bool](t, res, "timed_out") || meta[bool](t, res, "cancelled") {
				t.Fatalf("result = %+v", res)
			}
			if !strings.Contains(res.Output, "tick\n") || !strings.Contains(res.Output, "[timed out after 1 s") {
				t.Fatalf("output = %q", res.Output)
			}
			requireGone(t, tok)
		})
		t.Run(m.name+"/runtime deadline", func(t *testing.T) {
			tool, _ := newTool(t, m, Options{})
			tok := token(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			res := execute(t, ctx, tool, BashArgs{Command: "sleep " + tok})
			if !res.IsError || !meta[bool](t, res, "timed_out") {
				t.Fatalf("result = %+v", res)
			}
			requireGone(t, tok)
		})
		t.Run(m.name+"/stop", func(t *testing.T) {
			tool, ws := newTool(t, m, Options{})
			tok := token(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				// Stop once the command is surely running.
				for ctx.Err() == nil {
					if _, err := os.Stat(filepath.Join(ws, "started")); err == nil {
						cancel()
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			res := execute(t, ctx, tool, BashArgs{Command: "touch started; sleep " + tok + " & sleep " + tok})
			if !res.IsError || !meta[bool](t, res, "cancelled") || meta[bool](t, res, "timed_out") {
				t.Fatalf("result = %+v", res)
			}
			if !strings.Contains(res.Output, "[stopped by the user") {
				t.Fatalf("output = %q", res.Output)
			}
			requireGone(t, tok)
		})
	}
}

// TestHugeOutput: 50 MB of output is cut to its head and tail and never
// held in memory.
func TestHugeOutput(t *testing.T) {
	const cap = 30_000
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, _ := newTool(t, m, Options{OutputCap: cap})
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res := execute(t, context.Background(), tool, BashArgs{
				Command: `echo BEGIN; head -c 50000000 /dev/zero | tr '\0' x; echo; echo END`,
			})
			runtime.ReadMemStats(&after)
			if res.IsError {
				t.Fatalf("result = %+v", res)
			}
			if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 16<<20 {
				t.Errorf("allocated %d bytes for 50 MB of output", allocated)
			}
			if got := meta[int64](t, res, "output_bytes"); got != 50_000_011 {
				t.Errorf("output_bytes = %d", got)
			}
			if !meta[bool](t, res, "truncated") {
				t.Error("not marked truncated")
			}
			out := res.Output
			if len(out) > cap+200 {
				t.Errorf("output is %d bytes, cap %d", len(out), cap)
			}
			if !strings.HasPrefix(out, "BEGIN\nxxx") || !strings.Contains(out, "xxx\n[... 49970011 bytes omitted ...]\nxxx") ||
				!strings.Contains(out, "xxx\nEND\n[exit code 0 · ") || !strings.HasSuffix(out, "output truncated, 50000011 bytes in total]") {
				t.Errorf("output head %q ... tail %q", out[:40], out[len(out)-120:])
			}
		})
	}
}

// TestForkedChildrenKilled: children left running when the command exits
// (background jobs, orphans, a new session) die before run_bash returns,
// and holding stdout open does not keep the call waiting.
func TestForkedChildrenKilled(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, ws := newTool(t, m, Options{})
			tok := token(t)
			script := strings.ReplaceAll(`
				sleep TOK & echo $! >> pids
				(sleep TOK & echo $! >> pids)
				setsid sleep TOK & echo $! >> pids
				nohup sleep TOK > /dev/null 2>&1 & echo $! >> pids
				while [ "$(wc -l < pids)" -lt 4 ]; do sleep 0.01; done
				echo spawned
				exit 0`, "TOK", tok)
			res := execute(t, context.Background(), tool, BashArgs{Command: script, TimeoutSecs: 60})
			if res.IsError || meta[bool](t, res, "timed_out") || !strings.HasPrefix(res.Output, "spawned\n") {
				t.Fatalf("result = %+v", res)
			}
			pids, err := os.ReadFile(filepath.Join(ws, "pids"))
			if err != nil || len(strings.Fields(string(pids))) != 4 {
				t.Fatalf("pids file = %q, %v", pids, err)
			}
			requireGone(t, tok)
		})
	}
}

// TestSecretsNotInEnvironment: secrets of the app's environment never
// reach the command.
func TestSecretsNotInEnvironment(t *testing.T) {
	t.Setenv("LLM_API_KEY", "sk-test-secret-1")
	t.Setenv("ADS_API_TOKEN", "ads-test-secret-2")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-test-secret-3")
	allowed := map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "LANG": true, "TERM": true,
		runIDVar: true, "PWD": true, "OLDPWD": true, "SHLVL": true, "_": true}
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, _ := newTool(t, m, Options{})
			res := execute(t, context.Background(), tool, BashArgs{Command: `echo "key=[$LLM_API_KEY]"; env`})
			if res.IsError || !strings.HasPrefix(res.Output, "key=[]\n") || strings.Contains(res.Output, "test-secret") {
				t.Fatalf("result = %+v", res)
			}
			for _, line := range strings.Split(res.Output, "\n")[1:] {
				if name, _, ok := strings.Cut(line, "="); ok && !allowed[name] {
					t.Errorf("unexpected variable %q in the command's environment", line)
				}
			}
		})
	}
}

// TestWorkspaceEnvironment: the command starts in the workspace (created
// if missing) with HOME and TMPDIR inside it and stdin at EOF.
func TestWorkspaceEnvironment(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "not", "yet")
			tool, _ := newTool(t, m, Options{Workspace: ws})
			res := execute(t, context.Background(), tool, BashArgs{Command: `cat; pwd; echo "$HOME"; echo "$TMPDIR"; echo hi > note.txt`})
			real, err := filepath.EvalSymlinks(ws)
			if err != nil {
				t.Fatal(err)
			}
			want := real + "\n" + real + "\n" + real + "/.tmp\n[exit code 0 · "
			if res.IsError || !strings.HasPrefix(res.Output, want) {
				t.Fatalf("output = %q, want prefix %q", res.Output, want)
			}
			if b, err := os.ReadFile(filepath.Join(ws, "note.txt")); err != nil || string(b) != "hi\n" {
				t.Fatalf("note.txt = %q, %v", b, err)
			}
		})
	}
}

// TestNonZeroExit: a failing command is an error result carrying its
// output and exit code.
func TestNonZeroExit(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, _ := newTool(t, m, Options{})
			res := execute(t, context.Background(), tool, BashArgs{Command: "echo out; echo oops >&2; exit 3"})
			if !res.IsError || meta[int](t, res, "exit_code") != 3 || !strings.HasPrefix(res.Output, "out\noops\n[exit code 3 · ") {
				t.Fatalf("result = %+v", res)
			}
			res = execute(t, context.Background(), tool, BashArgs{Command: "true"})
			if res.IsError || !strings.HasPrefix(res.Output, "(no output)\n[exit code 0 · ") {
				t.Fatalf("result = %+v", res)
			}
		})
	}
}
