package store

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// TestMCPSession: one MCP session per user, created once even by
// concurrent first calls, hidden from the research list and history
// search, and able to hold audit rows.
func TestMCPSession(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, nil)
	vera, err := st.CreateFirstUser(ctx, "vera", "h")
	if err != nil {
		t.Fatal(err)
	}
	otto, err := st.CreateUser(ctx, "otto", "h", RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	research, err := st.CreateAgentSession(ctx, vera.ID, "MCP servers in astronomy")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := st.MCPSession(ctx, vera.ID)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = s.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || id == "" {
			t.Fatalf("several MCP sessions for one user: %v", ids)
		}
	}
	s, err := st.MCPSession(ctx, vera.ID)
	if err != nil || s.ID != ids[0] || s.Title != MCPSessionTitle || s.UserID != vera.ID {
		t.Fatalf("%+v %v", s, err)
	}
	if o, err := st.MCPSession(ctx, otto.ID); err != nil || o.ID == s.ID {
		t.Fatalf("otto shares vera's MCP session: %+v %v", o, err)
	}
	if got, err := st.AuditSession(ctx, vera.ID, s.ID); err != nil || got.ID != s.ID {
		t.Fatalf("the audit page cannot find it: %v", err)
	}
	if _, err := st.AuditSession(ctx, otto.ID, s.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("otto finds vera's MCP session for his audit filter: %v", err)
	}
	// It is no research session: no turns, renaming or deleting.
	if _, err := st.AgentSession(ctx, vera.ID, s.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the MCP session opens as a research session: %v", err)
	}
	if err := st.RenameAgentSession(ctx, vera.ID, s.ID, "mine"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("rename: %v", err)
	}
	if err := st.DeleteAgentSession(ctx, vera.ID, s.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete: %v", err)
	}
	if got, err := st.AgentSession(ctx, vera.ID, research.ID); err != nil || got.ID != research.ID {
		t.Fatalf("research session: %v", err)
	}
	list, err := st.ListAgentSessions(ctx, vera.ID, 0)
	if err != nil || len(list) != 1 || list[0].ID != research.ID {
		t.Fatalf("research list %+v %v", list, err)
	}
	hits, err := st.SearchHistory(ctx, vera.ID, "MCP", "", 0)
	if err != nil || len(hits) != 1 || hits[0].SessionID != research.ID {
		t.Fatalf("history hits %+v %v", hits, err)
	}
	if err := st.AppendAudit(ctx, &AuditEntry{SessionID: s.ID, AgentName: "mcp", Tool: "library_search", ToolCallID: "mcp-1", Status: "ok"}); err != nil {
		t.Fatal(err)
	}
	rows, _, err := st.QueryAudit(ctx, AuditFilter{UserID: vera.ID})
	if err != nil || len(rows) != 1 || rows[0].SessionTitle != MCPSessionTitle || rows[0].AgentName != "mcp" {
		t.Fatalf("audit %+v %v", rows, err)
	}
}
