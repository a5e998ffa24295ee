package handlers

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/parse"
	"github.com/astroresearch/astroresearch/store"
)

// Issue 14: the research loop on models that behave like real servers —
// realistic usage figures, an enforced context window, imperfect arguments.
// Every test drives the real HTTP server through the documented JSON API.

// useResearchTools gives every turn the research tools main.go wires
// (search, metadata, download, parse, read, notes, targets, memory) over
// the app's local fakes; papers parse from the fixture arXiv HTML of
// 2401.01234.
func (a *testApp) useResearchTools(t *testing.T) {
	t.Helper()
	page, err := os.ReadFile("../research/parse/testdata/arxiv_2401.01234.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(srv.Close)
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	parser := parse.NewService(a.store, a.dir, &parse.ArxivHTMLEngine{Web: web, HTMLURL: srv.URL + "/html"}, &parse.PDFEngine{})
	*a.toolDeps = agent.ToolDeps{Store: a.store, Targets: a.srv.targets, Papers: a.srv.papers, Library: a.srv.library,
		Importer: a.srv.library, Downloads: a.srv.downloads, Parser: parser, Memory: a.memory}
}

// toolResults counts the tool results after the request's last question:
// where a scripted model is in its plan for the current turn.
func toolResults(r llmtest.RecordedRequest) int {
	n := 0
	for _, m := range r.Messages {
		switch {
		case m.Role == "user" && !strings.HasPrefix(m.Content, "[") && !strings.Contains(m.Content, "context budget") &&
			!strings.Contains(m.Content, "Reminder:"):
			n = 0
		case m.Role == "tool":
			n++
		}
	}
	return n
}

// isExtractor reports whether the request is the memory extractor's.
func isExtractor(r llmtest.RecordedRequest) bool {
	return len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "long-term memory")
}

// askJSON runs one turn over the JSON API and returns its events (from
// the session frame to done).
func askJSON(t *testing.T, c *client, session, question string, after int64) []sseFrame {
	t.Helper()
	stream := c.openEventsQuery(t, session, fmt.Sprintf("?after=%d", after))
	res := c.postJSON("/api/sessions/"+session+"/turns", fmt.Sprintf(`{"question":%q}`, question))
	expectStatus(t, "start turn", res, http.StatusAccepted)
	return stream.until("done")
}

func framesOf(fs []sseFrame, kind string) []sseFrame {
	var out []sseFrame
	for _, f := range fs {
		if f.Event == kind {
			out = append(out, f)
		}
	}
	return out
}

// TestRealModelReadsAPaperInOneTurn: "please read the paper" with a model
// that loads tools one at a time (once with a string for the list), each
// step small — download, parse, read — all in one turn, answered from the
// paper's text, through a 16k window that is never overrun.
func TestRealModelReadsAPaperInOneTurn(t *testing.T) {
	a := newApp(t, nil)
	a.useResearchTools(t)
	a.fake.Realistic(llmtest.Window{Tokens: 16384, Overflow: llmtest.Refuse})
	var sawText atomic.Bool
	a.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		if isExtractor(r) {
			return llmtest.Text("nothing to remember")
		}
		plan := []llmtest.Call{
			{Name: "load_tool", Args: `{"names":["download_paper"]}`},
			{Name: "download_paper", Args: `{"id":"2401.01234"}`},
			{Name: "load_tool", Args: `{"names":"parse_paper"}`}, // a string for the list
			{Name: "parse_paper", Args: `{"id":"2401.01234"}`},
			{Name: "get_paper_content", Args: `{"id":"2401.01234","limit":"3000"}`}, // a number as a string
		}
		n := toolResults(r)
		if n < len(plan) {
			c := plan[n]
			c.ID = fmt.Sprintf("call_%d", n)
			return llmtest.ToolCalls(c)
		}
		last := r.LastMessage()
		sawText.Store(last.Role == "tool" && len(last.Content) > 1000)
		return llmtest.Text("The paper's main result, from its text: see Section 1.")
	})
	c := a.setupAdmin()
	s := createSession(t, c)
	frames := askJSON(t, c, s, "Please read the paper 2401.01234 and tell me its main result.", 0)
	done := frames[len(frames)-1].Data
	results := framesOf(frames, "tool_result")
	for _, r := range results {
		if r.Data["is_error"] == true {
			t.Errorf("%s failed: %v", r.Data["name"], r.Data["output"])
		}
	}
	if done["reason"] != "answer" || len(results) != 5 {
		t.Fatalf("done %v after %d tool results; events %s", done, len(results), frameKinds(frames))
	}
	if !sawText.Load() {
		t.Fatal("the answer was not written after reading the paper's text")
	}
	if refused, truncated := a.fake.Overflows(); refused+truncated != 0 {
		t.Fatalf("the server had to refuse %d and cut %d requests", refused, truncated)
	}
	meta, _ := results[2].Data["metadata"].(map[string]any)
	if meta == nil || meta["repaired"] == nil {
		t.Fatalf("the repaired load_tool call does not say so: %v", results[2].Data)
	}
}

// TestRealModelSmallWindow: a plain question and a literature search
// through an 8,192-token window (a server that refuses longer prompts, as
// OpenAI and vLLM do): both answered, nothing refused.
func TestRealModelSmallWindow(t *testing.T) {
	a := newApp(t, map[string]string{"LLM_CONTEXT_WINDOW": "8192"})
	a.useResearchTools(t)
	a.fake.Realistic(llmtest.Window{Tokens: 8192, Overflow: llmtest.Refuse})
	a.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		if isExtractor(r) {
			return llmtest.Text("nothing to remember")
		}
		q := ""
		for _, m := range r.Messages {
			if m.Role == "user" {
				q = m.Content
			}
		}
		if strings.Contains(q, "papers") && toolResults(r) == 0 {
			return llmtest.ToolCalls(llmtest.Call{ID: "s1", Name: "search_papers", Args: `{"query":"Perseus cluster cavities","rows":10}`})
		}
		return llmtest.Text("Here is what I found.")
	})
	c := a.setupAdmin()
	s := createSession(t, c)
	frames := askJSON(t, c, s, "hello", 0)
	if d := frames[len(frames)-1].Data; d["reason"] != "answer" {
		t.Fatalf("plain question: done %v; events %s", d, frameKinds(frames))
	}
	last := int64(frames[len(frames)-1].ID)
	frames = askJSON(t, c, s, "Find papers on the Perseus cluster cavities", last)
	if d := frames[len(frames)-1].Data; d["reason"] != "answer" || len(framesOf(frames, "tool_result")) != 1 {
		t.Fatalf("literature search: done %v; events %s", d, frameKinds(frames))
	}
	if refused, truncated := a.fake.Overflows(); refused+truncated != 0 {
		t.Fatalf("the server had to refuse %d and cut %d requests", refused, truncated)
	}
	if n := len(framesOf(frames, "error")); n != 0 {
		t.Fatalf("%d errors", n)
	}
}

// TestRealModelEightTurnsIn16k: eight turns of literature work through a
// 16k window; the conversation is compacted before the server has to
// refuse anything (zero overflow errors).
func TestRealModelEightTurnsIn16k(t *testing.T) {
	a := newApp(t, nil)
	a.useResearchTools(t)
	a.fake.SetModelInfo(llmtest.DefaultModel, llmtest.ModelInfo{MaxModelLen: 16384})
	a.fake.Realistic(llmtest.Window{Tokens: 16384, Overflow: llmtest.Refuse})
	a.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		if isExtractor(r) {
			return llmtest.Text("nothing to remember")
		}
		switch toolResults(r) {
		case 0:
			return llmtest.ToolCalls(llmtest.Call{ID: "s", Name: "search_papers", Args: `{"query":"Perseus cluster","rows":20}`})
		case 1:
			return llmtest.ToolCalls(llmtest.Call{ID: "m", Name: "get_paper_metadata", Args: `{"id":"2401.01234"}`})
		}
		return llmtest.Text("A summary of what the papers say, with citations [1] and [2]. " + strings.Repeat("Details. ", 450))
	})
	c := a.setupAdmin()
	s := createSession(t, c)
	var last int64
	compactions := 0
	for i := range 8 {
		frames := askJSON(t, c, s, fmt.Sprintf("Question %d: what is known about cavity number %d in Perseus?", i+1, i+1), last)
		last = frames[len(frames)-1].ID
		if d := frames[len(frames)-1].Data; d["reason"] != "answer" {
			t.Fatalf("turn %d: done %v; events %s", i+1, d, frameKinds(frames))
		}
		compactions += len(framesOf(frames, "compaction"))
	}
	if refused, truncated := a.fake.Overflows(); refused+truncated != 0 {
		t.Fatalf("the server had to refuse %d and cut %d requests", refused, truncated)
	}
	if compactions == 0 {
		t.Fatal("eight turns in a 16k window without a compaction")
	}
	if lim := a.rt.Limits(); lim.Window != 16384 {
		t.Fatalf("window %+v, want 16384 from max_model_len", lim)
	}
}

// TestMemoryAgentDoesNoResearch: the memory extractor is offered only
// save_memory, so it cannot search or resolve anything after a turn.
func TestMemoryAgentDoesNoResearch(t *testing.T) {
	a := newApp(t, map[string]string{"AGENT_MEMORY_EXTRACTION": "true"})
	a.useResearchTools(t)
	a.fake.Realistic(llmtest.Window{})
	var extractorTools atomic.Value
	a.fake.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		if isExtractor(r) {
			extractorTools.Store(strings.Join(r.Tools, ","))
			if toolResults(r) == 0 {
				return llmtest.ToolCalls(llmtest.Call{ID: "q", Name: "query_target", Args: `{"name":"NGC 1275"}`})
			}
			return llmtest.Text("nothing to remember")
		}
		return llmtest.Text("NGC 1275 is Perseus A.")
	})
	c := a.setupAdmin()
	s := createSession(t, c)
	askJSON(t, c, s, "What is NGC 1275?", 0)
	// The extractor starts once the turn is done, in the background.
	for deadline := time.Now().Add(10 * time.Second); extractorTools.Load() == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.rt.WaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, _ := extractorTools.Load().(string); got != "save_memory" {
		t.Fatalf("the memory agent was offered %q, want only save_memory", got)
	}
	rows, _, err := a.store.QueryAudit(t.Context(), store.AuditFilter{SessionID: s, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Tool == "query_target" && r.Status == "ok" {
			t.Fatalf("the memory agent resolved an object: %+v", r)
		}
	}
}
