package agent

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestTitleFromQuestionAndModel: the first turn of an untitled session
// names it after the question (in its session event); after the answer the
// model's shorter title replaces it (a title event); later turns change
// nothing.
func TestTitleFromQuestionAndModel(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) { c.ProposeTitles = true }))
	s := h.session()
	h.fake.Enqueue(llmtest.Text("Cooling flows are suppressed by AGN feedback."), llmtest.Text("Title: \"Perseus cooling flow.\""))
	question := "What do we know about the cooling flow in the Perseus cluster and the AGN feedback that stops it?"
	h.runTurn(s, question)
	ev := h.waitEvent(s, KindTitle)
	if got := decode[TitleData](t, ev); got.Title != "Perseus cooling flow" || got.Source != TitleFromModel {
		t.Fatalf("title event %+v", got)
	}
	first := eventsOf(h.allEvents(s), KindSession)[0]
	if got := decode[SessionData](t, first); got.Title != titleFrom(question) {
		t.Fatalf("session event title %q, want the question's %q", got.Title, titleFrom(question))
	}
	sess, err := h.st.AgentSession(context.Background(), h.userID, s)
	if err != nil || sess.Title != "Perseus cooling flow" {
		t.Fatalf("stored title %q (%v)", sess.Title, err)
	}
	// The title request carried the question and answer, without tools.
	reqs := h.fake.Requests()
	last := reqs[len(reqs)-1]
	if len(last.Tools) != 0 || !strings.Contains(last.Messages[1].Content, "Perseus cluster") ||
		!strings.Contains(last.Messages[1].Content, "AGN feedback.") {
		t.Fatalf("title request %+v", last.Messages)
	}

	// A second turn neither names the session nor asks for a title.
	h.fake.Enqueue(llmtest.Text("Yes."))
	h.runTurn(s, "And in Virgo?")
	h.rt.bg.Wait()
	evs := h.allEvents(s)
	if n := len(eventsOf(evs, KindTitle)); n != 1 {
		t.Fatalf("%d title events after two turns, want 1", n)
	}
	if got := decode[SessionData](t, eventsOf(evs, KindSession)[1]); got.Title != "" {
		t.Fatalf("second turn's session event names the session %q", got.Title)
	}
	if h.fake.Pending() != 0 {
		t.Fatalf("%d scripted replies unused", h.fake.Pending())
	}
}

// TestTitleRenameWins: a session renamed before the model's title arrives
// keeps the user's title, and no title event is recorded; a session created
// with a title is never retitled and its session event names nothing.
func TestTitleRenameWins(t *testing.T) {
	h := newHarness(t, withConfig(func(c *Config) { c.ProposeTitles = true }))
	ctx := context.Background()
	s := h.session()
	release := make(chan struct{})
	h.fake.Enqueue(llmtest.Text("An answer."))
	h.fake.Handle(func(llmtest.RecordedRequest) llmtest.Turn {
		<-release
		return llmtest.Text("Model title")
	})
	h.runTurn(s, "A long question about M87's jet")
	if err := h.st.RenameAgentSession(ctx, h.userID, s, "Mine"); err != nil {
		t.Fatal(err)
	}
	close(release)
	h.rt.bg.Wait()
	sess, _ := h.st.AgentSession(ctx, h.userID, s)
	if sess.Title != "Mine" || len(eventsOf(h.allEvents(s), KindTitle)) != 0 {
		t.Fatalf("after a rename the title is %q with %d title events", sess.Title, len(eventsOf(h.allEvents(s), KindTitle)))
	}

	named, err := h.st.CreateAgentSession(ctx, h.userID, "Named")
	if err != nil {
		t.Fatal(err)
	}
	h.runTurn(named.ID, "Anything?") // answered by the handler
	h.rt.bg.Wait()
	if d := decode[SessionData](t, eventsOf(h.allEvents(named.ID), KindSession)[0]); d.Title != "" {
		t.Fatalf("a named session's session event carries title %q", d.Title)
	}
	if evs := eventsOf(h.allEvents(named.ID), KindTitle); len(evs) != 0 {
		t.Fatalf("a named session got %d title events", len(evs))
	}
}

// TestTitleNotProposedByDefault: without ProposeTitles no extra model call
// is made.
func TestTitleNotProposedByDefault(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	h.fake.Enqueue(llmtest.Text("Answer."))
	h.runTurn(s, "Question?")
	h.rt.bg.Wait()
	if n := len(h.fake.Requests()); n != 1 {
		t.Fatalf("%d model calls, want 1", n)
	}
}

func TestCleanTitle(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Perseus cooling flow", "Perseus cooling flow"},
		{"Title: \"Perseus cooling flow.\"", "Perseus cooling flow"},
		{"\n\n**Cepheid distances**\nbecause…", "Cepheid distances"},
		{"# “M87 jet”", "M87 jet"},
		{"  ", ""},
		{strings.Repeat("word ", 30), ""},
	} {
		if got := cleanTitle(tc.in); got != tc.want {
			t.Errorf("cleanTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzCleanTitle: a cleaned title is one line of at most 80 characters
// without surrounding quotes or spaces.
func FuzzCleanTitle(f *testing.F) {
	for _, s := range []string{"Title: \"x\"", "**a**\nb", "# “M87”.", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := cleanTitle(s)
		if strings.ContainsAny(got, "\n\r") || utf8.RuneCountInString(got) > maxProposedTitle || got != strings.TrimSpace(got) {
			t.Fatalf("cleanTitle(%q) = %q", s, got)
		}
	})
}
