package views

import "strings"

// RenameForm is the inline form that renames a session. Return is where
// the server sends the browser afterwards: "list" for /research, anything
// else for the session page.
type RenameForm struct {
	BasePath  string
	SessionID string
	Title     string // the current (or just typed) title
	Return    string
	Error     string
}

// URL prefixes path with the base path.
func (f RenameForm) URL(path string) string { return f.BasePath + path }

// inputID is the title field's id, unique per session and place.
func (f RenameForm) inputID() string { return "rename-" + f.Return + "-" + f.SessionID }

// DeleteSessionPage asks before a session is deleted.
type DeleteSessionPage struct {
	Chrome
	SessionID string
	Title     string
	Error     string // why the session was not deleted (a turn runs)
}

// deleteQuestion asks whether to delete the session titled t, the title
// in quotes; a title that ends in its own question mark (a session named
// after its question) gets no second one: "Delete “What did JWST
// measure?”", never "…measure??".
func deleteQuestion(t string) string {
	title := sessionTitle(t)
	q := "Delete “" + title + "”"
	if !strings.HasSuffix(strings.TrimSpace(title), "?") {
		q += "?"
	}
	return q
}
