package views

import "strings"

// ReaderNotes is the notes panel's body (ReaderNotesBody): the user's notes
// on one paper and the state of the note form.
type ReaderNotes struct {
	Paper PaperRow
	Notes []NoteRow
	Form  NoteForm
	// Status is what an htmx save or delete tells the reader's status
	// region ("Note saved."); "" says nothing.
	Status string
	// PassageID is the cited passage the reader shows (?passage=; 0:
	// none): the forms send it, so that a page without JavaScript comes
	// back with the passage still highlighted.
	PassageID int64
}

// NotesView is the page's notes panel body.
func (p ReaderPage) NotesView() ReaderNotes {
	n := ReaderNotes{Paper: p.Paper, Notes: p.Notes, Form: p.NoteForm}
	if p.Passage != nil && !p.Passage.Missing {
		n.PassageID = p.Passage.ID
	}
	return n
}

// notesCount is the notes panel's count, shown beside its title even
// when the panel is closed: "(3)", or "" without notes.
func notesCount(n int) string {
	if n == 0 {
		return ""
	}
	return "(" + itoa(int64(n)) + ")"
}

// noteDeleteLabel names a note's Delete button by what the note is, so a
// screen reader's list of buttons tells them apart: `Delete the highlight
// "Dust shapes what we…"` (the quote, else the note's text, cut at 40
// characters). It starts with the visible "Delete" (WCAG 2.5.3).
func noteDeleteLabel(n NoteRow) string {
	what := "note"
	if n.Kind == "highlight" {
		what = "highlight"
	}
	words := strings.Join(strings.Fields(n.Quote), " ")
	if words == "" {
		words = strings.Join(strings.Fields(n.Body), " ")
	}
	if r := []rune(words); len(r) > 40 {
		words = strings.TrimSpace(string(r[:40])) + "…"
	}
	if words == "" {
		return "Delete the " + what
	}
	return "Delete the " + what + " \u201c" + words + "\u201d"
}
