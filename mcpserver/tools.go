package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// hint is a set of a tool's MCP annotations.
type hint uint8

// The annotations (MCP ToolAnnotations); a tool with none adds to the
// user's data without removing or overwriting anything.
const (
	readOnly    hint = 1 << iota // changes nothing
	destructive                  // may remove or overwrite data
	idempotent                   // a repeated call changes nothing more
	openWorld                    // talks to external services (ADS, arXiv, CDS)
)

// annotations are h as MCP tool annotations.
func (h hint) annotations(title string) *mcp.ToolAnnotations {
	destructive, openWorld := h&destructive != 0, h&openWorld != 0
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: h&readOnly != 0, DestructiveHint: &destructive,
		IdempotentHint: h&idempotent != 0, OpenWorldHint: &openWorld}
}

// exposure is one agent tool offered over MCP.
type exposure struct {
	name, title string
	hints       hint
	// output is the schema of the structured output; decode turns the
	// tool's metadata (plus "text") into that output.
	output *jsonschema.Schema
	decode func(raw []byte) (any, error)
}

// expose describes the agent tool name, offered over MCP with title and
// hints; its structured output has type O.
func expose[O any](name, title string, h hint) exposure {
	return exposure{name: name, title: title, hints: h, output: mustSchema[O](),
		decode: func(raw []byte) (any, error) {
			var out O
			if err := json.Unmarshal(raw, &out); err != nil {
				return nil, err
			}
			return out, nil
		}}
}

// exposedTools lists the agent tools offered over MCP, in listing order.
// Offering another agent tool is one line here: its registry name, a title
// for people, its hints and the type of its structured output. Tools that
// write files or run commands are never listed. A listed tool that the
// agent's registry lacks (not configured) is left out.
func exposedTools() []exposure {
	return []exposure{
		expose[SearchPapersOutput]("search_papers", "Search ADS and arXiv", readOnly|openWorld),
		expose[PaperMetadataOutput]("get_paper_metadata", "Paper metadata", readOnly|openWorld),
		expose[LibrarySearchOutput]("library_search", "Search my library", readOnly),
		expose[RagSearchOutput]("rag_search", "Ask my library (cited passages)", readOnly),
		expose[PaperContentOutput]("get_paper_content", "Read a paper", readOnly),
		expose[TargetOutput]("query_target", "Resolve an object (CDS Sesame)", readOnly|openWorld),
		expose[NoteOutput]("save_note", "Save a note on a paper", 0),
		expose[ImportOutput]("import_paper", "Add a paper to my library", idempotent|openWorld),
		expose[ObjectLiteratureOutput]("object_literature", "What is known about an object", readOnly|openWorld),
		expose[CompareOutput]("compare_measurements", "Compare reported values", readOnly),
	}
}

func mustSchema[O any]() *jsonschema.Schema {
	s, err := jsonschema.For[O](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: output schema of %T: %v", *new(O), err)) // a programming error every test catches
	}
	return s
}

// offeredTool is an exposure bound to its agent tool, ready to add to a
// server.
type offeredTool struct {
	exposure
	tool     tools.Tool
	def      *mcp.Tool
	resolved *jsonschema.Resolved
}

// bindTools binds the exposures to the tools of reg, in order.
func bindTools(reg *tools.Registry) ([]offeredTool, error) {
	var out []offeredTool
	for _, x := range exposedTools() {
		t, ok := reg.Get(x.name)
		if !ok {
			continue
		}
		var in jsonschema.Schema
		if err := json.Unmarshal(t.Parameters(), &in); err != nil {
			return nil, fmt.Errorf("mcpserver: input schema of %s: %w", x.name, err)
		}
		resolved, err := x.output.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: output schema of %s: %w", x.name, err)
		}
		def := &mcp.Tool{Name: x.name, Title: x.title, Description: t.Description(), InputSchema: &in, OutputSchema: x.output,
			Annotations: x.hints.annotations(x.title)}
		out = append(out, offeredTool{exposure: x, tool: t, def: def, resolved: resolved})
	}
	return out, nil
}

// maxToolText caps the text of one tool result (the tools page their own
// output; this only guards the transport).
const maxToolText = 200_000

// handler runs the tool for u through the agent runtime: audited as the mcp
// agent in u's MCP session, with progress notifications when the client
// asked for them.
func (s *Service) handler(u store.User, t offeredTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sess, err := s.st.MCPSession(ctx, u.ID)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
		out := s.rt.RunExternal(ctx, agent.ExternalCall{UserID: u.ID, SessionID: sess.ID, Agent: agent.MCPAgent,
			Tool: t.tool, CallID: "mcp_" + uuid.NewString(), Args: req.Params.Arguments, Progress: progress(ctx, req)})
		res := &mcp.CallToolResult{IsError: out.Result.IsError,
			Content: []mcp.Content{&mcp.TextContent{Text: textcut.Prefix(out.Result.Output, maxToolText)}}}
		if !res.IsError {
			structured, err := t.structured(out.Result)
			if err != nil {
				s.log.Error("mcp: structured output does not fit its schema", "tool", t.name, "err", err)
				return &mcp.CallToolResult{IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: t.name + " produced output this server could not encode; the call was logged."}}}, nil
			}
			res.StructuredContent = structured
		}
		return res, nil
	}
}

// structured is the tool's structured output: its metadata plus "text",
// decoded into the output type and checked against the output schema.
func (t offeredTool) structured(r tools.Result) (json.RawMessage, error) {
	m := maps.Clone(r.Metadata)
	if m == nil {
		m = map[string]any{}
	}
	m["text"] = r.Output
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	v, err := t.decode(raw)
	if err != nil {
		return nil, err
	}
	if raw, err = json.Marshal(v); err != nil {
		return nil, err
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return nil, err
	}
	if err := t.resolved.Validate(instance); err != nil {
		return nil, err
	}
	return raw, nil
}

// progress forwards a tool's progress lines as MCP progress notifications
// when the request carries a progress token; nil otherwise.
func progress(ctx context.Context, req *mcp.CallToolRequest) func(string) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	n := 0.0
	return func(text string) {
		n++
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: n, Message: text})
	}
}
