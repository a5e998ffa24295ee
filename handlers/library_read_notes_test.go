package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestNotesReturnToPassage: without JavaScript a saved or deleted note
// sends the reader back to the section of its passage (#sec-…), a note
// without a quote to itself, and a deleted one without a quote to the
// notes panel.
func TestNotesReturnToPassage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedParsed(t, a)
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	for _, tc := range []struct {
		name  string
		form  url.Values
		want  string // the anchor after saving; "note" for #note-{id}
		after string // the anchor after deleting it again
	}{
		{"quote in the introduction", url.Values{"quote": {"Dust shapes what we see"}}, "sec-1-introduction", "sec-1-introduction"},
		{"quote over a formula", url.Values{"quote": {"The slope is steep."}, "body": {"Really?"}}, "sec-1-introduction", "sec-1-introduction"},
		{"quote in the method", url.Values{"quote": {"GN-z11"}, "body": {"The record holder."}}, "sec-2-method", "sec-2-method"},
		{"quote not in the text", url.Values{"quote": {"Nothing like this is written anywhere."}}, "note", "notes-panel"},
		{"no quote", url.Values{"body": {"Read the companion paper."}}, "note", "notes-panel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.postForm(base+"/notes", tc.form)
			expectStatus(t, "save", res, http.StatusSeeOther)
			loc := res.Header.Get("Location")
			prefix := base + "/read#"
			if !strings.HasPrefix(loc, prefix) {
				t.Fatalf("saved: redirect to %q", loc)
			}
			anchor := strings.TrimPrefix(loc, prefix)
			notes, err := a.store.PaperNotes(context.Background(), 1, p.ID)
			if err != nil || len(notes) == 0 {
				t.Fatalf("notes %v, %v", notes, err)
			}
			id := strconv.FormatInt(notes[len(notes)-1].ID, 10)
			want := tc.want
			if want == "note" {
				want = "note-" + id
			}
			if anchor != want {
				t.Errorf("saved: back to #%s, want #%s", anchor, want)
			}
			res = c.postForm(base+"/notes/"+id+"/delete", nil)
			expectStatus(t, "delete", res, http.StatusSeeOther)
			if loc := res.Header.Get("Location"); loc != prefix+tc.after {
				t.Errorf("deleted: redirect to %q, want %q", loc, prefix+tc.after)
			}
		})
	}
}

// TestNotesKeepCitedPassage: the reader opened at a cited passage
// (?passage=) comes back with it after a note is saved or deleted, with
// and without htmx.
func TestNotesKeepCitedPassage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedParsed(t, a)
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	res := c.postForm(base+"/notes", url.Values{"quote": {"GN-z11"}, "passage": {"17"}})
	expectStatus(t, "save", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != base+"/read?passage=17#sec-2-method" {
		t.Errorf("saved: redirect to %q", loc)
	}
	frag := c.postForm(base+"/notes", url.Values{"body": {"x"}, "passage": {"17"}}, "HX-Request", "true")
	expectContains(t, "fragment", frag.body, `<input type="hidden" name="passage" value="17">`)
	notes, _ := a.store.PaperNotes(context.Background(), 1, p.ID)
	res = c.postForm(base+"/notes/"+strconv.FormatInt(notes[0].ID, 10)+"/delete", url.Values{"passage": {"17"}})
	if loc := res.Header.Get("Location"); loc != base+"/read?passage=17#sec-2-method" {
		t.Errorf("deleted: redirect to %q", loc)
	}
	res = c.postForm(base+"/notes", url.Values{"body": {"y"}, "passage": {"-3"}})
	if loc := res.Header.Get("Location"); strings.Contains(loc, "passage=") {
		t.Errorf("a bad passage id is carried: %q", loc)
	}
}

// TestNotesHTMX: with htmx a save, a refusal and a delete answer the notes
// panel's body (not a page) with the status message out of band; a
// refusal keeps what was typed and shows why.
func TestNotesHTMX(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	p := seedParsed(t, a)
	base := "/library/" + strconv.FormatInt(p.ID, 10)
	hx := []string{"HX-Request", "true"}
	for _, tc := range []struct {
		name   string
		form   url.Values
		want   []string
		absent []string
	}{
		{"highlight", url.Values{"kind": {"highlight"}, "quote": {"Dust shapes what we see"}, "prefix": {""}, "suffix": {" (Calzetti"}, "position": {"0"}},
			[]string{`id="notes-body"`, `class="note note-highlight"`, `data-quote="Dust shapes what we see"`, `data-suffix=" (Calzetti"`,
				`<div id="reader-status" hx-swap-oob="innerHTML">Highlight saved.</div>`, `hx-post="` + base + `/notes"`,
				`<span id="notes-count" hx-swap-oob="innerHTML">(1)</span>`},
			[]string{"<html", `data-testid="reader-text"`, `data-testid="note-error"`}},
		{"note", url.Values{"kind": {"note"}, "quote": {"GN-z11"}, "body": {"The **record** holder."}},
			[]string{`class="note note-note"`, `<strong>record</strong>`, `>Note saved.</div>`},
			[]string{"<html"}},
		{"refused", url.Values{"kind": {"note"}, "quote": {strings.Repeat("long ", 500)}, "body": {"kept text"}},
			[]string{`data-testid="note-error"`, "The quote is too long", "kept text</textarea>", `hx-swap-oob="innerHTML">The quote is too long`},
			[]string{"<html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.postForm(base+"/notes", tc.form, hx...)
			expectStatus(t, tc.name, res, http.StatusOK)
			expectContains(t, tc.name, res.body, tc.want...)
			expectLacks(t, tc.name, res.body, tc.absent...)
		})
	}
	notes, err := a.store.PaperNotes(context.Background(), 1, p.ID)
	if err != nil || len(notes) != 2 {
		t.Fatalf("%d notes (%v), want the highlight and the note", len(notes), err)
	}
	del := c.postForm(base+"/notes/"+strconv.FormatInt(notes[0].ID, 10)+"/delete", nil, hx...)
	expectStatus(t, "delete", del, http.StatusOK)
	expectContains(t, "delete", del.body, `id="notes-body"`, `>Note deleted.</div>`, `data-quote="GN-z11"`, `hx-swap-oob="innerHTML">(1)</span>`)
	expectContains(t, "page", c.get(base+"/read").body, `data-testid="notes-count">(1)</span>`)
	expectLacks(t, "delete", del.body, `data-quote="Dust shapes what we see"`, "<html")
	expectStatus(t, "delete again", c.postForm(base+"/notes/"+strconv.FormatInt(notes[0].ID, 10)+"/delete", nil, hx...), http.StatusNotFound)
}
