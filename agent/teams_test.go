package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// byQuestion scripts agents that run side by side: each request is
// answered from the queue of the turn's question.
type byQuestion struct {
	mu     sync.Mutex
	queues map[string][]llmtest.Turn
	seen   map[string][]llmtest.RecordedRequest
}

func (b *byQuestion) handle(req llmtest.RecordedRequest) llmtest.Turn {
	b.mu.Lock()
	defer b.mu.Unlock()
	// The turn's question is the last user message with a scripted prefix
	// (nudges and notifications come after it).
	question := ""
	for _, m := range req.Messages {
		for prefix := range b.queues {
			if m.Role == "user" && strings.HasPrefix(m.Content, prefix) {
				question = prefix
			}
		}
	}
	if q := b.queues[question]; len(q) > 0 {
		b.queues[question] = q[1:]
		b.seen[question] = append(b.seen[question], req)
		return q[0]
	}
	return llmtest.Text("(unscripted)")
}

func (b *byQuestion) requests(prefix string) []llmtest.RecordedRequest {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seen[prefix]
}

func TestTeamSpawnMessageInboxAndWake(t *testing.T) {
	noLeaks(t)
	h := newHarness(t)
	s := h.session()
	ctx := context.Background()
	script := &byQuestion{seen: map[string][]llmtest.RecordedRequest{}, queues: map[string][]llmtest.Turn{
		"Form a team": {
			llmtest.ToolCalls(llmtest.Call{ID: "l1", Name: "load_tool", Args: `{"names":["spawn_teammate","send_teammate_message"]}`}),
			llmtest.ToolCalls(llmtest.Call{ID: "sp", Name: "spawn_teammate",
				Args: `{"name":"reader","role":"reads the X-ray papers","task":"Find the Chandra papers on Perseus."}`}),
			llmtest.Text("The reader is on it."),
		},
		`You are teammate "reader"`: {
			llmtest.ToolCalls(llmtest.Call{ID: "t1", Name: "load_tool", Args: `{"names":["send_teammate_message"]}`}),
			llmtest.ToolCalls(llmtest.Call{ID: "t2", Name: "send_teammate_message",
				Args: `{"to":"lead","text":"Fabian et al. 2006 (2006MNRAS.366..417F) found ripples."}`}),
			llmtest.Text("Reported the ripples paper to the lead."),
		},
		"What did the reader find": {
			llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "check_team_inbox", Args: `{}`}),
			llmtest.ToolCalls(llmtest.Call{ID: "c2", Name: "check_team_inbox", Args: `{}`},
				llmtest.Call{ID: "l2", Name: "load_tool", Args: `{"names":["send_teammate_message"]}`}),
			llmtest.ToolCalls(llmtest.Call{ID: "m1", Name: "send_teammate_message", Args: `{"to":"reader","text":"Now the sound speed, please."}`}),
			llmtest.Text("Asked the reader for more."),
		},
		"New messages in your team inbox": {
			llmtest.ToolCalls(llmtest.Call{ID: "w1", Name: "check_team_inbox", Args: `{}`}),
			llmtest.Text("Will look up the sound speed."),
		},
	}}
	h.fake.Handle(script.handle)
	h.runTurn(s, "Form a team for the Perseus cluster")
	sessions, err := h.st.ListAgentSessions(ctx, h.userID, 10)
	if err != nil || len(sessions) != 2 {
		t.Fatalf("sessions %d %v", len(sessions), err)
	}
	mate := sessions[0].ID
	if mate == s {
		mate = sessions[1].ID
	}
	h.wait(mate)
	if title := sessionTitle(t, h, mate); !strings.HasPrefix(title, "Teammate reader") {
		t.Fatalf("the teammate's session is titled %q", title)
	}
	// The lead reads the report once.
	h.runTurn(s, "What did the reader find?")
	reqs := script.requests("What did the reader find")
	first, second := toolOutput(reqs[1], "c1"), toolOutput(reqs[2], "c2")
	if !strings.Contains(first, "[message from reader") || !strings.Contains(first, "2006MNRAS.366..417F") {
		t.Fatalf("first check: %q", first)
	}
	if second != "No new messages." {
		t.Fatalf("second check: %q", second)
	}
	// The message to the idle teammate started a turn in its session.
	h.wait(mate)
	woken := script.requests("New messages in your team inbox")
	if len(woken) != 2 || !strings.Contains(toolOutput(woken[1], "w1"), "Now the sound speed, please.") {
		t.Fatalf("the woken teammate's requests: %d (send said %q)", len(woken), toolOutput(reqs[3], "m1"))
	}
	if !strings.Contains(toolOutput(reqs[3], "m1"), "Started reader to read it.") {
		t.Fatalf("send result: %q", toolOutput(reqs[3], "m1"))
	}
	for _, f := range []string{"members.json", "inbox/lead.jsonl", "inbox/reader.jsonl", "cursor/lead", "cursor/reader"} {
		if _, err := os.Stat(filepath.Join(h.dir, "teams", s, f)); err != nil {
			t.Errorf("team file %s: %v", f, err)
		}
	}
	binding := filepath.Join(h.dir, "teams", "by-session", mate+".json")
	if _, err := os.Stat(binding); err != nil {
		t.Fatalf("teammate binding: %v", err)
	}
	// Deleting the sessions removes their team files.
	for _, id := range []string{mate, s} {
		if err := h.rt.ForgetSession(id); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(h.dir, "teams", s), binding} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind after the sessions were deleted: %v", p, err)
		}
	}
	if err := h.rt.ForgetSession("never-had-a-team"); err != nil {
		t.Fatalf("a session without team files: %v", err)
	}
}

func sessionTitle(t *testing.T, h *harness, id string) string {
	t.Helper()
	sess, err := h.st.AgentSession(context.Background(), h.userID, id)
	if err != nil {
		t.Fatal(err)
	}
	return sess.Title
}

// toolOutput is the result of call id in a request's messages.
func toolOutput(req llmtest.RecordedRequest, id string) string {
	for _, m := range req.Messages {
		if m.ToolCallID == id {
			return m.Content
		}
	}
	return ""
}
