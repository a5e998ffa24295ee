package astro

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/store"
)

// Parser converts library papers to Markdown (research/parse.Service).
type Parser interface {
	Parse(ctx context.Context, paperID int64, progress parse.Progress) (store.PaperContent, error)
}

// Contents reads parsed papers and the library (the store).
type Contents interface {
	PaperByIdentifier(ctx context.Context, ids store.PaperIDs) (store.Paper, error)
	PaperByID(ctx context.Context, id int64) (store.Paper, error)
	PaperContent(ctx context.Context, paperID int64) (store.PaperContent, error)
}

// Notes stores notes (the store).
type Notes interface {
	CreateNote(ctx context.Context, n store.PaperNote) (store.PaperNote, error)
}

// libraryPaper finds a paper already in the library by any reference
// (arXiv id, bibcode, DOI, URL, or "#12" / "12" for a library id).
func libraryPaper(ctx context.Context, c Contents, id string) (store.Paper, error) {
	if n, ok := libraryNumber(id); ok {
		return c.PaperByID(ctx, n)
	}
	ref, err := library.ParseRef(id)
	if err != nil {
		return store.Paper{}, err
	}
	ids := store.PaperIDs{Bibcode: ref.Value, DOI: ref.Value}
	if ref.Kind == library.RefArxiv {
		ids = store.PaperIDs{ArxivID: ref.Arxiv.Base}
	}
	return c.PaperByIdentifier(ctx, ids)
}

func libraryNumber(s string) (int64, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	var n int64
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s || n <= 0 {
		return 0, false
	}
	return n, true
}

// ParseArgs are parse_paper's arguments.
type ParseArgs struct {
	ID string `json:"id" desc:"arXiv id, bibcode, DOI, paper URL, or #N for library paper N; the paper is added to the library first if needed" maxLength:"500"`
}

// ParsePaper returns the parse_paper tool (T10): the paper's arXiv HTML
// (or ar5iv) or its stored PDF becomes Markdown. Deferred; a failure aborts
// the other calls of its batch.
func ParsePaper(imp Importer, c Contents, p Parser) tools.Tool {
	return tools.New("parse_paper",
		"Convert a library paper to clean Markdown for reading (arXiv HTML or ar5iv first, else the stored PDF; "+
			"download_paper first when there is no PDF). Then read it with get_paper_content.",
		func(ctx context.Context, tc *tools.Context, args ParseArgs) (tools.Result, error) {
			paper, err := libraryPaper(ctx, c, args.ID)
			if errors.Is(err, store.ErrNotFound) && imp != nil {
				if ref, rerr := library.ParseRef(args.ID); rerr == nil {
					paper, _, err = imp.Import(ctx, tc.UserID, ref)
				}
			}
			switch {
			case errors.Is(err, library.ErrUnknownRef):
				return tools.Errorf("%q is not an arXiv id, bibcode, DOI or paper URL.", args.ID), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Could not find %q: %v", args.ID, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			content, err := p.Parse(ctx, paper.ID, func(step string) { tc.Report(step) })
			switch {
			case err != nil && ctx.Err() != nil:
				return tools.Result{}, err
			case err != nil:
				return tools.Errorf("Parsing %q failed: %v", paper.Title, err), nil
			}
			secs := parse.Sections(content.Markdown)
			var titles []string
			for _, s := range secs {
				if s.Level <= 3 {
					titles = append(titles, strings.Repeat("  ", max(0, s.Level-2))+strings.ReplaceAll(s.Title, `\`, ""))
				}
			}
			return tools.Result{
				Output: fmt.Sprintf("Parsed %q (library #%d) with the %s engine: %d characters, %d sections.\n%s",
					paper.Title, paper.ID, content.Engine, len(content.Markdown), len(secs), strings.Join(titles, "\n")),
				Metadata: map[string]any{"paper_id": paper.ID, "engine": content.Engine, "chars": len(content.Markdown)},
			}, nil
		},
		tools.WithDeferred(), tools.WithSiblingAbort(),
	)
}

// ContentArgs are get_paper_content's arguments.
type ContentArgs struct {
	ID      string `json:"id" desc:"arXiv id, bibcode, DOI, paper URL, or #N for library paper N" maxLength:"500"`
	Section string `json:"section,omitempty" desc:"a section title or number (\"Introduction\", \"2.1\"); omit for the whole text" maxLength:"200"`
	Offset  int    `json:"offset,omitempty" desc:"byte offset to start from (continue where the last call stopped)" min:"0"`
	Limit   int    `json:"limit,omitempty" desc:"maximum bytes to return (default 8000)" min:"500" max:"40000"`
}

// GetPaperContent returns the get_paper_content tool (T11): a parsed
// paper's Markdown, whole, one section, or a window with a hint on how to
// continue.
func GetPaperContent(c Contents) tools.Tool {
	return tools.New("get_paper_content",
		"Read a parsed library paper as Markdown: the whole text, one section by title or number, or a window "+
			"(offset/limit) with a hint on how to continue.",
		func(ctx context.Context, tc *tools.Context, args ContentArgs) (tools.Result, error) {
			paper, err := libraryPaper(ctx, c, args.ID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return tools.Errorf("%q is not in the library; import and parse it first (parse_paper).", args.ID), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Could not find %q: %v", args.ID, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			content, err := c.PaperContent(ctx, paper.ID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return tools.Errorf("%q (library #%d) is not parsed yet; call parse_paper first.", paper.Title, paper.ID), nil
			case err != nil:
				return tools.Result{}, err
			}
			return tools.Result{Output: contentWindow(content.Markdown, args), Metadata: map[string]any{"paper_id": paper.ID, "engine": content.Engine}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

// contentWindow cuts the requested part of md and says how to go on.
func contentWindow(md string, args ContentArgs) string {
	limit := args.Limit
	if limit <= 0 {
		limit = 8000
	}
	limit = max(500, min(limit, 40000))
	doc := md
	if args.Section != "" {
		s, ok := parse.FindSection(md, args.Section)
		if !ok {
			var titles []string
			for _, s := range parse.Sections(md) {
				titles = append(titles, strings.ReplaceAll(s.Title, `\`, ""))
			}
			return fmt.Sprintf("No section %q. Sections: %s", args.Section, strings.Join(titles, "; "))
		}
		doc = md[s.Start:s.End]
	}
	part, next := parse.Slice(doc, args.Offset, limit)
	var b strings.Builder
	b.WriteString(part)
	if next < len(doc) {
		fmt.Fprintf(&b, "\n\n[… %d more bytes. Continue with offset=%d", len(doc)-next, next)
		if args.Section != "" {
			fmt.Fprintf(&b, " and section=%q", args.Section)
		}
		b.WriteString(".]")
	}
	return b.String()
}

// NoteArgs are save_note's arguments.
type NoteArgs struct {
	ID    string `json:"id" desc:"arXiv id, bibcode, DOI, paper URL, or #N for library paper N" maxLength:"500"`
	Quote string `json:"quote,omitempty" desc:"the exact passage to highlight, copied from the paper's text" maxLength:"2000"`
	Note  string `json:"note,omitempty" desc:"the note's text; omit for a plain highlight" maxLength:"10000"`
}

// SaveNote returns the save_note tool (T14): a highlight or note on a
// library paper, shown beside the text in the reader.
func SaveNote(c Contents, n Notes) tools.Tool {
	return tools.New("save_note",
		"Save a highlight (quote) or a note (with or without a quote) on a library paper for the user; "+
			"it appears beside the text in the reader.",
		func(ctx context.Context, tc *tools.Context, args NoteArgs) (tools.Result, error) {
			quote, body := strings.TrimSpace(args.Quote), strings.TrimSpace(args.Note)
			if quote == "" && body == "" {
				return tools.Errorf("Give a quote, a note, or both."), nil
			}
			paper, err := libraryPaper(ctx, c, args.ID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return tools.Errorf("%q is not in the library.", args.ID), nil
			case err != nil && ctx.Err() == nil:
				return tools.Errorf("Could not find %q: %v", args.ID, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			note := store.PaperNote{UserID: tc.UserID, PaperID: paper.ID, Kind: "note", Quote: quote, Body: body, Position: -1}
			if body == "" {
				note.Kind = "highlight"
			}
			if quote != "" {
				if content, err := c.PaperContent(ctx, paper.ID); err == nil {
					if a, ok := parse.AnchorIn(content.Markdown, quote); ok {
						note.Prefix, note.Suffix = a.Prefix, a.Suffix
					}
				}
			}
			saved, err := n.CreateNote(ctx, note)
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Result{Output: fmt.Sprintf("Saved a %s on %q (library #%d).", saved.Kind, paper.Title, paper.ID),
				Metadata: map[string]any{"note": saved}}, nil
		},
	)
}
