// Package mcpserver offers the library and the research tools to other
// assistants over the Model Context Protocol (O6): the agent's own
// tools (the same implementations, run through agent.Runtime.RunExternal,
// so they are validated, hooked, permission-checked, audited as the "mcp"
// agent and counted in the metrics), each parsed paper and the user's notes
// on it as resources, and the shipped skills as prompts.
//
// The HTTP layer authenticates the caller on every request and asks
// ServerFor for the server bound to that user, served statelessly (no MCP
// session outlives a request), so a revoked token or a disabled account
// stops at once.
// Bridge connects a stdio client to such a server over HTTP.
package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/store"
)

// Deps are what the MCP server is built from.
type Deps struct {
	// Runtime runs and audits the tool calls; its registry is the tool set.
	Runtime *agent.Runtime
	// Store holds the papers, their text, the notes and the MCP sessions.
	Store *store.Store
	// Skills become prompts (nil: no prompts).
	Skills *skills.Library
	// Version is reported to clients.
	Version string
	Log     *slog.Logger
}

// Service builds per-user MCP servers. Safe for concurrent use.
type Service struct {
	rt      *agent.Runtime
	st      *store.Store
	skills  *skills.Library
	version string
	log     *slog.Logger
	tools   []offeredTool

	mu      sync.Mutex
	servers map[int64]cachedServer // by user id
}

// cachedServer is a user's server and the prompts it was built with.
type cachedServer struct {
	srv     *mcp.Server
	prompts string
}

// New binds the exposed tools to the runtime's registry. It fails when a
// tool's schema cannot be offered.
func New(d Deps) (*Service, error) {
	offered, err := bindTools(d.Runtime.Tools())
	if err != nil {
		return nil, err
	}
	log := d.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{rt: d.Runtime, st: d.Store, skills: d.Skills, version: d.Version, log: log, tools: offered,
		servers: map[int64]cachedServer{}}, nil
}

// instructions tell the client's model what this server is for.
const instructions = `AstroResearch: the user's own astronomy library and research tools.
Use library_search to find papers the user already has (each has a library number #N), get_paper_content to read a parsed paper,
rag_search to answer questions from the library's passages with citations, search_papers and get_paper_metadata for ADS and arXiv,
query_target to resolve object names with CDS Sesame, import_paper to add a paper and save_note to leave the user a note.
Parsed papers are resources astro://papers/{id} (Markdown) and astro://papers/{id}/notes.
Downloading and parsing papers happens in the AstroResearch web app (the paper's page), not through this server.`

// ServerFor returns an MCP server acting for u: tools, resources and
// prompts as of now. Servers are kept per user (building one costs a few
// milliseconds, mostly the SDK checking tool schemas) and rebuilt when the
// skills directory's prompts change, so an edited skill shows on the next
// request. A server may serve many requests at once.
func (s *Service) ServerFor(ctx context.Context, u store.User) *mcp.Server {
	list := s.skillList(ctx)
	sig := promptSignature(list)
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.servers[u.ID]; ok && c.prompts == sig {
		return c.srv
	}
	srv := s.build(u, list)
	s.servers[u.ID] = cachedServer{srv: srv, prompts: sig}
	return srv
}

// build makes u's server with the given skills as prompts.
func (s *Service) build(u store.User, list []skills.Skill) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "astroresearch", Title: "AstroResearch", Version: s.version},
		&mcp.ServerOptions{Instructions: instructions, Logger: s.log,
			// Tools, resources and prompts always, even for a user with no
			// skills; no list-changed notifications (each request gets a
			// stateless server) and no logging.
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{},
				Resources: &mcp.ResourceCapabilities{}, Prompts: &mcp.PromptCapabilities{}}})
	for _, t := range s.tools {
		srv.AddTool(t.def, s.handler(u, t))
	}
	s.addResources(srv, u)
	s.addPrompts(srv, list)
	srv.AddReceivingMiddleware(requestScope, s.audit(u), s.listLibrary(u))
	return srv
}

// audit records resource reads, library listings, prompt requests and
// refused tool calls like tool calls (tool calls record themselves through
// the runtime); listings
// of tools, templates and prompts read no user data and are not recorded.
func (s *Service) audit(u store.User) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			var name, subject string
			switch r := req.(type) {
			case *mcp.ReadResourceRequest:
				name, subject = "read_resource", r.Params.URI
			case *mcp.GetPromptRequest:
				name, subject = "get_prompt", r.Params.Name
			case *mcp.CallToolRequest:
				// A call the SDK refuses before any tool runs (an unknown
				// tool) is recorded here; tools record their own calls.
				res, err := next(ctx, method, req)
				if err != nil {
					s.record(ctx, u, r.Params.Name, "error", fmt.Sprintf("%s: %v", r.Params.Name, err), 0)
				}
				return res, err
			case *mcp.ListResourcesRequest:
				name, subject = "list_resources", "library page"
				if r.Params != nil && r.Params.Cursor != "" {
					subject += " after cursor " + r.Params.Cursor
				}
			default:
				return next(ctx, method, req)
			}
			start := time.Now()
			res, err := next(ctx, method, req)
			status, output := "ok", subject
			if err != nil {
				status, output = "error", fmt.Sprintf("%s: %v", subject, err)
			}
			s.record(ctx, u, name, status, output, time.Since(start))
			return res, err
		}
	}
}

// record writes one operation of u's MCP clients to the audit log and the
// metrics.
func (s *Service) record(ctx context.Context, u store.User, name, status, output string, elapsed time.Duration) {
	sess, err := s.st.MCPSession(ctx, u.ID)
	if err != nil {
		s.log.Error("mcp: audit", "err", err)
		return
	}
	s.rt.RecordExternal(ctx, agent.ExternalRecord{UserID: u.ID, SessionID: sess.ID, Agent: agent.MCPAgent,
		Name: name, CallID: "mcp_" + uuid.NewString(), Output: output, Status: status, Elapsed: elapsed})
}
