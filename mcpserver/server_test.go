package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/store"
)

// TestToolsListed: exactly the exposed agent tools, each with a title,
// hints and an output schema; nothing that writes files or runs commands.
func TestToolsListed(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(f.vera)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"search_papers", "get_paper_metadata", "library_search", "rag_search", "get_paper_content",
		"query_target", "save_note", "import_paper", "object_literature", "compare_measurements"}
	var got []string
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		a := tool.Annotations
		if tool.Title == "" || a == nil || a.Title != tool.Title || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil {
			t.Errorf("%s: title/annotations %+v", tool.Name, a)
		}
		if tool.OutputSchema == nil || tool.InputSchema == nil || tool.Description == "" {
			t.Errorf("%s: schemas or description missing", tool.Name)
		}
		readOnly := !slices.Contains([]string{"save_note", "import_paper"}, tool.Name)
		if a != nil && a.ReadOnlyHint != readOnly {
			t.Errorf("%s: readOnlyHint %v", tool.Name, a.ReadOnlyHint)
		}
	}
	// Bounds declared on an agent tool's arguments reach the client.
	for _, tool := range res.Tools {
		if tool.Name != "get_paper_content" {
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]struct {
				Minimum, Maximum *float64
			}
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		if l := in.Properties["limit"]; l.Minimum == nil || *l.Minimum != 500 || l.Maximum == nil || *l.Maximum != 40000 {
			t.Errorf("get_paper_content's limit bounds are not in its input schema: %s", raw)
		}
	}
	slices.Sort(want) // the SDK lists by name
	if !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	for _, name := range f.rt.Tools().Names() {
		if slices.Contains([]string{"run_bash", "file_write", "file_edit", "read_file", "grep_files", "glob_files",
			"download_paper", "parse_paper", "save_memory", "todo_write", "ask_user"}, name) && slices.Contains(got, name) {
			t.Errorf("%s must not be offered over MCP", name)
		}
	}
}

// TestEachTool calls every tool and checks its text, its structured content
// against the output schema the client was given, and its audit row.
func TestEachTool(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(f.vera)
	ctx := context.Background()
	schemas := map[string]*jsonschema.Resolved{}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		raw, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if schemas[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
	}
	id := fmt.Sprint(f.parsed.ID)
	tests := []struct {
		name  string
		args  map[string]any
		text  string
		check func(m map[string]any) bool
	}{
		{"search_papers", map[string]any{"query": "M87 shadow"}, "First M87 Event Horizon Telescope Results",
			func(m map[string]any) bool {
				return len(m["papers"].([]any)) == 1 && m["library"].(map[string]any)["0"] != nil
			}},
		{"object_literature", map[string]any{"name": "M87"}, "NGC 4486",
			func(m map[string]any) bool { return m["object"].(map[string]any)["name"] == "M 87" && m["text"] != "" }},
		{"compare_measurements", map[string]any{"quantity": "H0"}, "73.04",
			func(m map[string]any) bool { return m["rows"] == 1.0 && m["unit"] == "km s^-1 Mpc^-1" }},
		{"get_paper_metadata", map[string]any{"id": "1906.11238"}, "In the library (#" + id,
			func(m map[string]any) bool { return m["in_library"] == true }},
		{"library_search", map[string]any{"query": "perseus"}, "Dust in the Perseus cluster",
			func(m map[string]any) bool { return m["total"] == 1.0 && len(m["papers"].([]any)) == 1 }},
		{"rag_search", map[string]any{"query": "mass of M87"}, "[1] Shadows (2019)",
			func(m map[string]any) bool { return len(m["answer"].(map[string]any)["passages"].([]any)) == 1 }},
		{"get_paper_content", map[string]any{"id": "#" + id, "section": "Results"}, "6.5e9 solar masses",
			func(m map[string]any) bool {
				return m["engine"] == "arxiv-html" && strings.Contains(m["text"].(string), "6.5e9")
			}},
		{"query_target", map[string]any{"name": "M87"}, "NGC 4486",
			func(m map[string]any) bool { return m["object"].(map[string]any)["name"] == "M 87" }},
		{"save_note", map[string]any{"id": id, "quote": "6.5e9 solar masses", "note": "Check against stellar dynamics."}, "Saved a note",
			func(m map[string]any) bool {
				return m["note"].(map[string]any)["body"] == "Check against stellar dynamics."
			}},
		{"import_paper", map[string]any{"ref": "arXiv:2402.00003"}, "Added \"Preprint 2402.00003\"",
			func(m map[string]any) bool { return m["created"] == true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(cs, tt.name, tt.args)
			if res.IsError || !strings.Contains(text(res), tt.text) {
				t.Fatalf("%+v: %s", res, text(res))
			}
			m, ok := res.StructuredContent.(map[string]any)
			if !ok {
				t.Fatalf("structured content %T", res.StructuredContent)
			}
			if err := schemas[tt.name].Validate(m); err != nil {
				t.Fatalf("structured content does not fit the output schema: %v", err)
			}
			if !tt.check(m) {
				t.Fatalf("structured content %v", m)
			}
		})
	}
	sess, err := f.st.MCPSession(ctx, f.vera.ID)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.st.AuditForSession(ctx, sess.ID)
	if err != nil || len(rows) != len(tests) {
		t.Fatalf("audit: %d rows, want %d (%v)", len(rows), len(tests), err)
	}
	for i, r := range rows {
		if r.AgentName != agent.MCPAgent || r.Tool != tests[i].name || r.Status != "ok" || !strings.HasPrefix(r.ToolCallID, "mcp_") {
			t.Errorf("audit row %d: %+v", i, r)
		}
	}
	if tot := f.metrics.Totals(); tot.ToolCalls["save_note"] != 1 || tot.ToolCalls["search_papers"] != 1 || tot.MCPCalls != len(tests) {
		t.Fatalf("metrics %+v", tot.ToolCalls)
	}
	if p, err := f.st.PaperByIdentifier(ctx, store.PaperIDs{ArxivID: "2402.00003"}); err != nil || p.AddedBy == nil || *p.AddedBy != f.vera.ID {
		t.Fatalf("import_paper acted for whom? %+v %v", p, err)
	}
	notes, _ := f.st.PaperNotes(ctx, f.vera.ID, f.parsed.ID)
	if len(notes) != 2 || notes[1].Prefix == "" {
		t.Fatalf("save_note stored %+v", notes)
	}
}

// TestToolErrors: a tool's own refusal is an error result the model can
// read, audited with its status; bad arguments never reach the tool.
func TestToolErrors(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(f.vera)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"query_target", map[string]any{"name": "Nowhere 1"}, "was not found by Sesame"},
		{"query_target", map[string]any{}, "Invalid arguments for query_target"},
		{"library_search", map[string]any{"limit": 0.5}, "Invalid arguments"},
		{"get_paper_content", map[string]any{"id": "#999999"}, "is not in the library"},
		{"save_note", map[string]any{"id": fmt.Sprint(f.parsed.ID)}, "Give a quote, a note, or both."},
		{"import_paper", map[string]any{"ref": "not a reference"}, "is not an arXiv id, bibcode, DOI or paper URL"},
	}
	for _, tt := range tests {
		res := f.call(cs, tt.name, tt.args)
		if !res.IsError || !strings.Contains(text(res), tt.want) || res.StructuredContent != nil {
			t.Errorf("%s %v: %+v %s", tt.name, tt.args, res, text(res))
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_bash", Arguments: map[string]any{"command": "id"}}); err == nil {
		t.Fatal("run_bash answered over MCP")
	}
	sess, _ := f.st.MCPSession(context.Background(), f.vera.ID)
	// The refused run_bash, a protocol error, is audited too.
	rows, _ := f.st.AuditForSession(context.Background(), sess.ID)
	var statuses []string
	for _, r := range rows {
		statuses = append(statuses, r.Status)
	}
	if last := rows[len(rows)-1]; last.Tool != "run_bash" || last.AgentName != agent.MCPAgent {
		t.Errorf("the refused call is not audited: %+v", last)
	}
	if want := []string{"error", "invalid", "invalid", "error", "error", "error", "error"}; !slices.Equal(statuses, want) {
		t.Fatalf("audit statuses %v, want %v", statuses, want)
	}
}

// TestProgress: a tool's progress lines reach a client that asked for
// them with a progress token.
func TestProgress(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	got := make(chan string, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			got <- fmt.Sprint(r.Params.ProgressToken, " ", r.Params.Message)
		}})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := f.svc.ServerFor(ctx, f.vera).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "rag_search", Arguments: map[string]any{"query": "mass of M87"}}
	params.SetProgressToken("p1")
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	select {
	case msg := <-got:
		if msg != "p1 searching the library" {
			t.Fatalf("progress %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress notification")
	}
}
