package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

const (
	// DefaultGlobResults is glob_files' default cap.
	DefaultGlobResults = 200
	// maxGlobCollect bounds how many matches are collected for sorting.
	maxGlobCollect = 100_000
)

// GlobArgs are glob_files' arguments.
type GlobArgs struct {
	Pattern    string `json:"pattern" desc:"Glob such as **/*.md, drafts/*.tex or *.{md,txt}; ** matches any number of directories, * and ? stay within one name" minLength:"1" maxLength:"1000"`
	Path       string `json:"path,omitempty" desc:"Directory to search from (default workspace/), e.g. library or workspace/drafts" maxLength:"4096"`
	MaxResults int    `json:"max_results,omitempty" desc:"Show at most this many paths (default 200, at most 1000)" min:"0" max:"1000"`
}

// GlobFiles returns the glob_files tool (T3): files under a directory
// whose path matches a glob with "**", sorted by path and capped.
// Read-only and concurrency-safe.
func GlobFiles(r *Roots) tools.Tool {
	desc := "Find files by name pattern. ** matches any number of directories (\"**/*.md\" finds Markdown files at " +
		"any depth), * and ? match within one name, {a,b} gives alternatives. Results are sorted by path. " +
		"Symbolic links are not followed. " + r.seeRead()
	return tools.New("glob_files", desc,
		func(ctx context.Context, tc *tools.Context, args GlobArgs) (tools.Result, error) {
			return globFiles(ctx, tc, r, args), nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred())
}

func globFiles(ctx context.Context, tc *tools.Context, r *Roots, args GlobArgs) tools.Result {
	dir, pattern, implied := splitGlobPrefix(args.Path, args.Pattern)
	g, err := compileGlob(pattern, false)
	if err != nil {
		return toolError(err.Error())
	}
	t, err := r.resolve(tc, dir)
	if err != nil {
		return toolError(err.Error())
	}
	defer t.close()
	var found []string
	st, err := walkFiles(ctx, t, g.maxDepth(), func(rootRel, rel string) error {
		if g.match(rel) {
			found = append(found, joinDisplay(t.prefix, rootRel))
			if len(found) >= maxGlobCollect {
				return errStopWalk
			}
		}
		return nil
	})
	switch {
	case ctx.Err() != nil:
		return toolError("glob_files was cancelled")
	case err != nil && implied && errors.Is(err, iofs.ErrNotExist):
		return tools.Result{Output: fmt.Sprintf("No files match %q: %s does not exist.", args.Pattern, t.display())}
	case err != nil:
		return toolError(describeErr(t.display(), err))
	}
	limit := args.MaxResults
	if limit <= 0 {
		limit = DefaultGlobResults
	}
	meta := map[string]any{"path": t.display(), "count": len(found)}
	if len(found) == 0 {
		msg := fmt.Sprintf("No files match %q in %s.", pattern, t.display())
		if n := st.note(); n != "" {
			msg += " (" + n + ")"
		}
		return tools.Result{Output: msg, Metadata: meta}
	}
	slices.Sort(found)
	shown := found[:min(limit, len(found))]
	var b strings.Builder
	b.WriteString(strings.Join(shown, "\n"))
	total := strconv.Itoa(len(found))
	if len(found) >= maxGlobCollect {
		total = "more than " + total
	}
	if len(shown) < len(found) {
		fmt.Fprintf(&b, "\n[%d of %s files shown, sorted by path; narrow the pattern or path to see the rest]", len(shown), total)
	} else {
		fmt.Fprintf(&b, "\n[%s]", pluralize(len(found), "file"))
	}
	if n := st.note(); n != "" {
		fmt.Fprintf(&b, "\n[%s]", n)
	}
	return tools.Result{Output: b.String(), Metadata: meta}
}

// splitGlobPrefix moves the literal leading directories of a pattern into
// the search directory ("library/**/*.md" with no path searches library/
// for "**/*.md"; "drafts/2024/*.tex" starts the walk in drafts/2024), so
// the walk starts as deep as possible. implied reports that the directory
// came from the pattern, so its absence just means no match.
func splitGlobPrefix(dir, pattern string) (string, string, bool) {
	pattern = strings.TrimPrefix(pattern, "./")
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs)-1 && segs[i] != "" && !strings.ContainsAny(segs[i], "*?[]{}\\") && segs[i] != "." && segs[i] != ".." {
		i++
	}
	if i == 0 {
		return dir, pattern, false
	}
	prefix := strings.Join(segs[:i], "/")
	if dir == "" || dir == "." {
		dir = prefix
	} else {
		dir = strings.TrimSuffix(dir, "/") + "/" + prefix
	}
	return dir, strings.Join(segs[i:], "/"), true
}

func itoa(n int) string { return strconv.Itoa(n) }
