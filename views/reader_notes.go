package views

// ReaderNotes is the notes panel's body (ReaderNotesBody): the user's notes
// on one paper and the state of the note form.
type ReaderNotes struct {
	Paper PaperRow
	Notes []NoteRow
	Form  NoteForm
	// Status is what an htmx save or delete tells the reader's status
	// region ("Note saved."); "" says nothing.
	Status string
}

// NotesView is the page's notes panel body.
func (p ReaderPage) NotesView() ReaderNotes {
	return ReaderNotes{Paper: p.Paper, Notes: p.Notes, Form: p.NoteForm}
}
