package handlers

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

// Issue 18, "a newcomer's first hour": what a new user trips over.

// TestHomeListsEveryArea: "Where to go" offers every area of the main
// navigation (Admin only to administrators).
func TestHomeListsEveryArea(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	areas := regexp.MustCompile(`(?s)data-testid="areas">(.*?)</ul>`)
	for _, tc := range []struct {
		who  *client
		want []string
		lack []string
	}{
		{admin, []string{"/research", "/library", "/search", "/audit", "/settings", "/admin"}, nil},
		{a.member("edwin", "expanding-universe"), []string{"/research", "/library", "/search", "/audit", "/settings"}, []string{"/admin"}},
	} {
		m := areas.FindStringSubmatch(tc.who.get("/").body)
		if m == nil {
			t.Fatal("home page has no areas list")
		}
		for _, p := range tc.want {
			expectContains(t, "areas", m[1], `href="`+p+`"`)
		}
		for _, p := range tc.lack {
			expectLacks(t, "areas", m[1], `href="`+p+`"`)
		}
	}
}

// TestLibraryExportSelection: the list comes before the import form, each
// row has a checkbox of the export form, and the form's plain GET exports
// exactly the selected papers (nothing selected: back with a note).
func TestLibraryExportSelection(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	seedPapers(t, a, 3)
	page := c.get("/library")
	expectStatus(t, "library", page, http.StatusOK)
	list, imp := strings.Index(page.body, `data-testid="library-results"`), strings.Index(page.body, `data-testid="import-form"`)
	if list < 0 || imp < 0 || list > imp {
		t.Fatalf("the list (at %d) must come before the import form (at %d)", list, imp)
	}
	expectContains(t, "library", page.body, `<form method="get" action="/library/bibtex" id="export-form"`,
		`name="ids" value="1" form="export-form"`, `aria-label="Select for export: Cooling flow study 0"`, "A. One et al.")

	res := c.get("/library/bibtex?ids=1&ids=3")
	expectStatus(t, "export selection", res, http.StatusOK)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/x-bibtex") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export headers %v", res.Header)
	}
	if n := strings.Count(res.body, "@"); n != 2 || !strings.Contains(res.body, "Cooling flow study 0") ||
		!strings.Contains(res.body, "Cooling flow study 2") || strings.Contains(res.body, "Dark matter halo survey 1") {
		t.Fatalf("export of papers 1 and 3:\n%s", res.body)
	}
	none := c.get("/library/bibtex")
	if none.StatusCode != http.StatusSeeOther || none.Header.Get("Location") != "/library" {
		t.Fatalf("empty selection: %d to %q", none.StatusCode, none.Header.Get("Location"))
	}
	expectContains(t, "list after an empty export", c.get("/library").body, "Select at least one paper")
	expectStatus(t, "unknown paper", c.get("/library/bibtex?ids=99"), http.StatusNotFound)
	expectStatus(t, "bad id", c.get("/library/bibtex?ids=x"), http.StatusBadRequest)
}

// TestNotesPageShowsRecent: before any search the notes page lists the
// latest notes.
func TestNotesPageShowsRecent(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	expectContains(t, "no notes", c.get("/library/notes").body, "You have no notes yet")
	seedPapers(t, a, 1)
	if _, err := a.store.CreateNote(context.Background(), store.PaperNote{UserID: 1, PaperID: 1, Kind: "note", Body: "Compare with the Chandra cavities."}); err != nil {
		t.Fatal(err)
	}
	page := c.get("/library/notes")
	expectContains(t, "notes page", page.body, `data-testid="recent-notes"`, "Compare with the Chandra cavities.", "Cooling flow study 0")
}

// TestMemoriesAdd: the memories page explains them and adds one; the
// quality gate's refusal keeps what was typed.
func TestMemoriesAdd(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	expectContains(t, "memories page", c.get("/settings/memories").body, "What are memories?", `data-testid="new-memory-form"`)
	res := c.postForm("/settings/memories", url.Values{"kind": {"project"}, "content": {"The user models the radio lobes of Cygnus A with LOFAR and VLA data."}})
	expectStatus(t, "add memory", res, http.StatusSeeOther)
	expectContains(t, "memories after adding", c.get("/settings/memories").body, "radio lobes of Cygnus A", "Memory added.", "from user")
	refused := c.postForm("/settings/memories", url.Values{"kind": {"project"}, "content": {"ok"}})
	expectStatus(t, "vague memory", refused, http.StatusUnprocessableEntity)
	expectContains(t, "refusal", refused.body, "Not added:", `aria-invalid="true"`, ">ok</textarea>")
}

// TestSessionsListAndDeleteWording: the list has no Status column and
// keeps Rename and Delete in a per-row menu; a title ending in "?" is not
// asked about with a second one.
func TestSessionsListAndDeleteWording(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.postForm("/research", url.Values{"title": {"What did JWST measure?"}})
	s := strings.TrimPrefix(res.Header.Get("Location"), "/research/")
	list := c.get("/research").body
	expectLacks(t, "sessions list", list, `<th scope="col">Status</th>`)
	expectContains(t, "sessions list", list, `<details class="row-menu" data-testid="row-menu"><summary>Actions`, `data-testid="rename-form"`)
	confirm := c.get("/research/" + s + "/delete").body
	expectContains(t, "delete page", confirm, "Delete “What did JWST measure?”</strong>")
	expectLacks(t, "delete page", confirm, "??")
}
