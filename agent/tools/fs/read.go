package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent/tools"
)

const (
	// DefaultReadLines is read_file's default limit.
	DefaultReadLines = 2000
	// MaxReadLines is the largest limit read_file accepts.
	MaxReadLines = 5000
	// MaxReadOutput caps read_file's output in bytes (about 12,000 tokens,
	// well inside the context budget); the rest is reached with a later
	// offset. read_file's output is never moved to tool-results (it bounds
	// itself), so this is what the model sees.
	MaxReadOutput = 48 << 10
)

// ReadArgs are read_file's arguments.
type ReadArgs struct {
	Path   string `json:"path" desc:"File to read, e.g. workspace/notes.md or library/2401.01234.md" minLength:"1" maxLength:"4096"`
	Offset int    `json:"offset,omitempty" desc:"First line to show, 1-based (default 1)" min:"0"`
	Limit  int    `json:"limit,omitempty" desc:"How many lines to show (default 2000, at most 5000)" min:"0" max:"5000"`
}

// ReadFile returns the read_file tool (T1): a text file's lines with line
// numbers, from offset for limit lines, capped at MaxReadOutput bytes.
// Reading the same unchanged range again returns a short stub; cache may
// be nil (no stubs). Read-only and concurrency-safe.
func ReadFile(r *Roots, cache *FileCache) tools.Tool {
	desc := "Read a text file with line numbers. Each line is shown as \"    12\\tline text\"; up to 2000 lines from offset " +
		"(1-based); pass offset and limit to page through long files. Lines over 2000 characters are cut. " +
		"Binary files are refused (use get_paper_content for papers). Reading the same unchanged range again " +
		"returns a short note instead of the text. " + r.scheme()
	return tools.New("read_file", desc,
		func(ctx context.Context, tc *tools.Context, args ReadArgs) (tools.Result, error) {
			t, err := r.resolve(tc, args.Path)
			if err != nil {
				return toolError(err.Error()), nil
			}
			defer t.close()
			return readFile(ctx, tc, t, args, cache)
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithBoundedOutput())
}

// readResult is what one read produced.
type readResult struct {
	text        string
	first, last int  // lines shown
	more        bool // lines follow the last one shown
}

func readFile(ctx context.Context, tc *tools.Context, t *target, args ReadArgs, cache *FileCache) (tools.Result, error) {
	display := t.display()
	// Stat before opening: opening a FIFO or device could block or worse.
	if fi, err := t.root.Stat(t.rel); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		return toolError(display + " is not a regular file."), nil
	}
	f, err := t.root.Open(t.rel)
	if errors.Is(err, iofs.ErrNotExist) {
		return toolError(display + " does not exist; find files with glob_files."), nil
	}
	if err != nil {
		return toolError(describeErr(display, err)), nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return toolError(describeErr(display, err)), nil
	}
	switch {
	case fi.IsDir():
		return toolError(fmt.Sprintf("%s is a directory; list it with glob_files (pattern %q).", display, display+"/*")), nil
	case !fi.Mode().IsRegular():
		return toolError(display + " is not a regular file."), nil
	case fi.Size() == 0:
		return tools.Result{Output: "[" + display + " is empty]", Metadata: map[string]any{"path": display}}, nil
	}
	head, binary, err := sniff(f, fi.Size())
	if err != nil {
		return toolError(describeErr(display, err)), nil
	}
	if binary {
		return toolError(binaryNote(display, head, fi.Size())), nil
	}
	offset, limit := max(args.Offset, 1), args.Limit
	if limit <= 0 {
		limit = DefaultReadLines
	}
	res, total, err := readLines(ctx, io.MultiReader(bytes.NewReader(head), f), offset, limit)
	if err != nil {
		if ctx.Err() != nil {
			return toolError("read_file was cancelled"), nil
		}
		return toolError(describeErr(display, err)), nil
	}
	if res.first == 0 {
		return toolError(fmt.Sprintf("offset %d is past the end of %s, which has %d lines.", offset, display, total)), nil
	}
	out := res.text
	if res.more {
		out += fmt.Sprintf("\n[Showing lines %d–%d of %s (%s). More follows: read_file with offset=%d.]",
			res.first, res.last, display, humanSize(fi.Size()), res.last+1)
	}
	meta := map[string]any{"path": display, "first_line": res.first, "last_line": res.last, "truncated": res.more}
	var session, agent string
	if tc != nil {
		session, agent = tc.SessionID, tc.AgentName
	}
	e := Entry{Session: session, Agent: agent, Path: display, ModTime: fi.ModTime(), Size: fi.Size(),
		Offset: offset, Limit: limit, FirstLine: res.first, LastLine: res.last,
		Hash: sha256.Sum256([]byte(out)), Content: out, ReadAt: time.Now()}
	if prev, ok := cache.Lookup(session, agent, display); ok && sameRead(prev, e) {
		meta["unchanged"] = true
		return tools.Result{Output: fmt.Sprintf("[%s is unchanged since your last read of lines %d–%d; "+
			"content omitted, use the earlier result.]", display, res.first, res.last), Metadata: meta}, nil
	}
	cache.Put(e)
	return tools.Result{Output: out, Metadata: meta}, nil
}

// sameRead reports whether two reads showed the same range of the same,
// unchanged file.
func sameRead(a, b Entry) bool {
	return a.ModTime.Equal(b.ModTime) && a.Size == b.Size && a.Offset == b.Offset && a.Limit == b.Limit && a.Hash == b.Hash
}

// readLines renders lines offset..offset+limit-1 of r with line numbers,
// stopping early at MaxReadOutput bytes. When the offset lies past the end,
// first is 0 and total is the number of lines.
func readLines(ctx context.Context, r io.Reader, offset, limit int) (readResult, int, error) {
	lr := newLineReader(r)
	var b strings.Builder
	var res readResult
	n := 0
	for {
		if n%8192 == 0 && ctx.Err() != nil {
			return res, n, ctx.Err()
		}
		keep := n+1 >= offset
		line, cutFrom, err := lr.next(keep)
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, n, err
		}
		n++
		if !keep {
			continue
		}
		if n-offset >= limit {
			res.more = true
			break
		}
		row := formatLine(n, line, cutFrom)
		if b.Len()+len(row) > MaxReadOutput && res.first != 0 {
			res.more = true
			break
		}
		b.WriteString(row)
		if res.first == 0 {
			res.first = n
		}
		res.last = n
	}
	res.text = strings.TrimSuffix(b.String(), "\n")
	return res, n, nil
}

// formatLine is one numbered output row.
func formatLine(n int, line []byte, cutFrom int) string {
	s := fmt.Sprintf("%6d\t%s", n, displayLine(line))
	if cutFrom > 0 {
		s += fmt.Sprintf("… [line cut, %s in full]", humanSize(int64(cutFrom)))
	}
	return s + "\n"
}
