package mcpserver

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/store"
)

// Resource URIs. A paper is astro://papers/{id} (its parsed Markdown, or
// its metadata and abstract while it is not parsed); the user's notes on it
// are astro://papers/{id}/notes. Both are Markdown.
const (
	paperTemplate = "astro://papers/{id}"
	notesTemplate = "astro://papers/{id}/notes"
	markdownType  = "text/markdown"
)

// resourceRE is the only URI shape read: a positive decimal id of at most
// 18 digits (so it fits int64), optionally /notes. Anything else (path
// segments, encodings, signs) is not found.
var resourceRE = regexp.MustCompile(`^astro://papers/([1-9][0-9]{0,17})(/notes)?$`)

// libraryPageSize is how many papers one resources/list page holds.
const libraryPageSize = 50

func (s *Service) addResources(srv *mcp.Server, u store.User) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: paperTemplate, Name: "paper", Title: "Paper (Markdown)",
		Description: "A paper of the library by its library number: the parsed full text as Markdown, or its metadata and abstract until it is parsed.",
		MIMEType:    markdownType}, s.readResource(u))
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: notesTemplate, Name: "paper-notes", Title: "My notes on a paper",
		Description: "The user's highlights and notes on a library paper, oldest first, as Markdown.",
		MIMEType:    markdownType}, s.readResource(u))
}

// readResource reads a paper or the user's notes on it.
func (s *Service) readResource(u store.User) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		m := resourceRE.FindStringSubmatch(uri)
		if m == nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		p, err := s.st.PaperByID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, err
		}
		var text string
		if m[2] == "" {
			text, err = s.paperMarkdown(ctx, p)
		} else {
			text, err = s.notesMarkdown(ctx, u, p)
		}
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: markdownType, Text: text}}}, nil
	}
}

// paperMarkdown is the parsed text, or a header and the abstract with a
// note that the full text is not parsed yet.
func (s *Service) paperMarkdown(ctx context.Context, p store.Paper) (string, error) {
	c, err := s.st.PaperContent(ctx, p.ID)
	if err == nil {
		return c.Markdown, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", p.Title, describe(p))
	if p.Abstract != "" {
		fmt.Fprintf(&b, "## Abstract\n\n%s\n\n", p.Abstract)
	}
	fmt.Fprintf(&b, "*The full text of library paper #%d is not parsed yet (parse status: %s); this is its metadata and abstract.*\n", p.ID, p.ParseStatus)
	return b.String(), nil
}

// notesMarkdown lists u's notes on p; other users' notes are never read.
func (s *Service) notesMarkdown(ctx context.Context, u store.User, p store.Paper) (string, error) {
	notes, err := s.st.PaperNotes(ctx, u.ID, p.ID)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Notes on %s (library #%d)\n\n", p.Title, p.ID)
	if len(notes) == 0 {
		b.WriteString("No notes yet.\n")
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "## %s %d — %s\n\n", n.Kind, n.ID, n.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
		if n.Quote != "" {
			fmt.Fprintf(&b, "> %s\n\n", strings.ReplaceAll(strings.TrimSpace(n.Quote), "\n", "\n> "))
		}
		if n.Body != "" {
			fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(n.Body))
		}
	}
	return b.String(), nil
}

// describe is a paper's author, year and journal line.
func describe(p store.Paper) string {
	var parts []string
	switch n := len(p.Authors); {
	case n > 3:
		parts = append(parts, p.Authors[0]+" et al.")
	case n > 0:
		parts = append(parts, strings.Join(p.Authors, "; "))
	}
	if p.Year != nil {
		parts = append(parts, strconv.Itoa(*p.Year))
	}
	if p.Journal != "" {
		parts = append(parts, p.Journal)
	}
	return strings.Join(parts, ", ")
}

// listLibrary answers resources/list with the library, newest first,
// libraryPageSize papers a page; the cursor is opaque to clients.
func (s *Service) listLibrary(u store.User) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			r, ok := req.(*mcp.ListResourcesRequest)
			if !ok {
				return next(ctx, method, req)
			}
			offset, err := decodeCursor(r.Params.Cursor)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
			}
			papers, err := s.st.ListPapersPage(ctx, store.PaperFilter{Sort: store.SortNewest, Limit: libraryPageSize + 1, Offset: offset})
			if err != nil {
				return nil, err
			}
			res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
			if len(papers) > libraryPageSize {
				papers, res.NextCursor = papers[:libraryPageSize], encodeCursor(offset+libraryPageSize)
			}
			for _, p := range papers {
				desc := describe(p)
				if p.ParseStatus != "parsed" {
					desc += " — metadata and abstract only (not parsed)"
				}
				res.Resources = append(res.Resources, &mcp.Resource{URI: fmt.Sprintf("astro://papers/%d", p.ID),
					Name: fmt.Sprintf("paper-%d", p.ID), Title: p.Title, Description: desc, MIMEType: markdownType})
			}
			return res, nil
		}
	}
}

// maxOffset bounds how deep a cursor may point.
const maxOffset = 10_000_000

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("papers:" + strconv.Itoa(offset)))
}

func decodeCursor(c string) (int, error) {
	if c == "" {
		return 0, nil
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(raw), "papers:"))
	if err != nil || n < 0 || n > maxOffset || string(raw) != "papers:"+strconv.Itoa(n) {
		return 0, errors.New("bad cursor")
	}
	return n, nil
}
