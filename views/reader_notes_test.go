package views

import "testing"

func TestNoteDeleteLabel(t *testing.T) {
	for _, tc := range []struct {
		note NoteRow
		want string
	}{
		{NoteRow{Kind: "highlight", Quote: "Dust  shapes\nwhat we see"}, "Delete the highlight \u201cDust shapes what we see\u201d"},
		{NoteRow{Kind: "note", Body: "Read the companion paper."}, "Delete the note \u201cRead the companion paper.\u201d"},
		{NoteRow{Kind: "note", Quote: "Spectral energy distributions of dusty star-forming galaxies", Body: "x"},
			"Delete the note \u201cSpectral energy distributions of dusty s\u2026\u201d"},
		{NoteRow{Kind: "note", Quote: "Ωμέγα " + "ééééééééééééééééééééééééééééééééééééééééé"}, "Delete the note \u201cΩμέγα éééééééééééééééééééééééééééééééééé\u2026\u201d"},
		{NoteRow{Kind: "note"}, "Delete the note"},
	} {
		if got := noteDeleteLabel(tc.note); got != tc.want {
			t.Errorf("noteDeleteLabel(%+v) = %q, want %q", tc.note, got, tc.want)
		}
	}
}
