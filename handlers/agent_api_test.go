package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// sseFrame is one server-sent event.
type sseFrame struct {
	ID    int64
	Event string
	Data  map[string]any
}

// sseStream reads frames from an open event stream.
type sseStream struct {
	t    *testing.T
	res  *http.Response
	scan *bufio.Scanner
}

// openEvents connects to a session's event stream; headers may carry
// Last-Event-ID.
func (c *client) openEvents(t *testing.T, session string, headers ...string) *sseStream {
	t.Helper()
	return c.openEventsQuery(t, session, "", headers...)
}

func (c *client) openEventsQuery(t *testing.T, session, query string, headers ...string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.a.url("/api/sessions/"+session+"/events"+query), nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" || res.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("events: %d %v", res.StatusCode, res.Header)
	}
	return &sseStream{t: t, res: res, scan: bufio.NewScanner(res.Body)}
}

// next returns the next frame (heartbeats skipped).
func (s *sseStream) next() sseFrame {
	s.t.Helper()
	var f sseFrame
	for s.scan.Scan() {
		line := s.scan.Text()
		switch {
		case line == "":
			if f.Event != "" {
				return f
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			f.ID, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			f.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &f.Data); err != nil {
				s.t.Fatalf("data is not JSON: %s", line)
			}
		}
	}
	s.t.Fatalf("stream ended: %v", s.scan.Err())
	return f
}

// until reads frames up to and including the first of kind.
func (s *sseStream) until(kind string) []sseFrame {
	s.t.Helper()
	var out []sseFrame
	for {
		f := s.next()
		out = append(out, f)
		if f.Event == kind {
			return out
		}
	}
}

func frameKinds(fs []sseFrame) string {
	var ks []string
	for _, f := range fs {
		if len(ks) > 0 && ks[len(ks)-1] == f.Event && f.Event == "text_delta" {
			continue
		}
		ks = append(ks, f.Event)
	}
	return strings.Join(ks, " ")
}

func createSession(t *testing.T, c *client) string {
	t.Helper()
	res := c.postJSON("/api/sessions", `{"title":"Perseus cluster"}`)
	expectStatus(t, "create session", res, http.StatusCreated)
	var s SessionJSON
	res.json(t, &s)
	if s.ID == "" || s.Title != "Perseus cluster" {
		t.Fatalf("session %+v", s)
	}
	return s.ID
}

func TestTurnOverHTTPWithSSE(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}),
		llmtest.Text("NGC 1275 is ", "Perseus A."),
	)
	stream := c.openEvents(t, s)
	res := c.postJSON("/api/sessions/"+s+"/turns", `{"question":"What is NGC 1275?"}`)
	expectStatus(t, "start turn", res, http.StatusAccepted)
	var turn map[string]int
	res.json(t, &turn)
	if turn["turn"] != 1 {
		t.Fatalf("turn %v", turn)
	}
	frames := stream.until("done")
	want := "session usage tool_call tool_result text_delta usage done"
	if got := frameKinds(frames); got != want {
		t.Fatalf("SSE events:\n got %s\nwant %s", got, want)
	}
	for i, f := range frames {
		if f.ID != int64(i+1) || f.Data["seq"] != float64(i+1) || f.Data["kind"] != f.Event ||
			f.Data["turn"] != float64(1) || f.Data["agent"] != "lead" {
			t.Fatalf("frame %d: %+v", i, f)
		}
	}
	call := frames[2].Data
	if call["id"] != "call_1" || call["name"] != "todo_write" || call["step"] != float64(1) || call["arguments"] == "" {
		t.Fatalf("tool_call fields %v", call)
	}
	result := frames[3].Data
	if result["tool_call_id"] != "call_1" || result["name"] != "todo_write" || result["is_error"] != false ||
		!strings.Contains(result["output"].(string), "look up NGC 1275") {
		t.Fatalf("tool_result fields %v", result)
	}
	if frames[0].Data["session_id"] != s {
		t.Fatalf("session frame %v", frames[0].Data)
	}
	done := frames[len(frames)-1].Data
	if done["reason"] != "answer" || done["answer"] != "NGC 1275 is Perseus A." {
		t.Fatalf("done %v", done)
	}

	// Reconnecting with Last-Event-ID replays exactly what came after.
	resumed := c.openEvents(t, s, "Last-Event-ID", "3")
	rest := resumed.until("done")
	if rest[0].ID != 4 || len(rest) != len(frames)-3 {
		t.Fatalf("resume from 3: first id %d, %d frames (want %d)", rest[0].ID, len(rest), len(frames)-3)
	}
	afterQ := c.openEventsQuery(t, s, "?after=5")
	if f := afterQ.next(); f.ID != 6 {
		t.Fatalf("?after=5 resumed at %d", f.ID)
	}

	// The persisted conversation.
	res = c.get("/api/sessions/" + s + "/messages")
	expectStatus(t, "messages", res, http.StatusOK)
	var body map[string][]MessageJSON
	res.json(t, &body)
	msgs := body["messages"]
	if len(msgs) != 4 || msgs[0].Role != "user" || msgs[1].Role != "assistant" || len(msgs[1].ToolCalls) != 1 ||
		msgs[2].Role != "tool" || msgs[2].ToolCallID != "call_1" || msgs[3].Content != "NGC 1275 is Perseus A." {
		t.Fatalf("messages %+v", msgs)
	}
	res = c.get("/api/sessions")
	var list map[string][]SessionJSON
	res.json(t, &list)
	if len(list["sessions"]) != 1 || list["sessions"][0].TurnCount != 1 || list["sessions"][0].Running {
		t.Fatalf("sessions %+v", list)
	}
}

func TestTurnAPIErrors(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	expectAPIError(t, "empty question", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"  "}`), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "malformed", c.postJSON("/api/sessions/"+s+"/turns", `{"question":`), http.StatusBadRequest, "invalid_json")
	expectAPIError(t, "unknown session", c.postJSON("/api/sessions/nope/turns", `{"question":"x"}`), http.StatusNotFound, "not_found")
	expectAPIError(t, "cancel idle", c.postJSON("/api/sessions/"+s+"/cancel", ``), http.StatusConflict, "no_turn")
	expectAPIError(t, "unknown question", c.postJSON("/api/sessions/"+s+"/answers", `{"question_id":"q","answer":"x"}`), http.StatusNotFound, "not_found")
	expectAPIError(t, "bad decision", c.postJSON("/api/sessions/"+s+"/permissions", `{"request_id":"r","decision":"maybe"}`), http.StatusBadRequest, "invalid_request")
	expectAPIError(t, "long title", c.postJSON("/api/sessions", `{"title":"`+strings.Repeat("t", 201)+`"}`), http.StatusBadRequest, "invalid_request")

	// One running turn per session: 409 while it runs; cancel stops it.
	a.fake.Enqueue(llmtest.Text("slow").WithDelay(10*time.Second, 0))
	stream := c.openEvents(t, s)
	expectStatus(t, "start", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"first"}`), http.StatusAccepted)
	expectAPIError(t, "second turn", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"second"}`), http.StatusConflict, "turn_running")
	expectStatus(t, "cancel", c.postJSON("/api/sessions/"+s+"/cancel", ``), http.StatusAccepted)
	frames := stream.until("done")
	if frames[len(frames)-1].Data["reason"] != "cancelled" {
		t.Fatalf("done %v", frames[len(frames)-1].Data)
	}
}

func TestSessionsArePrivate(t *testing.T) {
	a := newApp(t, nil)
	owner := a.setupAdmin()
	s := createSession(t, owner)
	other := a.member("edwin", "expanding-universe")
	for _, path := range []string{"/api/sessions/" + s + "/messages", "/api/sessions/" + s + "/events"} {
		expectAPIError(t, "other user's "+path, other.get(path), http.StatusNotFound, "not_found")
	}
	expectAPIError(t, "other user's turn", other.postJSON("/api/sessions/"+s+"/turns", `{"question":"x"}`), http.StatusNotFound, "not_found")
	expectAPIError(t, "other user's cancel", other.postJSON("/api/sessions/"+s+"/cancel", ``), http.StatusNotFound, "not_found")
	var list map[string][]SessionJSON
	other.get("/api/sessions").json(t, &list)
	if len(list["sessions"]) != 0 {
		t.Fatalf("other user sees %+v", list)
	}
	expectAPIError(t, "anonymous", a.client().get("/api/sessions"), http.StatusUnauthorized, "unauthenticated")
}

func TestAskUserAndPermissionOverHTTP(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "q1", Name: "ask_user", Args: `{"question":"Which band?","options":["V","K"]}`}),
		llmtest.Text(fmt.Sprintf("Using %s band.", "K")),
	)
	stream := c.openEvents(t, s)
	expectStatus(t, "start", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"photometry"}`), http.StatusAccepted)
	ask := stream.until("ask_user")
	q := ask[len(ask)-1].Data
	if q["question"] != "Which band?" {
		t.Fatalf("ask_user %v", q)
	}
	body := fmt.Sprintf(`{"question_id":%q,"answer":"K"}`, q["question_id"])
	expectStatus(t, "answer", c.postJSON("/api/sessions/"+s+"/answers", body), http.StatusNoContent)
	expectAPIError(t, "answer twice", c.postJSON("/api/sessions/"+s+"/answers", body), http.StatusNotFound, "not_found")
	stream.until("done")
	if got := a.fake.Requests()[1].Messages[3].Content; got != "The user answered: K" {
		t.Fatalf("model got %q", got)
	}
}

func TestClientDisconnectMidTurn(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"x","status":"pending"}]}`}),
		llmtest.Text("answer after ", "the client left").WithDelay(300*time.Millisecond, 0),
	)
	stream := c.openEvents(t, s)
	expectStatus(t, "start", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"go"}`), http.StatusAccepted)
	seen := stream.until("tool_call")
	last := seen[len(seen)-1].ID
	stream.res.Body.Close() // the browser tab goes away mid-turn

	if err := a.rt.Wait(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	resumed := c.openEvents(t, s, "Last-Event-ID", strconv.FormatInt(last, 10))
	rest := resumed.until("done")
	for i, f := range rest {
		if f.ID != last+int64(i)+1 {
			t.Fatalf("after reconnect frame %d has id %d: gap or duplicate", i, f.ID)
		}
	}
	if d := rest[len(rest)-1].Data; d["reason"] != "answer" || d["answer"] != "answer after the client left" {
		t.Fatalf("done %v", d)
	}
}

func TestSearchHistoryAPI(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	a.fake.Enqueue(llmtest.Text("The cool core of Perseus has a cooling time below 1 Gyr."))
	stream := c.openEvents(t, s)
	expectStatus(t, "start", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"cooling time in Perseus?"}`), http.StatusAccepted)
	stream.until("done")

	res := c.get("/api/search/history?q=cooling+gyr")
	expectStatus(t, "search", res, http.StatusOK)
	var body struct {
		Hits []HistoryHitJSON `json:"hits"`
	}
	res.json(t, &body)
	if len(body.Hits) != 1 || body.Hits[0].Role != "assistant" || body.Hits[0].SessionID != s || len(body.Hits[0].Highlights) != 2 {
		t.Fatalf("hits %+v", body.Hits)
	}
	h := body.Hits[0]
	if got := h.Snippet[h.Highlights[0][0]:h.Highlights[0][1]]; got != "cooling" {
		t.Fatalf("highlight %q in %q", got, h.Snippet)
	}
	res = c.get("/api/search/history?q=perseus&session=" + s)
	res.json(t, &body)
	if len(body.Hits) < 2 {
		t.Fatalf("session-scoped hits %+v", body.Hits)
	}
	other := a.member("edwin", "expanding-universe")
	other.get("/api/search/history?q=perseus").json(t, &body)
	if len(body.Hits) != 0 {
		t.Fatalf("another user found %+v", body.Hits)
	}
	expectAPIError(t, "other's session filter", other.get("/api/search/history?q=x&session="+s), http.StatusNotFound, "not_found")
	expectAPIError(t, "bad limit", c.get("/api/search/history?q=x&limit=0"), http.StatusBadRequest, "invalid_request")
}

func TestCoordinatorTurnOverHTTP(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := createSession(t, c)
	var mu sync.Mutex
	lead := []llmtest.Turn{
		llmtest.ToolCalls(llmtest.Call{ID: "d1", Name: "delegate_task", Args: `{"title":"jets","task":"Survey M87 jet papers."}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "check_task", Args: `{"wait_seconds":20}`}),
		llmtest.Text("Jets are fast."),
	}
	a.fake.Handle(func(req llmtest.RecordedRequest) llmtest.Turn {
		if !strings.Contains(req.Messages[0].Content, "Coordinator mode") {
			return llmtest.Text("Conclusion: superluminal (2019ApJ...875L...1E).")
		}
		mu.Lock()
		defer mu.Unlock()
		next := lead[0]
		lead = lead[1:]
		return next
	})
	stream := c.openEvents(t, s)
	expectStatus(t, "coordinator turn", c.postJSON("/api/sessions/"+s+"/turns", `{"question":"M87 jet?","coordinator":true}`), http.StatusAccepted)
	frames := stream.until("done")
	var workerStates []string
	subagents := 0
	for _, f := range frames {
		switch f.Event {
		case "worker":
			if f.Data["title"] != "jets" || f.Data["worker_id"] == "" || f.Data["agent"] != "lead" {
				t.Fatalf("worker frame %v", f.Data)
			}
			workerStates = append(workerStates, f.Data["status"].(string))
		case "subagent":
			subagents++
			if !strings.HasPrefix(f.Data["agent_name"].(string), "sub_w_") {
				t.Fatalf("subagent frame %v", f.Data)
			}
		}
	}
	if strings.Join(workerStates, " ") != "queued running done" || subagents != 2 {
		t.Fatalf("worker states %v, %d subagent frames", workerStates, subagents)
	}
	if done := frames[len(frames)-1].Data; done["answer"] != "Jets are fast." {
		t.Fatalf("done %v", done)
	}
}
