package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"testing/iotest"
)

func TestNonStreamingMergesTurn(t *testing.T) {
	s := New(t)
	s.Enqueue(Thinking("th", "ink").Then(Text("he", "llo")).
		Then(ParallelToolCalls(Call{Name: "a", Args: `{"q":1}`}, Call{ID: "c2", Name: "b", Args: `{}`})).
		WithUsage(7, 3))
	_, body, err := post(t, t.Context(), s, "/chat/completions", `{"model":"m","messages":[]}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got completion
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	m := got.Choices[0].Message
	if m.Content != "hello" || m.ReasoningContent != "think" || got.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("message %+v finish %q", m, got.Choices[0].FinishReason)
	}
	want := []toolCallFull{
		{Type: "function", Function: functionDelta{Name: "a", Arguments: `{"q":1}`}},
		{ID: "c2", Type: "function", Function: functionDelta{Name: "b", Arguments: `{}`}},
	}
	if !slices.Equal(m.ToolCalls, want) {
		t.Errorf("tool calls %+v, want %+v", m.ToolCalls, want)
	}
	if got.Usage == nil || *got.Usage != (Usage{7, 3, 10}) {
		t.Errorf("usage %+v", got.Usage)
	}
}

func TestRecordsRequest(t *testing.T) {
	s := New(t)
	s.Enqueue(Text("ok"))
	body := `{"model":"qwen-plus","stream":true,"enable_thinking":true,"max_tokens":50,
	  "messages":[
	    {"role":"system","content":"sys"},
	    {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"grep","arguments":"{}"}}]},
	    {"role":"tool","tool_call_id":"c1","name":"grep","content":[{"type":"text","text":"out"}]}],
	  "tools":[{"type":"function","function":{"name":"grep","parameters":{}}}]}`
	if _, _, err := post(t, t.Context(), s, "/chat/completions", body, map[string]string{"Authorization": "Bearer k"}); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "qwen-plus" || !r.Stream || r.IncludeUsage || r.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("request %+v", r)
	}
	if !slices.Equal(r.Tools, []string{"grep"}) {
		t.Errorf("tools %v", r.Tools)
	}
	if string(r.Extra["enable_thinking"]) != "true" || string(r.Extra["max_tokens"]) != "50" || r.Has("model") {
		t.Errorf("extra %v", r.Extra)
	}
	wantCall := []ToolCall{{ID: "c1", Type: "function", Name: "grep", Arguments: "{}"}}
	if !slices.Equal(r.Messages[1].ToolCalls, wantCall) {
		t.Errorf("tool calls %+v", r.Messages[1].ToolCalls)
	}
	if last := r.LastMessage(); last.Role != "tool" || last.ToolCallID != "c1" || last.Content != "out" || last.Name != "grep" {
		t.Errorf("last message %+v", last)
	}
	if s.Pending() != 0 {
		t.Errorf("pending %d", s.Pending())
	}
}

func TestModelsAndEmbeddings(t *testing.T) {
	s := New(t)
	s.SetModels("a", "b")
	s.SetEmbeddingDim(4)
	resp, err := s.Client().Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var models struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&models); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(models.Data) != 2 || models.Data[0].ID != "a" || models.Data[1].ID != "b" {
		t.Errorf("models %+v", models)
	}

	_, body, err := post(t, t.Context(), s, "/embeddings", `{"model":"e","input":["x","y","x"]}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var emb struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &emb); err != nil {
		t.Fatal(err)
	}
	if len(emb.Data) != 3 || len(emb.Data[0].Embedding) != 4 {
		t.Fatalf("embeddings %+v", emb)
	}
	if !slices.Equal(emb.Data[0].Embedding, emb.Data[2].Embedding) || slices.Equal(emb.Data[0].Embedding, emb.Data[1].Embedding) {
		t.Errorf("vectors not deterministic per input: %+v", emb.Data)
	}
	if !slices.Equal(emb.Data[1].Embedding, Vector("y", 4)) {
		t.Errorf("vector of y %v, want %v", emb.Data[1].Embedding, Vector("y", 4))
	}
	if all := s.AllRequests(); len(all) != 2 || len(s.Requests()) != 0 {
		t.Errorf("all %d chat %d", len(all), len(s.Requests()))
	}
}

func TestConcurrentHandle(t *testing.T) {
	s := New(t)
	s.Handle(func(r RecordedRequest) Turn { return Text("echo " + r.LastMessage().Content) })
	const n = 100
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"%d"}]}`, i)
			resp, out, err := post(t, t.Context(), s, "/chat/completions", body, nil)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("request %d: %v", i, err)
				return
			}
			var c completion
			if err := json.Unmarshal(out, &c); err != nil || c.Choices[0].Message.Content != fmt.Sprintf("echo %d", i) {
				t.Errorf("request %d: %s %v", i, out, err)
			}
		})
	}
	wg.Wait()
	reqs := s.Requests()
	if len(reqs) != n {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		if r.Seq != i {
			t.Errorf("request %d has seq %d", i, r.Seq)
		}
	}
}

func TestUnknownPathFailsTest(t *testing.T) {
	rtb := &recordingTB{TB: t}
	s := New(rtb)
	resp, _, err := post(t, t.Context(), s, "/completions", `{}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || len(rtb.Errors()) != 1 {
		t.Errorf("status %d errors %q", resp.StatusCode, rtb.Errors())
	}
}

// TestClientHangingUpMidBody: a client that goes away while sending its
// request (a cancelled turn) is not reported as a scripting mistake. The
// handler is called directly with the body a hung-up connection gives
// (net/http reports a short Content-Length body as io.ErrUnexpectedEOF),
// and with a request whose context ended, so no wait is needed.
func TestClientHangingUpMidBody(t *testing.T) {
	rtb := &recordingTB{TB: t}
	s := New(rtb)
	short := httptest.NewRequest(http.MethodPost, chatPath, iotest.ErrReader(io.ErrUnexpectedEOF))
	s.serve(httptest.NewRecorder(), short)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := httptest.NewRequest(http.MethodPost, chatPath, iotest.ErrReader(errors.New("connection reset"))).WithContext(ctx)
	s.serve(httptest.NewRecorder(), gone)

	if errs := rtb.Errors(); len(errs) > 0 {
		t.Errorf("reported as a mistake: %v", errs)
	}
	if n := len(s.AllRequests()); n != 0 {
		t.Errorf("%d requests recorded from clients that hung up", n)
	}
	// A body that is merely malformed still is a mistake.
	s.serve(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, chatPath, iotest.ErrReader(errors.New("broken"))))
	if len(rtb.Errors()) != 1 {
		t.Errorf("a read error from a live client was not reported: %v", rtb.Errors())
	}
}
