package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestTitleLive: the turn that names an untitled session after its
// question updates the page live — heading, document title and sidebar
// entry, out of band — and so does a title the model proposes later.
func TestTitleLive(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	res := c.postForm("/research", url.Values{"title": {""}})
	expectStatus(t, "create untitled session", res, http.StatusSeeOther)
	s := strings.TrimPrefix(res.Header.Get("Location"), "/research/")
	page := c.get("/research/" + s)
	expectContains(t, "untitled page", page.body, `<h1>Untitled session</h1>`,
		`id="session-link-`+s+`"`, `<title>Untitled session · AstroResearch</title>`)

	stream := c.openTimeline(t, s, "?after=0")
	a.fake.Enqueue(llmtest.Text("A radio galaxy."))
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"What is NGC 1275?"}}, "HX-Request", "true"), http.StatusOK)
	frames := stream.untilDone()
	expectContains(t, "session frame", frames[0].Data, `<title>What is NGC 1275? · AstroResearch</title>`,
		`<h1 hx-swap-oob="outerHTML:main>h1">What is NGC 1275?</h1>`,
		`id="session-link-`+s+`"`, `aria-current="page" hx-swap-oob="true">What is NGC 1275?</a>`)
	for _, f := range frames[1:] {
		expectLacks(t, "later frame", f.Data, "<h1")
	}

	// The model's title, later: the same slots with the new title.
	if _, err := a.events.Append(context.Background(), s, 1, agent.LeadAgent, agent.KindTitle,
		agent.TitleData{Title: "NGC 1275", Source: agent.TitleFromModel}); err != nil {
		t.Fatal(err)
	}
	f := stream.next()
	expectContains(t, "title frame", f.Data, `<title>NGC 1275 · AstroResearch</title>`, `">NGC 1275</h1>`)

	// A reload reads the stored title, set from the question.
	expectContains(t, "reloaded page", c.get("/research/"+s).body, `<h1>What is NGC 1275?</h1>`)
}
