package astro

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/rag"
)

// Asker answers questions from the passages of the library.
type Asker interface {
	Ask(ctx context.Context, q rag.Query) (rag.Answer, error)
}

// RagSearchArgs are rag_search's arguments.
type RagSearchArgs struct {
	Query    string  `json:"query" desc:"The question or topic, in words (e.g. 'black hole mass of M87 from the shadow size')" minLength:"1" maxLength:"1000"`
	PaperIDs []int64 `json:"paper_ids,omitempty" desc:"Only these library papers (ids as in 'library #7')"`
	Tag      string  `json:"tag,omitempty" desc:"Only papers with this tag" maxLength:"100"`
	Year     int     `json:"year,omitempty" min:"1000" max:"9999" desc:"Only papers from this year"`
	Limit    int     `json:"limit,omitempty" min:"1" max:"20" desc:"Passages to use (default 6)"`
}

// outputBudget is the size rag_search aims its output at, under the
// runtime's default AGENT_MAX_TOOL_OUTPUT_CHARS (4000), so the model sees
// the passages inline rather than a stub; passage previews share what the
// answer leaves, between minPreview and maxPreview characters each.
const (
	outputBudget = 3800
	minPreview   = 200
	maxPreview   = 1200
)

// RagSearch returns the rag_search tool (T12): hybrid retrieval over the
// parsed papers of the library plus an answer whose sentences cite the
// numbered passages; links open the reader at each passage (basePath is
// BASE_PATH). When nothing in the library supports an answer it says so.
func RagSearch(a Asker, basePath string) tools.Tool {
	return tools.New("rag_search",
		"Search the full text of the papers in the user's library (parsed papers only) and answer from them: "+
			"returns the best passages with paper, section and a reader link, and an answer citing them as [1], [2]. "+
			"Use it for questions about what the saved papers say.",
		func(ctx context.Context, tc *tools.Context, args RagSearchArgs) (tools.Result, error) {
			q := rag.Query{Text: strings.TrimSpace(args.Query), Limit: args.Limit,
				Filter: rag.Filter{PaperIDs: args.PaperIDs, Tag: strings.TrimSpace(args.Tag), Year: args.Year}}
			if q.Text == "" {
				return tools.Errorf("The query is empty."), nil
			}
			tc.Report("searching the library")
			ans, err := a.Ask(ctx, q)
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Result{Output: describeAnswer(ans, basePath), Metadata: map[string]any{"answer": ans}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

func describeAnswer(a rag.Answer, basePath string) string {
	var b strings.Builder
	how := "hybrid retrieval: keywords and embeddings"
	if a.Mode == rag.ModeKeyword {
		how = a.Note
	}
	switch {
	case len(a.Passages) == 0:
		fmt.Fprintf(&b, "%s (%s)\nDo not answer this from memory: say the library has nothing on it, or search the literature.\n", rag.NoSupportText, how)
		return b.String()
	case a.NoSupport:
		fmt.Fprintf(&b, "%s (%s) The closest passages are below; none of them answers the question.\n", rag.NoSupportText, how)
	case a.GenerationError != "":
		fmt.Fprintf(&b, "No answer was generated (%s); the passages found (%s) are below.\n", a.GenerationError, how)
	default:
		fmt.Fprintf(&b, "Answer from the library (%s):\n%s\n", how, a.Text())
		if n := len(a.Removed); n > 0 {
			fmt.Fprintf(&b, "(%d sentence(s) citing no passage were removed.)\n", n)
		}
	}
	b.WriteString("\nPassages:\n")
	preview := maxPreview
	if n := len(a.Passages); n > 0 {
		// ~150 characters of title, section and link per passage.
		preview = min(maxPreview, max(minPreview, (outputBudget-b.Len()-150*n)/n))
	}
	for i, h := range a.Passages {
		fmt.Fprintf(&b, "[%d] %s", i+1, h.Title)
		if h.Year != nil {
			fmt.Fprintf(&b, " (%d)", *h.Year)
		}
		fmt.Fprintf(&b, " — library #%d", h.PaperID)
		if h.SectionPath != "" {
			fmt.Fprintf(&b, ", section %s", h.SectionPath)
		}
		fmt.Fprintf(&b, "\n    link: %s\n    %s\n", rag.PassageURL(basePath, h.PaperID, h.ID),
			strings.ReplaceAll(textcut.Ellipsize(strings.TrimSpace(h.Text), preview), "\n", "\n    "))
	}
	return b.String()
}
