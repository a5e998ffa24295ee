package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"regexp"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// MaxEditSize is the largest file file_edit changes.
const MaxEditSize = 10 << 20

// EditArgs are file_edit's arguments.
type EditArgs struct {
	Path       string `json:"path" desc:"File to change, e.g. workspace/notes.md" minLength:"1" maxLength:"4096"`
	OldString  string `json:"old_string" desc:"Exact text to replace, copied from the file without read_file's line-number prefixes; include enough surrounding lines to make it unique" minLength:"1" maxLength:"1048576"`
	NewString  string `json:"new_string" desc:"Replacement text (empty deletes old_string)" maxLength:"1048576"`
	ReplaceAll bool   `json:"replace_all,omitempty" desc:"Replace every occurrence instead of requiring exactly one"`
}

// FileEdit returns the file_edit tool (T6): replace an exact, unique
// occurrence of old_string (or every occurrence with replace_all) and
// write the file atomically. The result metadata holds a unified diff
// ("diff") and counts ("replacements", "additions", "deletions"). It
// blocks a user stop so a file is never left half-written.
func FileEdit(r *Roots, cache *FileCache) tools.Tool {
	desc := "Replace an exact piece of text in a file. old_string must occur exactly once and is replaced by " +
		"new_string (set replace_all to change every occurrence). Copy old_string exactly from read_file's output, " +
		"without the line-number prefix, and add surrounding lines if it is not unique. To create a file or " +
		"replace all of it use file_write. " + r.seeRead()
	return tools.New("file_edit", desc,
		func(ctx context.Context, tc *tools.Context, args EditArgs) (tools.Result, error) {
			if msg := r.readOnlyRoot(args.Path); msg != "" {
				return toolError(msg), nil
			}
			t, err := r.resolve(tc, args.Path)
			if err != nil {
				return toolError(err.Error()), nil
			}
			defer t.close()
			return fileEdit(tc, t, args, cache), nil
		},
		tools.WithInterrupt(tools.Block), tools.WithDeferred())
}

func fileEdit(tc *tools.Context, t *target, args EditArgs, cache *FileCache) tools.Result {
	display := t.display()
	if msg := checkWritable(t); msg != "" {
		return toolError(msg)
	}
	if args.OldString == args.NewString {
		return toolError("old_string and new_string are the same; nothing would change.")
	}
	content, msg := readForEdit(t)
	if msg != "" {
		return toolError(msg)
	}
	oldS, newS := args.OldString, args.NewString
	count := strings.Count(content, oldS)
	if count == 0 && strings.Contains(content, "\r\n") && !strings.Contains(oldS, "\r") {
		// The model writes "\n"; the file uses CR LF line endings.
		crlf := strings.ReplaceAll(oldS, "\n", "\r\n")
		if n := strings.Count(content, crlf); n > 0 {
			oldS, count = crlf, n
			newS = strings.ReplaceAll(strings.ReplaceAll(newS, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	switch {
	case count == 0:
		return toolError(fmt.Sprintf("old_string was not found in %s. %s", display, notFoundHint(content, oldS)))
	case count > 1 && !args.ReplaceAll:
		return toolError(fmt.Sprintf("old_string occurs %d times in %s (at lines %s). Include more surrounding lines "+
			"so it matches exactly one place, or set replace_all to true to change all %d.",
			count, display, occurrenceLines(content, oldS, 5), count))
	}
	n := 1
	if args.ReplaceAll {
		n = -1
	}
	updated := strings.Replace(content, oldS, newS, n)
	if err := writeAtomic(t, []byte(updated)); err != nil {
		return toolError(fmt.Sprintf("could not write %s: %s", display, writeErrText(display, err)))
	}
	invalidate(cache, tc, display)
	replaced := 1
	if args.ReplaceAll {
		replaced = count
	}
	first := strings.Count(content[:strings.Index(content, oldS)], "\n") + 1
	meta := map[string]any{"path": display, "replacements": replaced, "first_line": first}
	summary := ""
	if len(content) <= maxDiffInput && len(updated) <= maxDiffInput {
		d := Diff(display, content, updated)
		meta["diff"], meta["additions"], meta["deletions"] = d.Text, d.Added, d.Removed
		summary = fmt.Sprintf(" (+%d −%d lines)", d.Added, d.Removed)
	}
	return tools.Result{Output: fmt.Sprintf("Edited %s: replaced %s%s, starting at line %d.",
		display, pluralize(replaced, "occurrence"), summary, first), Metadata: meta}
}

// readForEdit loads a text file to edit, or explains why it cannot.
func readForEdit(t *target) (string, string) {
	display := t.display()
	fi, err := t.root.Lstat(t.rel)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return "", display + " does not exist; create it with file_write."
	case err != nil:
		return "", describeErr(display, err)
	case fi.IsDir():
		return "", display + " is a directory."
	case fi.Mode()&iofs.ModeSymlink != 0:
		return "", display + " is a symbolic link; edit the file it points to instead."
	case !fi.Mode().IsRegular():
		return "", display + " is not a regular file."
	case fi.Size() > MaxEditSize:
		return "", fmt.Sprintf("%s is %s; file_edit changes files up to 10 MB.", display, humanSize(fi.Size()))
	}
	data, err := t.root.ReadFile(t.rel)
	if err != nil {
		return "", describeErr(display, err)
	}
	if looksBinary(data[:min(len(data), sniffLen)], len(data) > sniffLen) {
		return "", binaryNote(display, data[:min(len(data), sniffLen)], int64(len(data)))
	}
	return string(data), ""
}

var lineNumberPrefixRE = regexp.MustCompile(`(?m)^ *\d+\t`)

// notFoundHint guesses why old_string did not match.
func notFoundHint(content, old string) string {
	if lineNumberPrefixRE.MatchString(old) {
		return "It seems to include read_file's line-number prefixes (\"    12<tab>\"); copy only the text after the tab."
	}
	if trimmed := strings.TrimSpace(old); trimmed != old && trimmed != "" && strings.Contains(content, trimmed) {
		return "The text occurs with different leading or trailing whitespace; copy it exactly from read_file."
	}
	if squeeze(old) != "" && strings.Contains(squeeze(content), squeeze(old)) {
		return "The text occurs with different spacing or indentation; copy it exactly from read_file."
	}
	return "It must match the file exactly, including whitespace and indentation; read the file again with read_file and copy the text."
}

// squeeze collapses every run of white space to one space.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// occurrenceLines lists the first few lines where sub starts: "3, 17, 40".
func occurrenceLines(s, sub string, most int) string {
	var lines []string
	line, from := 1, 0
	for len(lines) < most {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			break
		}
		line += strings.Count(s[from:from+i], "\n")
		lines = append(lines, itoa(line))
		line += strings.Count(sub, "\n")
		from += i + len(sub)
	}
	out := strings.Join(lines, ", ")
	if strings.Count(s, sub) > most {
		out += ", …"
	}
	return out
}
