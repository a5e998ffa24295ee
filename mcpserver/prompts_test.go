package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPrompts: the shipped skills are prompts with an optional task; an
// edited skill shows on the next request; requests are audited.
func TestPrompts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cs := f.connect(f.vera)
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Prompt{}
	for _, p := range list.Prompts {
		got[p.Name] = p
	}
	for _, name := range []string{"literature-review", "compare-measurements"} {
		p := got[name]
		if p == nil || p.Description == "" || p.Title == "" || len(p.Arguments) != 1 || p.Arguments[0].Name != "task" || p.Arguments[0].Required {
			t.Fatalf("prompt %s: %+v", name, p)
		}
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "literature-review", Arguments: map[string]string{"task": "What is known about NGC 1275?"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"Follow this research procedure (literature-review", "search_papers", "Task: What is known about NGC 1275?"} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt lacks %q:\n%s", want, msg)
		}
	}
	if res.Messages[0].Role != "user" {
		t.Fatalf("role %q", res.Messages[0].Role)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "literature-review", Arguments: map[string]string{"task": strings.Repeat("x", maxTaskChars+1)}}); err == nil {
		t.Fatal("a huge task was accepted")
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "../../etc/passwd"}); err == nil {
		t.Fatal("unknown prompt answered")
	}

	own := "---\nname: my-check\ndescription: Check a claim against the library.\n---\nSearch the library, then read.\n"
	if err := os.MkdirAll(filepath.Join(f.skills.Dir(), "my-check"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.skills.Dir(), "my-check", "SKILL.md"), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := f.connect(f.vera).GetPrompt(ctx, &mcp.GetPromptParams{Name: "my-check"}); err != nil ||
		!strings.Contains(res.Messages[0].Content.(*mcp.TextContent).Text, "Search the library, then read.") {
		t.Fatalf("a new skill is not a prompt on the next request: %v", err)
	}
	sess, _ := f.st.MCPSession(ctx, f.vera.ID)
	rows, _ := f.st.AuditForSession(ctx, sess.ID)
	if len(rows) != 4 || rows[0].Tool != "get_prompt" || rows[0].OutputPreview != "literature-review" || rows[1].Status != "error" {
		t.Fatalf("audit %+v", rows)
	}
}
