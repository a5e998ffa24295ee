package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

type externalArgs struct {
	Text string `json:"text" maxLength:"20"`
}

// TestRunExternal: an external call runs the agent's tool with its
// validation, hooks, permission rules, timeout and panic recovery, and is
// audited and counted as the calling agent.
func TestRunExternal(t *testing.T) {
	ctx := context.Background()
	echo := tools.New("echo_text", "Echo.", func(ctx context.Context, tc *tools.Context, a externalArgs) (tools.Result, error) {
		tc.Report("echoing")
		switch a.Text {
		case "panic":
			panic("boom")
		case "fail":
			return tools.Result{}, errors.New("disk on fire")
		case "sleep":
			<-ctx.Done()
			return tools.Result{}, ctx.Err()
		case "whoami":
			return tools.Result{Output: tc.AgentName + " " + tc.SessionID}, nil
		}
		return tools.Result{Output: "echo: " + a.Text}, nil
	}, tools.WithReadOnly())
	guarded := tools.New("guarded", "Guarded.", func(ctx context.Context, tc *tools.Context, a externalArgs) (tools.Result, error) {
		return tools.Result{Output: "ran"}, nil
	})
	h := newHarness(t, withTools(echo, guarded), withConfig(func(c *Config) { c.ToolTimeout = 200 * time.Millisecond }))
	h.hooks.Register(HookPreToolUse, "no-secrets", HookFunc(func(ctx context.Context, in HookInput) (HookDecision, error) {
		if strings.Contains(string(in.Arguments), "secret") {
			return HookDecision{Block: true, Reason: "no secrets"}, nil
		}
		return HookDecision{}, nil
	}))
	if _, err := h.st.PutPermissionRule(ctx, h.userID, "guarded", "*", "deny"); err != nil {
		t.Fatal(err)
	}
	sess, err := h.st.MCPSession(ctx, h.userID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool            tools.Tool
		args, status    string
		want            string
		wantProgress    bool
		wantHookFailure bool
	}{
		{echo, `{"text":"hi"}`, "ok", "echo: hi", true, false},
		{echo, ``, "invalid", "Invalid arguments for echo_text", false, true},
		{echo, `{"text":"` + strings.Repeat("x", 21) + `"}`, "invalid", "Invalid arguments", false, true},
		{echo, `{"text":"secret"}`, "blocked", "This call was blocked: no secrets.", false, true},
		{guarded, `{"text":"x"}`, "denied", "Permission denied: a permission rule denies this tool.", false, true},
		{echo, `{"text":"panic"}`, "error", "echo_text failed: the tool crashed (boom)", true, true},
		{echo, `{"text":"fail"}`, "error", "disk on fire", true, true},
		{echo, `{"text":"sleep"}`, "timeout", "timed out after 200ms", true, true},
		{echo, `{"text":"whoami"}`, "ok", "mcp " + sess.ID, true, false},
	}
	for i, tt := range tests {
		var progress []string
		out := h.rt.RunExternal(ctx, ExternalCall{UserID: h.userID, SessionID: sess.ID, Agent: MCPAgent, Tool: tt.tool,
			CallID: "mcp-" + string(rune('a'+i)), Args: json.RawMessage(tt.args), Progress: func(s string) { progress = append(progress, s) }})
		if out.Status != tt.status || out.Result.IsError != (tt.status != "ok") || !strings.Contains(out.Result.Output, tt.want) {
			t.Errorf("%s %s: %+v", tt.tool.Name(), tt.args, out)
		}
		if (len(progress) > 0) != tt.wantProgress {
			t.Errorf("%s %s: progress %v", tt.tool.Name(), tt.args, progress)
		}
	}
	rows, err := h.st.AuditForSession(ctx, sess.ID)
	if err != nil || len(rows) != len(tests) {
		t.Fatalf("audit rows %d, want %d (%v)", len(rows), len(tests), err)
	}
	for i, r := range rows {
		if r.AgentName != MCPAgent || r.Status != tests[i].status || r.Tool != tests[i].tool.Name() {
			t.Errorf("audit row %d: %+v", i, r)
		}
	}
	tot := h.metrics.Totals()
	if tot.ToolCalls["echo_text"] != 8 || tot.ToolCalls["guarded"] != 1 || tot.ToolErrors != 7 || tot.MCPCalls != 9 || tot.MCPErrors != 7 {
		t.Fatalf("metrics %+v", tot)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if out := h.rt.RunExternal(cancelled, ExternalCall{UserID: h.userID, SessionID: sess.ID, Agent: MCPAgent, Tool: echo,
		CallID: "mcp-z", Args: json.RawMessage(`{"text":"sleep"}`)}); out.Status != "cancelled" {
		t.Fatalf("cancelled call: %+v", out)
	}

	h.rt.RecordExternal(ctx, ExternalRecord{UserID: h.userID, SessionID: sess.ID, Agent: MCPAgent, Name: "read_resource",
		CallID: "mcp-r", Output: "astro://papers/1", Status: "ok", Elapsed: time.Millisecond})
	rows, _ = h.st.AuditForSession(ctx, sess.ID)
	if last := rows[len(rows)-1]; last.Tool != "read_resource" || last.Status != "ok" || last.OutputPreview != "astro://papers/1" {
		t.Fatalf("recorded %+v", last)
	}
	if names := h.rt.Tools().Names(); !containsName(names, "library_search") || containsName(names, "subagent") {
		t.Fatalf("Tools() = %v", names)
	}
}

func containsName(names []string, n string) bool { return slices.Contains(names, n) }
