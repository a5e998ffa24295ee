package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHostileInputs: path-like ids, huge arguments and another user's data
// give error results or nothing, never a file, a crash or someone else's
// notes.
func TestHostileInputs(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(f.otto)
	huge := strings.Repeat("a", 600_000)
	many := make([]int, 50_000)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"get_paper_content", map[string]any{"id": "../../etc/passwd"}, ""},
		{"get_paper_content", map[string]any{"id": "/etc/passwd"}, ""},
		{"get_paper_content", map[string]any{"id": "file:///etc/passwd"}, ""},
		{"get_paper_content", map[string]any{"id": "#-1"}, ""},
		{"get_paper_content", map[string]any{"id": "1/../2"}, ""},
		{"get_paper_content", map[string]any{"id": "#99999999999999999999"}, ""},
		{"get_paper_content", map[string]any{"id": huge}, "Invalid arguments"},
		{"get_paper_content", map[string]any{"id": "#1", "limit": 1_000_000}, "Invalid arguments"},
		{"get_paper_content", map[string]any{"id": "#1", "limit": 10}, "Invalid arguments"},
		{"get_paper_content", map[string]any{"id": "#1", "offset": -5}, "Invalid arguments"},
		{"library_search", map[string]any{"query": huge}, "Invalid arguments"},
		{"rag_search", map[string]any{"query": "x", "paper_ids": many, "limit": 1e9}, "Invalid arguments"},
		{"save_note", map[string]any{"id": "#1", "note": huge}, "Invalid arguments"},
		{"save_note", map[string]any{"id": "../../../etc/passwd", "note": "x"}, ""},
		{"import_paper", map[string]any{"ref": "file:///etc/passwd"}, "is not an arXiv id"},
		{"import_paper", map[string]any{"ref": "http://169.254.169.254/latest/meta-data"}, "is not an arXiv id"},
		{"query_target", map[string]any{"name": huge}, "Invalid arguments"},
		{"search_papers", map[string]any{"query": "x", "rows": 1 << 40}, "Invalid arguments"},
		{"library_search", map[string]any{"query": "x", "extra": "field"}, "Invalid arguments"},
	}
	for _, tt := range tests {
		res := f.call(cs, tt.name, tt.args)
		out := text(res)
		if !res.IsError || strings.Contains(out, "root:") || !strings.Contains(out, tt.want) || len(out) > 10_000 {
			t.Errorf("%s %.80v: %+v %.300s", tt.name, tt.args, res.IsError, out)
		}
	}
	// Otto reads the shared paper, but only his own notes on it.
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "astro://papers/1/notes"})
	if err != nil || strings.Contains(res.Contents[0].Text, "42 microarcseconds") {
		t.Fatalf("otto sees vera's note: %v %+v", err, res)
	}
	// A malformed arguments object is refused before any tool runs.
	if r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "library_search", Arguments: []int{1, 2}}); err == nil && !r.IsError {
		t.Fatal("an array was accepted as arguments")
	}
}
