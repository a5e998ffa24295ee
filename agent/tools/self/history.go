package self

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// HistoryArgs are search_history's arguments.
type HistoryArgs struct {
	Query       string `json:"query" desc:"Words to find in past sessions (titles, summaries and messages)" maxLength:"500"`
	SessionOnly bool   `json:"session_only,omitempty" desc:"Search only the current session"`
	Limit       int    `json:"limit,omitempty" min:"1" max:"50" desc:"How many hits to return (default 10)"`
}

// SearchHistory returns the search_history tool (T20): full-text search
// over the calling user's own past sessions and messages. Deferred: it is
// loaded with load_tool when needed.
func SearchHistory(st *store.Store) tools.Tool {
	return tools.New("search_history",
		"Search the user's past research sessions (titles, summaries and every message) for words, "+
			"to recall earlier findings, papers or decisions. Returns matching snippets with their session.",
		func(ctx context.Context, tc *tools.Context, args HistoryArgs) (tools.Result, error) {
			session := ""
			if args.SessionOnly {
				session = tc.SessionID
			}
			limit := args.Limit
			if limit == 0 {
				limit = 10
			}
			hits, err := st.SearchHistory(ctx, tc.UserID, args.Query, session, limit)
			if err != nil {
				return tools.Result{}, err
			}
			if len(hits) == 0 {
				return tools.Result{Output: fmt.Sprintf("No past sessions or messages match %q.", args.Query)}, nil
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d matches for %q:\n", len(hits), args.Query)
			for _, h := range hits {
				snippet := strings.NewReplacer(store.MarkStart, "**", store.MarkEnd, "**").Replace(h.Snippet)
				where := "session title"
				if h.MessageID != 0 {
					where = fmt.Sprintf("turn %d, %s", h.Turn, h.Role)
				}
				fmt.Fprintf(&b, "- [%s] %q (%s, %s): %s\n", h.SessionID, h.SessionTitle, where,
					h.CreatedAt.UTC().Format("2006-01-02"), snippet)
			}
			return tools.Result{Output: b.String(), Metadata: map[string]any{"hits": len(hits)}}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred(),
	)
}
