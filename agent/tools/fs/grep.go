package fs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/astroresearch/astroresearch/agent/tools"
)

const (
	// DefaultGrepResults is grep_files' default cap on matching lines.
	DefaultGrepResults = 100
	// MaxGrepFileSize is the largest file grep_files searches.
	MaxGrepFileSize = 10 << 20
	// maxGrepFiles bounds how many files one search visits.
	maxGrepFiles = 200_000
	// maxGrepLineRunes is where a matching line is cut in the output.
	maxGrepLineRunes = 300
	// grepBatch is how many files are searched in parallel before the
	// results are merged in path order.
	grepBatch = 512
)

// GrepArgs are grep_files' arguments.
type GrepArgs struct {
	Pattern         string `json:"pattern" desc:"Regular expression in RE2 syntax, e.g. \"Hubble (constant|tension)\" or \"^## \"; ^ and $ match at line boundaries" minLength:"1" maxLength:"1000"`
	Path            string `json:"path,omitempty" desc:"File or directory to search (default workspace/), e.g. library or tool-results" maxLength:"4096"`
	Glob            string `json:"glob,omitempty" desc:"Only search files matching this glob, e.g. *.md, **/*.tex or *.{md,txt}; without a / it matches the file name" maxLength:"1000"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty" desc:"Ignore letter case"`
	MaxResults      int    `json:"max_results,omitempty" desc:"Stop after this many matching lines (default 100, at most 1000)" min:"0" max:"1000"`
}

// GrepFiles returns the grep_files tool (T2): lines matching a regular
// expression under a directory, as "path:line: text", capped. Binary files,
// files over MaxGrepFileSize and symbolic links are skipped. Read-only and
// concurrency-safe.
func GrepFiles(r *Roots) tools.Tool {
	desc := "Search file contents with a regular expression (RE2: no lookaround or backreferences). " +
		"Prints matching lines as \"path:line: text\", in path order, up to max_results. Use glob to limit " +
		"the files (e.g. *.md) and path to choose a directory or file. Binary files, files over 10 MB and " +
		"symbolic links are skipped. " + r.seeRead()
	return tools.New("grep_files", desc,
		func(ctx context.Context, tc *tools.Context, args GrepArgs) (tools.Result, error) {
			return grepFiles(ctx, tc, r, args), nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred())
}

// grepStats counts a search.
type grepStats struct {
	walkStats
	searched, matchedFiles, binary, large, failed int
	truncatedWalk                                 bool
}

func grepFiles(ctx context.Context, tc *tools.Context, r *Roots, args GrepArgs) tools.Result {
	flags := "(?m)"
	if args.CaseInsensitive {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + args.Pattern)
	if err != nil {
		return toolError(fmt.Sprintf("invalid regular expression %q: %v. grep_files uses RE2 syntax (no lookaround or backreferences).",
			args.Pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
	}
	var g *globPattern
	if args.Glob != "" {
		if g, err = compileGlob(args.Glob, true); err != nil {
			return toolError(err.Error())
		}
	}
	t, err := r.resolve(tc, args.Path)
	if err != nil {
		return toolError(err.Error())
	}
	defer t.close()
	limit := args.MaxResults
	if limit <= 0 {
		limit = DefaultGrepResults
	}
	var files []string
	var st grepStats
	st.walkStats, err = walkFiles(ctx, t, -1, func(rootRel, rel string) error {
		if g != nil && !g.match(rel) {
			return nil
		}
		files = append(files, rootRel)
		if len(files) >= maxGrepFiles {
			st.truncatedWalk = true
			return errStopWalk
		}
		return nil
	})
	if ctx.Err() != nil {
		return toolError("grep_files was cancelled")
	}
	if err != nil {
		return toolError(describeErr(t.display(), err))
	}
	hits := searchFiles(ctx, t, re, files, limit, &st)
	if ctx.Err() != nil {
		return toolError("grep_files was cancelled")
	}
	return grepResult(t, args, hits, limit, st)
}

// grepResult formats the hits and the counts.
func grepResult(t *target, args GrepArgs, hits []string, limit int, st grepStats) tools.Result {
	meta := map[string]any{"path": t.display(), "matches": len(hits), "files_matched": st.matchedFiles, "files_searched": st.searched}
	var notes []string
	if st.binary > 0 {
		notes = append(notes, pluralize(st.binary, "binary file")+" skipped")
	}
	if st.large > 0 {
		notes = append(notes, pluralize(st.large, "file")+" over 10 MB skipped")
	}
	if st.failed > 0 {
		notes = append(notes, pluralize(st.failed, "unreadable file")+" skipped")
	}
	if n := st.walkStats.note(); n != "" {
		notes = append(notes, n)
	}
	if st.truncatedWalk {
		notes = append(notes, fmt.Sprintf("only the first %d files were searched", maxGrepFiles))
	}
	var b strings.Builder
	if len(hits) == 0 {
		fmt.Fprintf(&b, "No matches for %q in %s (%s searched).", args.Pattern, t.display(), pluralize(st.searched, "file"))
	} else {
		b.WriteString(strings.Join(hits, "\n"))
		if len(hits) >= limit {
			fmt.Fprintf(&b, "\n[Stopped at %d matching lines; narrow the pattern, path or glob, or raise max_results.]", limit)
		} else {
			fmt.Fprintf(&b, "\n[%s in %s; %s searched]", pluralize(len(hits), "matching line"),
				pluralize(st.matchedFiles, "file"), pluralize(st.searched, "file"))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n[" + strings.Join(notes, "; ") + "]")
	}
	return tools.Result{Output: b.String(), Metadata: meta}
}

// fileHits is the outcome of searching one file.
type fileHits struct {
	lines          []string
	binary, large  bool
	failed, missed bool
}

// searchFiles searches files (root-relative, in path order) with a few
// workers per batch and merges the hits in path order, stopping once limit
// lines are found.
func searchFiles(ctx context.Context, t *target, re *regexp.Regexp, files []string, limit int, st *grepStats) []string {
	workers := min(runtime.GOMAXPROCS(0), 8)
	bufs := make([][]byte, workers)
	var hits []string
	for start := 0; start < len(files) && len(hits) < limit; start += grepBatch {
		if ctx.Err() != nil {
			return hits
		}
		batch := files[start:min(start+grepBatch, len(files))]
		results := make([]fileHits, len(batch))
		var wg sync.WaitGroup
		chunk := (len(batch) + workers - 1) / workers
		for w := range workers {
			wg.Go(func() {
				// Contiguous chunks keep a directory's files together, so
				// each worker opens each directory once.
				dirs := dirOpener{root: t.root}
				defer dirs.close()
				for i := w * chunk; i < min((w+1)*chunk, len(batch)); i++ {
					results[i] = grepOne(t, &dirs, re, batch[i], limit, &bufs[w])
				}
			})
		}
		wg.Wait()
		for _, res := range results {
			switch {
			case res.missed:
			case res.binary:
				st.binary++
			case res.large:
				st.large++
			case res.failed:
				st.failed++
			default:
				st.searched++
				if len(res.lines) > 0 {
					st.matchedFiles++
				}
				hits = append(hits, res.lines[:min(len(res.lines), limit-len(hits))]...)
			}
		}
	}
	return hits
}

// dirOpener opens files through a root made for their directory, kept
// while consecutive files share it: one openat per file instead of one per
// path component, and still confined by os.Root.
type dirOpener struct {
	root *os.Root
	dir  string
	sub  *os.Root
	err  error
}

func (d *dirOpener) open(rootRel string) (*os.File, error) {
	dir, name := path.Split(rootRel)
	if dir == "" {
		return d.root.Open(name)
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir != d.dir || (d.sub == nil && d.err == nil) {
		d.close()
		d.dir = dir
		d.sub, d.err = d.root.OpenRoot(dir)
	}
	if d.err != nil {
		return nil, d.err
	}
	return d.sub.Open(name)
}

func (d *dirOpener) close() {
	if d.sub != nil {
		d.sub.Close()
	}
	d.sub, d.err = nil, nil
}

// grepOne searches one file, reusing *buf for its content.
func grepOne(t *target, dirs *dirOpener, re *regexp.Regexp, rootRel string, limit int, buf *[]byte) fileHits {
	f, err := dirs.open(rootRel)
	if err != nil {
		return fileHits{failed: true}
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fileHits{failed: true}
	case !fi.Mode().IsRegular():
		return fileHits{missed: true}
	case fi.Size() > MaxGrepFileSize:
		return fileHits{large: true}
	}
	size := int(fi.Size())
	if cap(*buf) < size {
		*buf = make([]byte, size)
	}
	// Exactly the size fstat gave: one read for most files. Bytes appended
	// meanwhile are not searched.
	n, err := io.ReadFull(f, (*buf)[:size])
	if err != nil && err != io.ErrUnexpectedEOF {
		return fileHits{failed: true}
	}
	data := (*buf)[:n]
	head := data[:min(len(data), sniffLen)]
	if looksBinary(head, len(data) > sniffLen) {
		return fileHits{binary: true}
	}
	if !re.Match(data) {
		return fileHits{}
	}
	return fileHits{lines: matchLines(re, data, joinDisplay(t.prefix, rootRel), limit)}
}

// matchLines lists the lines of data that hold a match, at most limit.
// A match is reported on the line where it starts; after a hit the search
// resumes at the next line, so each line is shown once and a pattern that
// matches everywhere costs no more than limit matches.
func matchLines(re *regexp.Regexp, data []byte, display string, limit int) []string {
	var out []string
	pos, lineNo, counted := 0, 1, 0
	for len(out) < limit && pos <= len(data) {
		loc := re.FindIndex(data[pos:]) // pos is always a line start
		if loc == nil {
			break
		}
		s := pos + loc[0]
		if s == len(data) && (s == 0 || data[s-1] == '\n') {
			break // the empty "line" after the final newline
		}
		lineNo += bytes.Count(data[counted:s], []byte{'\n'})
		counted = s
		begin := bytes.LastIndexByte(data[:s], '\n') + 1
		end := len(data)
		if i := bytes.IndexByte(data[s:], '\n'); i >= 0 {
			end = s + i
		}
		line := bytes.TrimSuffix(data[begin:end], []byte("\r"))
		text := cutRunes(line, maxGrepLineRunes)
		suffix := ""
		if len(text) < len(line) {
			suffix = "…"
		}
		out = append(out, fmt.Sprintf("%s:%d: %s%s", display, lineNo, displayLine(text), suffix))
		pos = end + 1
	}
	return out
}
