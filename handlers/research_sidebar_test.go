package handlers

import (
	"net/http"
	"testing"
	"time"
)

// TestResearchSessionsSidebar: the session page lists the user's sessions
// newest first, marks the current one, and offers a new session.
func TestResearchSessionsSidebar(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	first := newResearchSession(t, c)
	a.clock.Advance(time.Minute)
	second := newResearchSession(t, c)
	other := a.member("rita", "another-long-password")
	newResearchSession(t, other)

	res := c.get("/research/" + first)
	expectStatus(t, "page", res, http.StatusOK)
	doc := parseDoc(t, res.body)
	links := doc.Find(`[data-testid="sessions-sidebar"] nav a`)
	if links.Length() != 2 {
		t.Fatalf("%d sessions in the sidebar, want the user's 2", links.Length())
	}
	if links.Eq(0).AttrOr("href", "") != "/research/"+second || links.Eq(1).AttrOr("href", "") != "/research/"+first {
		t.Errorf("sidebar order: %q, %q", links.Eq(0).AttrOr("href", ""), links.Eq(1).AttrOr("href", ""))
	}
	if links.Eq(1).AttrOr("aria-current", "") != "page" || links.Eq(0).AttrOr("aria-current", "") != "" {
		t.Error("the current session is not the one marked")
	}
	if doc.Find(`[data-testid="sidebar-new-session"][action="/research"] button`).Length() != 1 {
		t.Error("no New session button in the sidebar")
	}
}
