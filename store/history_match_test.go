package store

import (
	"context"
	"testing"
)

func TestHistoryMatch(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	u, _ := s.CreateFirstUser(ctx, "vera", "h")
	a, _ := s.CreateAgentSession(ctx, u.ID, "Perseus cluster")
	if err := s.AppendAgentMessages(ctx, []*AgentMessage{{SessionID: a.ID, Turn: 1, AgentName: "lead", Role: "user",
		Content: "abell abell1689 abell2218 perseid"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, want string }{
		{"", ""},
		{"NGC 12", `"NGC" AND "12"`},      // two letters: no prefix
		{"cool cor", `"cool" AND "cor"*`}, // prefix index
		{"abell", `("abell" OR "abell1689" OR "abell2218")`}, // expanded from the messages
		{"perse", `("perseid" OR "perseus")`},                // and the session titles
		{"galaxy zzzzz", `"galaxy" AND "zzzzz"*`},            // no completion: a cheap empty prefix
		{`a OR "b"`, `"a" AND "OR" AND "b"`},                 // operators are inert
	}
	for _, tt := range tests {
		got, err := s.historyMatch(ctx, tt.query)
		if err != nil || got != tt.want {
			t.Errorf("historyMatch(%q) = %q, %v; want %q", tt.query, got, err, tt.want)
		}
	}
}
