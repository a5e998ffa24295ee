package fs

import (
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// rootBlurbs say what each root holds, for tool descriptions.
var rootBlurbs = map[string]string{
	RootWorkspace:   "your scratch space for notes and drafts; a path without a root prefix is in workspace/",
	RootLibrary:     "downloaded papers as parsed Markdown",
	RootSkills:      "SKILL.md files",
	RootToolResults: "large outputs of earlier tool calls in this session, saved by the runtime",
}

// scheme explains the addressing scheme with the configured roots;
// read_file's description ends with it and the other file tools refer to
// it (seeRead), so the model knows how to name files.
func (r *Roots) scheme() string {
	var b strings.Builder
	b.WriteString("Paths are relative and start with a root: ")
	for i, name := range r.names {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(name + "/ (" + rootBlurbs[name])
		if r.Writable(name) {
			b.WriteString(", read-write)")
		} else {
			b.WriteString(", read-only)")
		}
	}
	b.WriteString(". Examples: workspace/notes.md, library/2401.01234.md. '..', '~', absolute paths and backslashes are refused.")
	return b.String()
}

// seeRead points the other file tools at read_file's description, where
// the addressing scheme is stated once (a lean fixed prompt, C12).
func (r *Roots) seeRead() string {
	var b strings.Builder
	b.WriteString("Paths as in read_file: ")
	for i, name := range r.names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name + "/")
		if r.Writable(name) {
			b.WriteString(" (writable)")
		}
	}
	b.WriteString(".")
	return b.String()
}

// Tools returns the five filesystem tools sharing r and cache, in the
// order read_file, grep_files, glob_files, file_write, file_edit.
func Tools(r *Roots, cache *FileCache) []tools.Tool {
	return []tools.Tool{ReadFile(r, cache), GrepFiles(r), GlobFiles(r), FileWrite(r, cache), FileEdit(r, cache)}
}

// toolError is the Result for a problem the model can fix.
func toolError(msg string) tools.Result { return tools.Result{Output: msg, IsError: true} }
