package views

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
