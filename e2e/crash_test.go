package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// kill ends the server with SIGKILL, as a crash or OOM kill would; the
// normal SIGTERM cleanup is then skipped.
func (a *app) kill(tb testing.TB) {
	tb.Helper()
	a.stopOnce.Do(func() {
		if err := a.cmd.Process.Kill(); err != nil {
			tb.Fatalf("kill: %v", err)
		}
		<-a.exited
	})
}

// apiClient is a signed-in JSON API client.
type apiClient struct {
	tb   testing.TB
	base string
	hc   *http.Client
}

func signIn(tb testing.TB, base, user, pass string) *apiClient {
	tb.Helper()
	jar, _ := cookiejar.New(nil)
	c := &apiClient{tb: tb, base: base, hc: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	var out map[string]any
	c.post("/api/auth/login", fmt.Sprintf(`{"username":%q,"password":%q}`, user, pass), http.StatusOK, &out)
	return c
}

func (c *apiClient) post(path, body string, want int, out any) {
	c.tb.Helper()
	res, err := c.hc.Post(c.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		c.tb.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.tb.Fatalf("POST %s = %d, want %d: %s", path, res.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.tb.Fatalf("POST %s: %v: %s", path, err, b)
		}
	}
}

func (c *apiClient) get(path string, out any) {
	c.tb.Helper()
	res, err := c.hc.Get(c.base + path)
	if err != nil {
		c.tb.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		c.tb.Fatalf("GET %s = %d", path, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		c.tb.Fatal(err)
	}
}

// waitEvent reads the session's event stream from the start until an event
// of kind arrives, and returns its data.
func (c *apiClient) waitEvent(session, kind string) map[string]any {
	c.tb.Helper()
	return c.waitTurnEvent(session, kind, 0)
}

// waitTurnEvent is waitEvent for events of turn minTurn or later.
func (c *apiClient) waitTurnEvent(session, kind string, minTurn int) map[string]any {
	c.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/sessions/"+session+"/events", nil)
	client := *c.hc
	client.Timeout = 0
	res, err := client.Do(req)
	if err != nil {
		c.tb.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = line[7:]
		case strings.HasPrefix(line, "data: ") && event == kind:
			var data map[string]any
			if err := json.Unmarshal([]byte(line[6:]), &data); err != nil {
				c.tb.Fatal(err)
			}
			if turn, _ := data["turn"].(float64); int(turn) >= minTurn {
				return data
			}
		}
	}
	c.tb.Fatalf("no %s event: %v", kind, sc.Err())
	return nil
}

// TestKilledMidToolAndRestarted kills the server while a tool call is in
// flight (ask_user waiting for an answer), restarts it on the same data,
// and checks the turn was closed as interrupted, the conversation is valid
// for the model, and the session takes a new turn.
func TestKilledMidToolAndRestarted(t *testing.T) {
	fake := llmtest.New(t)
	env := map[string]string{"ADMIN_USER": "vera", "ADMIN_PASSWORD": "galaxy-rotation",
		"LLM_BASE_URL": fake.URL(), "LLM_MODEL": "test-model"}
	first := startApp(t, env)
	c := signIn(t, first.URL, "vera", "galaxy-rotation")
	var sess struct{ ID string }
	c.post("/api/sessions", `{}`, http.StatusCreated, &sess)
	fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "ask1", Name: "ask_user", Args: `{"question":"Which epoch?"}`}))
	c.post("/api/sessions/"+sess.ID+"/turns", `{"question":"Convert these coordinates"}`, http.StatusAccepted, nil)
	c.waitEvent(sess.ID, "ask_user")

	first.kill(t)
	env["DATA_DIR"] = first.DataDir
	second := startApp(t, env)
	c = signIn(t, second.URL, "vera", "galaxy-rotation")
	done := c.waitEvent(sess.ID, "done")
	if done["reason"] != "interrupted" {
		t.Fatalf("after restart the turn ended with %v, want interrupted", done)
	}
	var msgs struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	c.get("/api/sessions/"+sess.ID+"/messages", &msgs)
	last := msgs.Messages[len(msgs.Messages)-1]
	if last.Role != "tool" || last.ToolCallID != "ask1" || !strings.Contains(last.Content, "interrupted") {
		t.Fatalf("last message %+v, want the synthetic interrupted result", last)
	}

	fake.Enqueue(llmtest.Text("Assuming J2000."))
	c.post("/api/sessions/"+sess.ID+"/turns", `{"question":"Go on"}`, http.StatusAccepted, nil)
	if d := c.waitTurnEvent(sess.ID, "done", 2); d["reason"] != "answer" {
		t.Fatalf("the next turn ended with %v", d)
	}
	reqs := fake.Requests()
	sent := reqs[len(reqs)-1].Messages
	var sawResult bool
	for i, m := range sent {
		if m.Role == "assistant" && len(m.ToolCalls) == 1 {
			sawResult = i+1 < len(sent) && sent[i+1].Role == "tool" && sent[i+1].ToolCallID == "ask1"
		}
	}
	if !sawResult {
		t.Fatalf("the model was sent a conversation with an unanswered call: %+v", sent)
	}
}
