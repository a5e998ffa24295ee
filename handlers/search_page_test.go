package handlers

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/store"
)

// addMessages stores lead-agent messages in a session, one turn each.
func addMessages(t *testing.T, a *testApp, session string, contents ...string) {
	t.Helper()
	var msgs []*store.AgentMessage
	for i, c := range contents {
		msgs = append(msgs, &store.AgentMessage{SessionID: session, Turn: i + 1, AgentName: agent.LeadAgent, Role: "user", Content: c})
	}
	if err := a.store.AppendAgentMessages(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
}

var hitRE = regexp.MustCompile(`(?s)<li data-testid="search-hit">.*?</li>`)

func TestSearchPage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s1 := newResearchSession(t, c)
	s2 := newResearchSession(t, c)
	u, err := a.store.UserByName(context.Background(), adminName)
	if err != nil {
		t.Fatal(err)
	}
	for id, title := range map[string]string{s1: "Abell 426 core", s2: "Cavities"} {
		if err := a.store.RenameAgentSession(context.Background(), u.ID, id, title); err != nil {
			t.Fatal(err)
		}
	}
	addMessages(t, a, s1, "What is the redshift of Perseus <script>alert(1)</script> A?", "Cooling flow in the core")
	addMessages(t, a, s2, "Perseus cluster X-ray cavities")

	res := c.get("/search")
	expectStatus(t, "empty search", res, http.StatusOK)
	expectContains(t, "empty search", res.body,
		`href="/search" aria-current="page"`, `data-testid="search-form"`, `role="search"`,
		`<label for="search-q">`, `type="search" name="q"`, `hx-get="/search/results"`,
		`hx-trigger="keyup changed delay:300ms, search"`, `hx-target="#search-results"`,
		`id="search-results" aria-live="polite" data-testid="search-results"`, "Type a word or two")
	expectLacks(t, "empty search", res.body, `data-testid="only-session"`, `data-testid="search-hit"`)
	// Search is in the navigation after Research and the Library.
	nav := res.body[strings.Index(res.body, `data-testid="main-nav"`):]
	if r, l, s := strings.Index(nav, `<a href="/research">Research</a>`), strings.Index(nav, `<a href="/library">Library</a>`),
		strings.Index(nav, `<a href="/search" aria-current="page">Search</a>`); r < 0 || l < r || s < l {
		t.Errorf("nav: Research %d, Library %d, Search %d: want all three, in that order", r, l, s)
	}

	// Plain form submit: the full page with the results.
	res = c.get("/search?q=" + url.QueryEscape("perse"))
	expectStatus(t, "search", res, http.StatusOK)
	hits := hitRE.FindAllString(res.body, -1)
	if len(hits) != 2 {
		t.Fatalf("%d hits, want 2:\n%s", len(hits), res.body)
	}
	all := strings.Join(hits, "\n")
	expectContains(t, "hits", all,
		`href="/research/`+s1+`#turn-1"`, `href="/research/`+s2+`#turn-1"`, "Question, turn 1",
		"<mark>Perseus</mark>", "&lt;script&gt;alert(1)&lt;/script&gt;")
	expectLacks(t, "hits", all, "<script>", "\uE000", "\uE001")
	expectContains(t, "search page", res.body, `value="perse"`, `data-testid="hit-count">2 results`)

	// The htmx fragment: the list alone.
	res = c.get("/search/results?q=cooling", "HX-Request", "true")
	expectStatus(t, "fragment", res, http.StatusOK)
	expectLacks(t, "fragment", res.body, "<html", "<nav")
	hits = hitRE.FindAllString(res.body, -1)
	if len(hits) != 1 || !strings.Contains(hits[0], `href="/research/`+s1+`#turn-2"`) || !strings.Contains(hits[0], "<mark>Cooling</mark>") {
		t.Fatalf("fragment hits:\n%s", res.body)
	}
	res = c.get("/search/results?q=abell", "HX-Request", "true")
	hits = hitRE.FindAllString(res.body, -1)
	if len(hits) != 1 || !strings.Contains(hits[0], `href="/research/`+s1+`"`) || !strings.Contains(hits[0], "Session · ") {
		t.Fatalf("title hit:\n%s", res.body)
	}
	res = c.get("/search/results?q=nebula", "HX-Request", "true")
	expectContains(t, "no hits", res.body, `data-testid="no-hits">Nothing matches “nebula”.`)

	// This session only.
	res = c.get("/search?q=perseus&session=" + s2)
	expectContains(t, "from a session", res.body, `data-testid="only-session"`, `name="session" value="`+s2+`"`, "This session only (Cavities)")
	expectLacks(t, "from a session", res.body, "checked")
	if n := len(hitRE.FindAllString(res.body, -1)); n != 2 {
		t.Fatalf("unchecked filter: %d hits", n)
	}
	res = c.get("/search?q=perseus&only=1&session=" + s2)
	expectContains(t, "only", res.body, `value="1" checked`)
	hits = hitRE.FindAllString(res.body, -1)
	if len(hits) != 1 || !strings.Contains(hits[0], s2) {
		t.Fatalf("session-only hits:\n%s", res.body)
	}
	res = c.get("/search/results?q=perseus&only=1&session="+s1, "HX-Request", "true")
	if hits := hitRE.FindAllString(res.body, -1); len(hits) != 1 || !strings.Contains(hits[0], s1) {
		t.Fatalf("session-only fragment:\n%s", res.body)
	}
	expectContains(t, "session page link", c.get("/research/"+s1).body, `href="/search?only=1&amp;session=`+s1+`"`)

	// Bad input.
	long := url.QueryEscape(strings.Repeat("a", 501))
	res = c.get("/search?q=" + long)
	expectStatus(t, "long query", res, http.StatusBadRequest)
	expectContains(t, "long query", res.body, "The search is longer than 500 characters.")
	res = c.get("/search/results?q="+long, "HX-Request", "true")
	expectStatus(t, "long query (htmx)", res, http.StatusOK)
	expectContains(t, "long query (htmx)", res.body, `role="alert">The search is longer than 500 characters.`)
	expectStatus(t, "operators are inert", c.get("/search?q="+url.QueryEscape(`" OR NEAR(* -`)), http.StatusOK)

	// Someone else's sessions: never found, and their id is a 404.
	other := a.member("edwin", "expanding-universe")
	res = other.get("/search?q=perseus")
	expectStatus(t, "other user", res, http.StatusOK)
	expectContains(t, "other user", res.body, `data-testid="no-hits"`)
	expectStatus(t, "other user's session filter", other.get("/search?q=perseus&only=1&session="+s1), http.StatusNotFound)
	expectStatus(t, "other user's session filter (fragment)", other.get("/search/results?q=perseus&session="+s1, "HX-Request", "true"), http.StatusNotFound)
	expectStatus(t, "anonymous", a.client().get("/search?q=perseus"), http.StatusSeeOther)
}

func TestSnippetParts(t *testing.T) {
	m0, m1 := store.MarkStart, store.MarkEnd
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"plain", "plain"},
		{m0 + "all" + m1, "[all]"},
		{"a " + m0 + "b" + m1 + " c " + m0 + "dé" + m1, "a [b] c [dé]"},
		{"…" + m0 + "<x>" + m1 + "…", "…[<x>]…"},
		{m0 + m1 + "x", "x"},
		{"unclosed " + m0 + "y", "unclosed y"},
	} {
		var b strings.Builder
		for _, p := range snippetParts(tc.in) {
			if p.Mark {
				b.WriteString("[" + p.Text + "]")
			} else {
				b.WriteString(p.Text)
			}
		}
		if b.String() != tc.want {
			t.Errorf("snippetParts(%q) = %q, want %q", tc.in, b.String(), tc.want)
		}
	}
}
