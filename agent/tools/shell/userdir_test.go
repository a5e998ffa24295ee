package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// TestPerUserWorkspace: with UserDir, each user's commands run in their own
// directory and cannot see another user's files.
func TestPerUserWorkspace(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.name, func(t *testing.T) {
			tool, ws := newTool(t, m, Options{UserDir: func(uid int64) string { return fmt.Sprintf("u%d", uid) }})
			run := func(uid int64, cmd string) tools.Result {
				raw, _ := json.Marshal(BashArgs{Command: cmd})
				res, err := tool.Execute(context.Background(), &tools.Context{UserID: uid}, raw)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			if res := run(1, "echo secret > mine.txt && pwd"); res.IsError || !strings.Contains(res.Output, filepath.Join(ws, "u1")) {
				t.Fatalf("user 1: %+v", res)
			}
			if _, err := os.Stat(filepath.Join(ws, "u1", "mine.txt")); err != nil {
				t.Fatal(err)
			}
			res := run(2, "cat mine.txt ../u1/mine.txt 2>&1; ls")
			if strings.Contains(res.Output, "secret") && m.sandbox != SandboxOff {
				t.Fatalf("user 2 read user 1's file in the sandbox: %s", res.Output)
			}
			if !strings.Contains(run(2, "pwd").Output, filepath.Join(ws, "u2")) {
				t.Fatal("user 2 not in their own directory")
			}
		})
	}
}
