package handlers

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/tools"
)

// htmlFrame is one event of the HTML timeline stream.
type htmlFrame struct {
	ID    int64
	Event string
	Data  string // the data lines joined with "\n", as EventSource does
	Lines int    // how many data lines carried it
}

type htmlStream struct {
	t    *testing.T
	res  *http.Response
	scan *bufio.Scanner
}

// openTimeline connects to a session's HTML stream; query is e.g. "?after=3".
func (c *client) openTimeline(t *testing.T, session, query string, headers ...string) *htmlStream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.a.url("/research/"+session+"/stream"+query), nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("timeline stream: %d %v", res.StatusCode, res.Header)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &htmlStream{t: t, res: res, scan: sc}
}

func (s *htmlStream) next() htmlFrame {
	s.t.Helper()
	var f htmlFrame
	var data []string
	for s.scan.Scan() {
		line := s.scan.Text()
		switch {
		case line == "":
			if f.Event != "" {
				f.Data, f.Lines = strings.Join(data, "\n"), len(data)
				return f
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			f.ID, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			f.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[6:])
		default:
			s.t.Fatalf("unexpected line in the stream: %q", line)
		}
	}
	s.t.Fatalf("stream ended: %v", s.scan.Err())
	return f
}

// untilDone reads frames up to and including the one with the done line.
func (s *htmlStream) untilDone() []htmlFrame {
	s.t.Helper()
	var out []htmlFrame
	for {
		f := s.next()
		out = append(out, f)
		if strings.Contains(f.Data, `data-testid="done"`) {
			return out
		}
	}
}

// newResearchSession creates a session through the form and returns its id.
func newResearchSession(t *testing.T, c *client) string {
	t.Helper()
	res := c.postForm("/research", url.Values{"title": {"Perseus cluster"}})
	expectStatus(t, "create session", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/research/") {
		t.Fatalf("create session went to %q", loc)
	}
	return strings.TrimPrefix(loc, "/research/")
}

func (a *testApp) waitTurn(t *testing.T, session string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.rt.Wait(ctx, session); err != nil {
		t.Fatal(err)
	}
}

func expectContains(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(body, p) {
			t.Fatalf("%s does not contain %q:\n%s", what, p, body)
		}
	}
}

func expectLacks(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(body, p) {
			t.Fatalf("%s contains %q:\n%s", what, p, body)
		}
	}
}

var toolCardRE = regexp.MustCompile(`(?s)<article class="card tool-card" id="tool-call_1".*?</article>`)

func TestResearchPagesAndOwnership(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()

	res := c.get("/research")
	expectStatus(t, "empty list", res, http.StatusOK)
	expectContains(t, "empty list", res.body, "You have no sessions yet", `href="/research" aria-current="page"`)

	expectStatus(t, "long title", c.postForm("/research", url.Values{"title": {strings.Repeat("t", 201)}}), http.StatusBadRequest)
	s := newResearchSession(t, c)
	res = c.get("/research")
	expectContains(t, "list", res.body, `href="/research/`+s+`"`, "Perseus cluster")
	res = c.get("/research/" + s)
	expectStatus(t, "session page", res, http.StatusOK)
	expectContains(t, "session page", res.body,
		`<h1>Perseus cluster</h1>`,
		`<section id="timeline"`, `aria-label="Timeline of this session"`, `hx-ext="sse"`,
		`sse-connect="/research/`+s+`/stream?after=0"`, `sse-swap="timeline"`, `hx-swap="beforeend settle:0ms"`,
		`<label for="question">`, `hx-post="/research/`+s+`/turns"`)
	expectLacks(t, "idle session page", res.body, `data-testid="stop-button"`, `data-testid="model-note"`,
		`role="log"`) // the timeline is no live region: tokens are not announced, answers are

	other := a.member("edwin", "expanding-universe")
	for _, path := range []string{"/research/" + s, "/research/" + s + "/stream", "/research/nope"} {
		expectStatus(t, "other user's "+path, other.get(path), http.StatusNotFound)
	}
	for _, path := range []string{"/turns", "/cancel", "/answers", "/permissions"} {
		res := other.postForm("/research/"+s+path, url.Values{"question": {"x"}, "question_id": {"q"}, "answer": {"a"}, "request_id": {"r"}, "decision": {"deny"}})
		expectStatus(t, "other user's POST "+path, res, http.StatusNotFound)
	}
	if res := other.get("/research"); strings.Contains(res.body, s) {
		t.Fatal("another user's list shows the session")
	}
	res = a.client().get("/research/" + s)
	expectStatus(t, "anonymous", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login?next=") {
		t.Fatalf("anonymous redirected to %q", loc)
	}
}

// TestResearchTurnStreamAndHistory runs a scripted two-step turn (a tool
// call, then an answer) and checks the HTML stream frame by frame, then
// that the page shows the same timeline after a reload.
func TestResearchTurnStreamAndHistory(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}).WithUsage(120, 30),
		// The pause makes the runtime send the parts as two text events.
		llmtest.Text("NGC 1275 is **Perseus A**,\n", "a radio galaxy at $z = 0.0176$.").WithUsage(200, 20).WithDelay(0, 150*time.Millisecond),
	)
	stream := c.openTimeline(t, s, "?after=0")

	// Without JavaScript: the form posts and is redirected to the page.
	res := c.postForm("/research/"+s+"/turns", url.Values{"question": {"What is NGC 1275?"}, "thinking_field": {"1"}})
	expectStatus(t, "ask", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/research/"+s {
		t.Fatalf("ask redirected to %q", loc)
	}
	frames := stream.untilDone()
	for i, f := range frames {
		if f.Event != "timeline" || f.ID != int64(i+1) {
			t.Fatalf("frame %d: event %q id %d", i, f.Event, f.ID)
		}
	}
	all := ""
	for _, f := range frames {
		all += f.Data + "\n"
	}
	// The turn opens with its question and shows the Stop button.
	expectContains(t, "session frame", frames[0].Data, `id="turn-1"`, `<h2>Question 1</h2>`,
		`id="turn-controls"`, `hx-swap-oob="true"`, `data-testid="stop-button"`)
	expectContains(t, "stream", all, `What is NGC 1275?`)
	// The tool card, then its result swapped into the card by id.
	expectContains(t, "stream", all, `<article class="card tool-card" id="tool-call_1"`, `<code>todo_write</code>`,
		"&#34;subject&#34;: &#34;look up NGC 1275&#34;", // arguments pretty-printed
		`<div class="tool-result" id="tool-call_1-result" hx-swap-oob="true">`, `Done in`)
	// Streamed text: a block, then out-of-band appends to it.
	m := regexp.MustCompile(`<div class="model-text" id="(text-\d+)"`).FindStringSubmatch(all)
	if m == nil {
		t.Fatalf("no text block in the stream:\n%s", all)
	}
	textID := m[1]
	expectContains(t, "stream", all, `<span hx-swap-oob="beforeend:#`+textID+`">a radio galaxy at $z = 0.0176$.</span>`)
	// Done: the final answer as Markdown replaces the streamed text.
	done := frames[len(frames)-1]
	expectContains(t, "done frame", done.Data,
		`<div class="answer" id="`+textID+`" tabindex="-1" aria-live="polite" data-testid="answer" hx-swap-oob="true">`,
		`<strong>Perseus A</strong>`, `<span class="math math-inline">$z = 0.0176$</span>`,
		`Answered in 2 steps.`,
		// The turn's metrics, and the session panel's body refreshed in place.
		`<details class="turn-metrics" id="metrics-turn-1" data-testid="turn-metrics">`,
		`<div id="metrics-panel-body" hx-swap-oob="true">`, `data-testid="metric-turns">1<`,
		// The model in use, refreshed with the Stop button's area.
		`<span id="model-status" data-testid="model-status" hx-swap-oob="true">`)
	if done.Lines < 2 {
		t.Fatalf("multi-line HTML came in %d data line(s)", done.Lines)
	}
	expectContains(t, "usage", all, `Step 1 · <code>test-model</code> · 120 prompt + 30 completion tokens`)
	stream.res.Body.Close()

	// A reload renders the same timeline from the log.
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	expectContains(t, "page after the turn", page,
		`<p class="question" id="question-1">What is NGC 1275?</p>`,
		`<div class="answer" id="`+textID+`" tabindex="-1" aria-live="polite" data-testid="answer"><div class="markdown" hx-disable>`,
		`<strong>Perseus A</strong>`, `Answered in 2 steps.`,
		`sse-connect="/research/`+s+`/stream?after=`+strconv.FormatInt(done.ID, 10)+`"`)
	expectLacks(t, "page after the turn", page, `data-testid="model-text"`, `data-testid="stop-button"`)
	card := toolCardRE.FindString(page)
	liveCard := toolCardRE.FindString(all)
	liveResult := regexp.MustCompile(`(?s)<div class="tool-result" id="tool-call_1-result" hx-swap-oob="true">.*?</div>`).FindString(all)
	want := strings.Replace(liveCard, `<div class="tool-result" id="tool-call_1-result"><p class="tool-status running">Running…</p></div>`,
		strings.Replace(liveResult, ` hx-swap-oob="true"`, "", 1), 1)
	if card == "" || card != want {
		t.Fatalf("the reloaded tool card differs from the live one:\npage: %s\nlive: %s", card, want)
	}

	// The timeline's answer is the same HTML live and reloaded.
	liveAnswer := regexp.MustCompile(`(?s)<div class="answer".*?</div></div>`).FindString(done.Data)
	pageAnswer := regexp.MustCompile(`(?s)<div class="answer".*?</div></div>`).FindString(page)
	if strings.Replace(liveAnswer, ` hx-swap-oob="true"`, "", 1) != pageAnswer {
		t.Fatalf("answer differs:\nlive: %s\npage: %s", liveAnswer, pageAnswer)
	}

	// The list shows the turn.
	expectContains(t, "list", c.get("/research").body, "<td>1 question</td>")
}

// TestResearchStreamResume checks that a stream resumed with Last-Event-ID
// (or ?after=) starts right after it, and that fragments continue the
// blocks already on the page.
func TestResearchStreamResume(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(llmtest.Text("part one, ", "part two.").WithDelay(0, 150*time.Millisecond))
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"resume?"}}, "HX-Request", "true"), http.StatusOK)
	frames := stream.untilDone()
	a.waitTurn(t, s)

	var firstText int64
	for _, f := range frames {
		if strings.Contains(f.Data, `class="model-text"`) {
			firstText = f.ID
			break
		}
	}
	if firstText == 0 || !strings.Contains(frames[firstText].Data, `hx-swap-oob="beforeend:#text-`) {
		t.Fatalf("want a text block followed by an appended delta, got:\n%v", frames)
	}
	for _, h := range [][]string{{"Last-Event-ID", strconv.FormatInt(firstText, 10)}, nil} {
		query := ""
		if h == nil {
			query = "?after=" + strconv.FormatInt(firstText, 10)
		}
		resumed := c.openTimeline(t, s, query, h...)
		rest := resumed.untilDone()
		if len(rest) != len(frames)-int(firstText) {
			t.Fatalf("resumed after %d: %d frames, want %d", firstText, len(rest), len(frames)-int(firstText))
		}
		for i, f := range rest {
			if f.ID != firstText+int64(i)+1 || f.Data != frames[firstText+int64(i)].Data {
				t.Fatalf("resumed frame %d (id %d) differs from the live one:\n%s\n---\n%s", i, f.ID, f.Data, frames[firstText+int64(i)].Data)
			}
		}
	}
	// Last-Event-ID wins over ?after= (the browser's reconnect keeps the URL).
	resumed := c.openTimeline(t, s, "?after=0", "Last-Event-ID", strconv.FormatInt(frames[len(frames)-1].ID-1, 10))
	if f := resumed.next(); f.ID != frames[len(frames)-1].ID {
		t.Fatalf("resumed at %d", f.ID)
	}
	res := c.get("/research/" + s + "/stream?after=x")
	expectStatus(t, "bad after", res, http.StatusBadRequest)
}

func TestResearchAskWithHTMX(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	hx := []string{"HX-Request", "true"}

	res := c.postForm("/research/"+s+"/turns", url.Values{"question": {"  "}}, hx...)
	expectStatus(t, "empty question (htmx)", res, http.StatusOK)
	expectContains(t, "empty question (htmx)", res.body, `<form id="question-form"`, "Write a question first.", `aria-invalid="true"`)
	expectLacks(t, "htmx fragment", res.body, "<html", "<!doctype")

	res = c.postForm("/research/"+s+"/turns", url.Values{"question": {"  "}})
	expectStatus(t, "empty question (no JS)", res, http.StatusBadRequest)
	expectContains(t, "empty question (no JS)", res.body, "<h1>Perseus cluster</h1>", "Write a question first.")

	a.fake.Enqueue(llmtest.Text("slow").WithDelay(10*time.Second, 0))
	res = c.postForm("/research/"+s+"/turns", url.Values{"question": {"first"}}, hx...)
	expectStatus(t, "ask (htmx)", res, http.StatusOK)
	expectContains(t, "ask (htmx)", res.body, `<form id="question-form"`, `></textarea>`)
	expectLacks(t, "ask (htmx)", res.body, "first", `class="field-error"`)
	expectContains(t, "page while running", c.get("/research/"+s).body, `data-testid="stop-button"`, `hx-post="/research/`+s+`/cancel"`)

	res = c.postForm("/research/"+s+"/turns", url.Values{"question": {"second"}}, hx...)
	expectContains(t, "second turn (htmx)", res.body, "A turn is already running", ">second</textarea>")
	expectStatus(t, "second turn (no JS)", c.postForm("/research/"+s+"/turns", url.Values{"question": {"second"}}), http.StatusConflict)

	expectStatus(t, "cancel (htmx)", c.postForm("/research/"+s+"/cancel", nil, hx...), http.StatusNoContent)
	a.waitTurn(t, s)
	res = c.postForm("/research/"+s+"/cancel", nil)
	expectStatus(t, "cancel idle (no JS)", res, http.StatusSeeOther)
	expectContains(t, "flash", c.get("/research/"+s).body, "No turn is running in this session.", "Stopped by you.")
}

// TestResearchAnswerIsSanitised: what the model writes cannot run script,
// handlers, javascript: URLs or htmx attributes in the page (docs/features.md S6).
func TestResearchAnswerIsSanitised(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	evil := "Look: <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n" +
		"[click](javascript:alert(3)) <a href=\"https://example.org\" hx-get=\"/admin\" onclick=\"alert(4)\">ok</a> " +
		"<div hx-post=\"/logout\" hx-trigger=\"load\" hx-swap-oob=\"true\" id=\"timeline\" style=\"color:red\">x</div>"
	a.fake.Enqueue(llmtest.Text(evil))
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"Test"}}), http.StatusSeeOther)
	frames := stream.untilDone()
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	for what, body := range map[string]string{"done frame": frames[len(frames)-1].Data, "page": page} {
		answer := regexp.MustCompile(`(?s)<div class="markdown" hx-disable>.*?</div></div>`).FindString(body)
		expectContains(t, what, answer, `<a href="https://example.org" rel="nofollow noreferrer noopener" target="_blank">ok</a>`)
		expectLacks(t, what+" answer", answer, "<script", "alert", "onerror", "onclick", "javascript:", "hx-get", "hx-post",
			"hx-trigger", "hx-swap-oob", `id="timeline"`, "style=", "<img")
	}
	expectLacks(t, "page", page, "alert(")
}

func TestResearchAskUserCard(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "q1", Name: "ask_user", Args: `{"question":"Which band?","options":["V","K"]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "q2", Name: "ask_user", Args: `{"question":"Which epoch?"}`}),
		llmtest.Text("Using K band at J2000."),
	)
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"photometry"}}), http.StatusSeeOther)
	qid := func() string {
		for {
			f := stream.next()
			if m := regexp.MustCompile(`name="question_id" value="([^"]+)"`).FindStringSubmatch(f.Data); m != nil {
				expectContains(t, "ask card", f.Data, `data-testid="ask-card"`, "Which", `hx-post="/research/`+s+`/answers"`)
				return m[1]
			}
		}
	}
	// With htmx: the card's body is swapped for the answer sent.
	q1 := qid()
	expectContains(t, "page while asking", c.get("/research/"+s).body, `<button type="submit" name="answer" value="K">K</button>`)
	res := c.postForm("/research/"+s+"/answers", url.Values{"question_id": {q1}, "answer": {"K"}}, "HX-Request", "true")
	expectStatus(t, "answer (htmx)", res, http.StatusOK)
	expectContains(t, "answer (htmx)", res.body, `<div class="card-body" id="ask-`+q1+`-body">`, "Answer sent: K")
	// The turn moves on: the stream closes the card.
	for {
		f := stream.next()
		if strings.Contains(f.Data, `id="ask-`+q1+`" aria-labelledby`) {
			expectContains(t, "closed card", f.Data, `hx-swap-oob="true"`, "This question is closed")
			break
		}
	}
	// Without JavaScript: 303 back with a status message.
	q2 := qid()
	expectStatus(t, "empty answer", c.postForm("/research/"+s+"/answers", url.Values{"question_id": {q2}, "answer": {" "}}), http.StatusSeeOther)
	res = c.postForm("/research/"+s+"/answers", url.Values{"question_id": {q2}, "answer": {"J2000"}})
	expectStatus(t, "answer (no JS)", res, http.StatusSeeOther)
	stream.untilDone()
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	expectContains(t, "page after answers", page, "Answer sent.", "This question is closed", "The user answered: J2000")
	expectLacks(t, "page after answers", page, `name="question_id"`)
	res = c.postForm("/research/"+s+"/answers", url.Values{"question_id": {q2}, "answer": {"again"}}, "HX-Request", "true")
	expectContains(t, "late answer", res.body, "no longer waiting")
}

func TestResearchExpiredQuestion(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "q1", Name: "ask_user", Args: `{"question":"Which band?"}`}), llmtest.Text("ok"))
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"photometry"}}), http.StatusSeeOther)
	for !strings.Contains(stream.next().Data, `data-testid="ask-card"`) {
	}
	a.clock.Advance(6 * time.Minute) // past expires_at, as the page sees it
	expectContains(t, "page", c.get("/research/"+s).body, "Expired: nobody answered in time.")
	expectStatus(t, "cancel", c.postForm("/research/"+s+"/cancel", nil), http.StatusSeeOther)
	a.waitTurn(t, s)
	// Closed after its deadline, the card stays expired (live and replayed
	// alike: the closing event's time decides, not the page's clock).
	page := c.get("/research/" + s).body
	expectContains(t, "page after the turn", page, "Expired: nobody answered in time.")
	expectLacks(t, "page after the turn", page, "This question is closed")
}

func TestResearchPermissionCard(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	u, err := a.store.UserByName(context.Background(), adminName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.PutPermissionRule(context.Background(), u.ID, "todo_write", "*", "ask"); err != nil {
		t.Fatal(err)
	}
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "w1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"x","status":"pending"}]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "w2", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"y","status":"pending"}]}`}),
		llmtest.Text("done"),
	)
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"plan"}}), http.StatusSeeOther)
	rid := func() string {
		for {
			f := stream.next()
			if m := regexp.MustCompile(`name="request_id" value="([^"]+)"`).FindStringSubmatch(f.Data); m != nil {
				expectContains(t, "permission card", f.Data, `data-testid="permission-card"`, "<code>todo_write</code>",
					`value="allow_once">Allow once`, `value="allow_always">Always allow`, `value="deny" class="danger">Deny`)
				return m[1]
			}
		}
	}
	r1 := rid()
	res := c.postForm("/research/"+s+"/permissions", url.Values{"request_id": {r1}, "decision": {"maybe"}}, "HX-Request", "true")
	expectStatus(t, "bad decision (htmx)", res, http.StatusBadRequest)
	res = c.postForm("/research/"+s+"/permissions", url.Values{"request_id": {r1}, "decision": {"allow_once"}}, "HX-Request", "true")
	expectStatus(t, "allow (htmx)", res, http.StatusOK)
	expectContains(t, "allow (htmx)", res.body, "Allowed once.")
	r2 := rid()
	res = c.postForm("/research/"+s+"/permissions", url.Values{"request_id": {r2}, "decision": {"deny"}})
	expectStatus(t, "deny (no JS)", res, http.StatusSeeOther)
	stream.untilDone()
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	expectContains(t, "page", page, "Decision sent.", "This request is closed", "The user denied permission")
}

// TestResearchModelUnreachable: a failed model call shows the error and
// the configuration note, live and after a reload.
func TestResearchModelUnreachable(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(llmtest.HTTPError(http.StatusNotFound, nil, "model test-model not found"))
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"hello"}}), http.StatusSeeOther)
	all := ""
	for _, f := range stream.untilDone() {
		all += f.Data
	}
	expectContains(t, "stream", all, `data-testid="timeline-error"`, "model test-model not found",
		`<div id="model-note" hx-swap-oob="true">`, "LLM_BASE_URL", "Ended with an error.")
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	expectContains(t, "page", page, `data-testid="model-note"`, "<code>"+a.srv.cfg.LLMBaseURL+"</code>",
		"OpenAI", "DashScope", "DeepSeek", "vLLM", "Ollama", "model test-model not found")

	// A turn that works hides the note again.
	a.fake.Enqueue(llmtest.Text("hi"))
	expectStatus(t, "ask again", c.postForm("/research/"+s+"/turns", url.Values{"question": {"again"}}), http.StatusSeeOther)
	a.waitTurn(t, s)
	expectLacks(t, "page after a good turn", c.get("/research/"+s).body, `data-testid="model-note"`)
}

// progressArgs are the arguments of the test tool "survey".
type progressArgs struct {
	Fields int `json:"fields" jsonschema:"description=how many fields"`
}

// TestResearchThinkingProgressAndFailure: reasoning goes into a collapsed
// details block, progress lines into the tool's card, a failed call is
// marked as failed; live and reloaded alike.
func TestResearchThinkingProgressAndFailure(t *testing.T) {
	a := newApp(t, nil)
	*a.extraTools = append(*a.extraTools, tools.New("survey", "Scans sky fields.",
		func(ctx context.Context, tc *tools.Context, args progressArgs) (tools.Result, error) {
			for i := 1; i <= args.Fields; i++ {
				tc.Report("field " + strconv.Itoa(i) + " of " + strconv.Itoa(args.Fields))
			}
			return tools.Errorf("field %d is <masked>", args.Fields), nil
		}))
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(
		llmtest.Thinking("The user wants a survey.").Then(llmtest.ToolCalls(llmtest.Call{ID: "s1", Name: "survey", Args: `{"fields":2}`})),
		llmtest.Text("The survey failed."),
	)
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"survey"}, "thinking_field": {"1"}, "thinking": {"on"}}), http.StatusSeeOther)
	all := ""
	for _, f := range stream.untilDone() {
		all += f.Data + "\n"
	}
	expectContains(t, "stream", all,
		`<details class="thought" id="thought-2"><summary>Thinking</summary><div class="thought-text" id="thought-2-text">The user wants a survey.</div></details>`,
		`<ol hx-swap-oob="beforeend:#tool-s1-progress"><li>field 1 of 2</li></ol>`,
		`<ol hx-swap-oob="beforeend:#tool-s1-progress"><li>field 2 of 2</li></ol>`,
		`<p class="tool-status failed">`, `<details class="tool-output failed" open>`, `field 2 is &lt;masked&gt;`)
	a.waitTurn(t, s)
	page := c.get("/research/" + s).body
	expectContains(t, "page", page,
		`<div class="thought-text" id="thought-2-text">The user wants a survey.</div>`,
		`<ol class="tool-progress" id="tool-s1-progress" aria-label="Progress"><li>field 1 of 2</li><li>field 2 of 2</li></ol>`,
		`<details class="tool-output failed" open>`)
}

func TestResearchUnderBasePath(t *testing.T) {
	a := newApp(t, map[string]string{"BASE_PATH": "/astro"})
	c := a.setupAdmin()
	res := c.postForm("/research", url.Values{})
	expectStatus(t, "create", res, http.StatusSeeOther)
	s := strings.TrimPrefix(res.Header.Get("Location"), "/astro/research/")
	if s == res.Header.Get("Location") {
		t.Fatalf("created session at %q", s)
	}
	page := c.get("/research/" + s).body
	expectContains(t, "page", page, "<h1>Untitled session</h1>", `sse-connect="/astro/research/`+s+`/stream?after=0"`,
		`action="/astro/research/`+s+`/turns"`, `hx-post="/astro/research/`+s+`/turns"`, `href="/astro/research"`)
	a.fake.Enqueue(llmtest.Text("ok"))
	stream := c.openTimeline(t, s, "")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"q"}}), http.StatusSeeOther)
	expectContains(t, "session frame", stream.next().Data, `hx-post="/astro/research/`+s+`/cancel"`)
	stream.untilDone()
	a.waitTurn(t, s)
}

func TestResearchTaskListInTimeline(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "t1", Name: "todo_write", Args: `{"todos":[` +
			`{"id":"a","subject":"Resolve NGC 1275","status":"completed"},` +
			`{"id":"b","subject":"Search ADS for cavity papers","status":"in_progress","blocked_by":["a"]},` +
			`{"id":"c","subject":"Write the summary","status":"pending","blocked_by":["b"]}]}`}),
		llmtest.Text("Planned."),
	)
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"Plan the review"}}), http.StatusSeeOther)
	a.waitTurn(t, s)
	page := c.get("/research/" + s)
	expectContains(t, "task list", page.body, `data-testid="task-list"`, "Resolve NGC 1275", "in progress", "Search ADS for cavity papers", "(after b)", "to do")
}
