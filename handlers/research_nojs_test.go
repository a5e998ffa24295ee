package handlers

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// TestResearchWithoutJavaScript: a plain post of the question form waits
// for the turn and lands on the finished timeline; a question card stops
// the wait (the page shows the card), and answering it plainly waits for
// the rest of the turn.
func TestResearchWithoutJavaScript(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)

	a.fake.Enqueue(llmtest.Text("Perseus A is ", "a radio galaxy.").WithDelay(200*time.Millisecond, 100*time.Millisecond))
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"What is Perseus A?"}}), http.StatusSeeOther)
	if _, running := a.rt.Running(s); running {
		t.Fatal("the plain post returned while the turn was still running")
	}
	page := c.get("/research/" + s).body
	expectContains(t, "page after the plain post", page, `data-testid="answer"`, "a radio galaxy.", "Answered in 1 step.")
	expectLacks(t, "page after the plain post", page, `data-testid="stop-button"`, stillRunningNote)

	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "q1", Name: "ask_user", Args: `{"question":"Which band?","options":["V","K"]}`}),
		llmtest.Text("Using the K band.").WithDelay(200*time.Millisecond, 0),
	)
	expectStatus(t, "ask with a card", c.postForm("/research/"+s+"/turns", url.Values{"question": {"Photometry"}}), http.StatusSeeOther)
	page = c.get("/research/" + s).body
	expectContains(t, "page with the card", page, `data-testid="ask-card"`, `value="K"`)
	qid := regexp.MustCompile(`name="question_id" value="([^"]+)"`).FindStringSubmatch(page)
	if qid == nil {
		t.Fatal("no question id in the page")
	}
	expectStatus(t, "answer", c.postForm("/research/"+s+"/answers", url.Values{"question_id": {qid[1]}, "answer": {"K"}}), http.StatusSeeOther)
	if _, running := a.rt.Running(s); running {
		t.Fatal("the plain answer returned while the turn was still running")
	}
	expectContains(t, "page after the answer", c.get("/research/"+s).body, "Using the K band.", "Answer sent.")
}
