package fs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

const (
	// MaxWriteChars caps file_write's content (characters, as the schema
	// counts them).
	MaxWriteChars = 1 << 20
	// maxDiffInput is the largest old or new text that gets a diff.
	maxDiffInput = 1 << 20
)

// WriteArgs are file_write's arguments.
type WriteArgs struct {
	Path    string `json:"path" desc:"File to create or overwrite, e.g. workspace/notes/summary.md; missing directories are created" minLength:"1" maxLength:"4096"`
	Content string `json:"content" desc:"The complete new content of the file" maxLength:"1048576"`
}

// FileWrite returns the file_write tool (T5): create or overwrite a file in
// a writable root, atomically (a temporary file in the same directory,
// then a rename), creating missing directories. The result metadata holds
// a unified diff when an existing text file is overwritten. It blocks a
// user stop so a file is never left half-written.
func FileWrite(r *Roots, cache *FileCache) tools.Tool {
	desc := "Create a file or replace its whole content. Missing directories are created. To change part of " +
		"an existing file use file_edit instead. Only workspace/ is writable unless stated below. " + r.seeRead()
	return tools.New("file_write", desc,
		func(ctx context.Context, tc *tools.Context, args WriteArgs) (tools.Result, error) {
			if msg := r.readOnlyRoot(args.Path); msg != "" {
				return toolError(msg), nil
			}
			t, err := r.resolve(tc, args.Path)
			if err != nil {
				return toolError(err.Error()), nil
			}
			defer t.close()
			return fileWrite(tc, t, args, cache), nil
		},
		tools.WithInterrupt(tools.Block), tools.WithDeferred())
}

func fileWrite(tc *tools.Context, t *target, args WriteArgs, cache *FileCache) tools.Result {
	display := t.display()
	if msg := checkWritable(t); msg != "" {
		return toolError(msg)
	}
	old, existed, msg := readForWrite(t)
	if msg != "" {
		return toolError(msg)
	}
	if err := writeAtomic(t, []byte(args.Content)); err != nil {
		return toolError(fmt.Sprintf("could not write %s: %s", display, writeErrText(display, err)))
	}
	invalidate(cache, tc, display)
	lines := countLines(args.Content)
	meta := map[string]any{"path": display, "bytes": len(args.Content), "lines": lines, "created": !existed}
	verb := "Created"
	if existed {
		verb = "Overwrote"
		if len(old) <= maxDiffInput && len(args.Content) <= maxDiffInput {
			d := Diff(display, string(old), args.Content)
			meta["diff"], meta["additions"], meta["deletions"] = d.Text, d.Added, d.Removed
		}
	}
	return tools.Result{Output: fmt.Sprintf("%s %s (%s, %s).", verb, display,
		pluralize(len(args.Content), "byte"), pluralize(lines, "line")), Metadata: meta}
}

// readOnlyRoot explains, before anything is opened, that p names a
// read-only root; "" when it does not (or when p is bad: resolve says why).
func (r *Roots) readOnlyRoot(p string) string {
	clean, err := CleanPath(p)
	if err != nil {
		return ""
	}
	name, _ := splitRoot(clean)
	if r.dirs[name] != nil && !r.Writable(name) {
		return fmt.Sprintf("%s/ is read-only; write in workspace/ instead.", name)
	}
	return ""
}

// checkWritable explains why t cannot be written, or returns "".
func checkWritable(t *target) string {
	switch {
	case !t.writable:
		return fmt.Sprintf("%s/ is read-only; write in workspace/ instead.", t.rootName)
	case t.rel == ".":
		return t.display() + " is a directory; give a file path inside it."
	case strings.HasPrefix(path.Base(t.rel), ".") && strings.Contains(path.Base(t.rel), ".tmp-"):
		return "file names like " + path.Base(t.rel) + " are reserved for temporary files."
	}
	return ""
}

// readForWrite loads the current content of t, if any, refusing
// directories, symbolic links and other non-regular files. The content is
// only loaded up to maxDiffInput+1 bytes: it is used for the diff alone.
func readForWrite(t *target) (old []byte, existed bool, msg string) {
	display := t.display()
	fi, err := t.root.Lstat(t.rel)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return nil, false, ""
	case err != nil:
		return nil, false, describeErr(display, err)
	case fi.IsDir():
		return nil, false, display + " is a directory."
	case fi.Mode()&iofs.ModeSymlink != 0:
		return nil, false, display + " is a symbolic link; write to the file it points to instead."
	case !fi.Mode().IsRegular():
		return nil, false, display + " is not a regular file."
	case fi.Size() > maxDiffInput:
		return nil, true, ""
	}
	old, err = t.root.ReadFile(t.rel)
	if err != nil {
		return nil, true, describeErr(display, err)
	}
	return old, true, ""
}

// writeAtomic replaces t's file with data: missing parent directories are
// created, the data goes to a temporary file in the same directory, which
// is synced and renamed over the target, all through t.root. An existing
// file keeps its permissions.
func writeAtomic(t *target, data []byte) error {
	dir, base := path.Split(t.rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir != "" {
		if err := t.root.MkdirAll(dir, 0o750); err != nil {
			return err
		}
	}
	perm := os.FileMode(0o640)
	if fi, err := t.root.Lstat(t.rel); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%w: not a regular file", iofs.ErrInvalid)
		}
		perm = fi.Mode().Perm()
	}
	tmp := path.Join(dir, tempName(base))
	f, err := t.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = t.root.Rename(tmp, t.rel)
	}
	if werr != nil {
		t.root.Remove(tmp)
	}
	return werr
}

// tempName is a fresh hidden name beside base, short enough for any
// file system.
func tempName(base string) string {
	var b [6]byte
	rand.Read(b[:])
	if len(base) > 100 {
		base = base[:100]
	}
	return "." + base + ".tmp-" + hex.EncodeToString(b[:])
}

// writeErrText explains a write failure.
func writeErrText(display string, err error) string {
	if errors.Is(err, iofs.ErrExist) || errors.Is(err, iofs.ErrInvalid) {
		return "a directory on the way is a file, or the target is not a regular file"
	}
	return describeErr(display, err)
}

// invalidate forgets cached reads of a file the session just changed.
func invalidate(cache *FileCache, tc *tools.Context, display string) {
	if tc != nil {
		cache.Invalidate(tc.SessionID, display)
	}
}

// countLines counts lines the way an editor shows them.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
