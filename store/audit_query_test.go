package store

import (
	"context"
	"fmt"
	"testing"
)

func TestQueryAudit(t *testing.T) {
	st := newStore(t, nil)
	ctx := context.Background()
	alice, err := st.CreateUser(ctx, "alice", "x", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.CreateUser(ctx, "bob", "x", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := st.CreateAgentSession(ctx, alice.ID, "A")
	sb, _ := st.CreateAgentSession(ctx, bob.ID, "B")
	for i := range 7 {
		tool, status := "read_file", "ok"
		if i%2 == 1 {
			tool, status = "run_bash", "error"
		}
		if err := st.AppendAudit(ctx, &AuditEntry{SessionID: sa.ID, Turn: 1, Step: i, Tool: tool, ToolCallID: fmt.Sprint(i), Status: status}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.AppendAudit(ctx, &AuditEntry{SessionID: sb.ID, Turn: 1, Tool: "search_ads", ToolCallID: "b", Status: "ok"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		f     AuditFilter
		steps []int
		more  bool
	}{
		{"alice all", AuditFilter{UserID: alice.ID}, []int{6, 5, 4, 3, 2, 1, 0}, false},
		{"page 1", AuditFilter{UserID: alice.ID, Limit: 3}, []int{6, 5, 4}, true},
		{"page 3", AuditFilter{UserID: alice.ID, Limit: 3, Offset: 6}, []int{0}, false},
		{"tool", AuditFilter{UserID: alice.ID, Tool: "run_bash"}, []int{5, 3, 1}, false},
		{"status", AuditFilter{UserID: alice.ID, Status: "ok", Limit: 2}, []int{6, 4}, true},
		{"bob's session as alice", AuditFilter{UserID: alice.ID, SessionID: sb.ID}, nil, false},
		{"everyone, bob's tool", AuditFilter{Tool: "search_ads"}, []int{0}, false},
	} {
		rows, more, err := st.QueryAudit(ctx, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		var steps []int
		for _, r := range rows {
			steps = append(steps, r.Step)
		}
		if fmt.Sprint(steps) != fmt.Sprint(tc.steps) || more != tc.more {
			t.Errorf("%s: steps %v more %v, want %v %v", tc.name, steps, more, tc.steps, tc.more)
		}
	}
	rows, _, _ := st.QueryAudit(ctx, AuditFilter{Tool: "search_ads"})
	if rows[0].Username != "bob" || rows[0].SessionTitle != "B" {
		t.Fatalf("row %+v", rows[0])
	}
	tools, err := st.AuditTools(ctx, alice.ID)
	if err != nil || fmt.Sprint(tools) != "[read_file run_bash]" {
		t.Fatalf("alice's tools %v %v", tools, err)
	}
	if tools, _ := st.AuditTools(ctx, 0); len(tools) != 3 {
		t.Fatalf("all tools %v", tools)
	}
}
