package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/views"
)

// orchestrationEvents is a turn in which the lead starts a background
// download, a sub-agent works (asking for a permission on the way) and two
// coordinator workers run.
func orchestrationEvents(t *testing.T) []agent.Event {
	t.Helper()
	var seq int64
	ev := func(kind agent.Kind, who string, data any) agent.Event {
		seq++
		b, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		return agent.Event{Seq: seq, SessionID: "s", Kind: kind, Turn: 1, Agent: who, Data: b}
	}
	lead, sub := agent.LeadAgent, "sub_abc"
	return []agent.Event{
		ev(agent.KindSession, lead, agent.SessionData{SessionID: "s"}),
		ev(agent.KindBackgroundTask, lead, agent.BackgroundTaskData{TaskID: "bg_1", Tool: "download_paper", Status: "queued"}),
		ev(agent.KindToolCall, lead, agent.ToolCallData{ID: "c1", Name: "subagent", Arguments: `{"task":"survey"}`, Step: 1}),
		ev(agent.KindSubagent, lead, agent.SubagentData{Agent: sub, Parent: lead, Task: "survey the literature", Status: "running"}),
		ev(agent.KindToolCall, sub, agent.ToolCallData{ID: "s1", Name: "search_papers", Arguments: `{"query":"M87"}`, Step: 1}),
		ev(agent.KindBackgroundTask, lead, agent.BackgroundTaskData{TaskID: "bg_1", Tool: "download_paper", Status: "running", Progress: "50%"}),
		ev(agent.KindPermissionRequest, sub, agent.PermissionRequestData{RequestID: "r1", ToolCallID: "s2", Tool: "run_bash", Reason: "asks"}),
		ev(agent.KindToolResult, sub, agent.ToolResultData{ToolCallID: "s1", Name: "search_papers", Output: "3 papers", Step: 1}),
		ev(agent.KindBackgroundTask, lead, agent.BackgroundTaskData{TaskID: "bg_1", Tool: "download_paper", Status: "done", Output: "Downloaded"}),
		ev(agent.KindSubagent, lead, agent.SubagentData{Agent: sub, Parent: lead, Status: "done", Steps: 2, Result: "Conclusion: M87 jets"}),
		ev(agent.KindToolResult, lead, agent.ToolResultData{ToolCallID: "c1", Name: "subagent", Output: "Conclusion: M87 jets", Step: 1}),
		ev(agent.KindWorker, lead, agent.WorkerData{WorkerID: "w1", Agent: "sub_w1", Title: "jets", Status: "queued"}),
		ev(agent.KindWorker, lead, agent.WorkerData{WorkerID: "w2", Agent: "sub_w2", Title: "disks", Status: "queued"}),
		ev(agent.KindWorker, lead, agent.WorkerData{WorkerID: "w1", Agent: "sub_w1", Title: "jets", Status: "running"}),
		ev(agent.KindWorker, lead, agent.WorkerData{WorkerID: "w1", Agent: "sub_w1", Title: "jets", Status: "done", Summary: "found 3"}),
		ev(agent.KindToolCall, lead, agent.ToolCallData{ID: "t1", Name: "spawn_teammate", Arguments: `{"name":"reader"}`, Step: 2}),
		ev(agent.KindToolResult, lead, agent.ToolResultData{ToolCallID: "t1", Name: "spawn_teammate", Output: "Teammate reader is working",
			Metadata: map[string]any{"teammate": "reader", "session_id": "5e7a-11"}, Step: 2}),
		ev(agent.KindDone, lead, agent.DoneData{Reason: "answer", Answer: "All done.", Steps: 3}),
	}
}

func TestTimelineOrchestrationHistory(t *testing.T) {
	ctx := context.Background()
	tl := newTimeline("/research/s", time.Now, &questionSource{known: map[int]string{1: "q"}})
	var hist timelineHistory
	for _, e := range orchestrationEvents(t) {
		hist.apply(tl.apply(ctx, e))
	}
	var buf bytes.Buffer
	for _, it := range hist.items {
		if err := views.TimelineEntry(it, false).Render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	bg := doc.Find(`[data-testid="bg-task"]`)
	if bg.Length() != 1 || bg.AttrOr("data-status", "") != "done" || !strings.Contains(bg.Text(), "Downloaded") {
		t.Fatalf("background card: %d, %q", bg.Length(), bg.Text())
	}
	group := doc.Find(`[data-testid="subagent-group"]`)
	if group.Length() != 1 || group.AttrOr("data-agent", "") != "sub_abc" {
		t.Fatalf("sub-agent groups: %d", group.Length())
	}
	if n := group.Find(`[data-testid="tool-card"]`).Length(); n != 1 {
		t.Fatalf("tool cards nested in the group: %d", n)
	}
	perm := group.Find(`[data-testid="permission-card"]`)
	if perm.Length() != 1 || !strings.Contains(perm.Text(), "sub_abc") {
		t.Fatalf("the sub-agent's permission card is not in its group, labelled: %q", perm.Text())
	}
	if s := group.Find(`[data-testid="subagent-status"]`).Text(); !strings.Contains(s, "done in 2 steps") {
		t.Fatalf("group status %q", s)
	}
	if !strings.Contains(group.Text(), "Conclusion: M87 jets") {
		t.Fatal("the sub-agent's result is not shown")
	}
	// The lead's own cards stay at the top level.
	if doc.Find(`[data-testid="tool-card"]`).Length() != 3 {
		t.Fatalf("tool cards: %d", doc.Find(`[data-testid="tool-card"]`).Length())
	}
	if link := doc.Find(`[data-testid="tool-link"]`); link.AttrOr("href", "") != "/research/5e7a-11" || link.Text() != "Open reader's session" {
		t.Fatalf("teammate link %q %q", link.AttrOr("href", ""), link.Text())
	}
	rows := doc.Find(`[data-testid="worker-list"] [data-testid="worker-row"]`)
	if rows.Length() != 2 {
		t.Fatalf("worker rows: %d", rows.Length())
	}
	if st := rows.First().AttrOr("data-status", ""); st != "done" || !strings.Contains(rows.First().Text(), "found 3") {
		t.Fatalf("first worker row: %s %q", st, rows.First().Text())
	}
}

func TestTimelineOrchestrationLive(t *testing.T) {
	ctx := context.Background()
	s := &Server{}
	tl := newTimeline("/research/s", time.Now, &questionSource{known: map[int]string{1: "q"}})
	var frames []string
	for _, e := range orchestrationEvents(t) {
		var buf bytes.Buffer
		for _, o := range tl.apply(ctx, e) {
			if o.kind == opModelNote || o.kind == opRunning {
				continue // page chrome, needs a configured server
			}
			if err := s.opComponent("s", o).Render(ctx, &buf); err != nil {
				t.Fatal(err)
			}
		}
		frames = append(frames, buf.String())
	}
	// The sub-agent's tool card is appended into its group, out of band.
	if !strings.Contains(frames[4], `hx-swap-oob="beforeend:#sub-sub_abc-items"`) {
		t.Fatalf("nested card frame: %s", frames[4])
	}
	// The background card is replaced in place when its task moves on.
	if !strings.Contains(frames[5], `id="bgtask-bg_1"`) || !strings.Contains(frames[5], `hx-swap-oob="true"`) {
		t.Fatalf("background update frame: %s", frames[5])
	}
	// A new worker row is appended to the list; a state change replaces it.
	if !strings.Contains(frames[12], "beforeend:#workers-1-12-rows") {
		t.Fatalf("second worker frame: %s", frames[12])
	}
	if !strings.Contains(frames[13], `id="worker-w1"`) || !strings.Contains(frames[13], `hx-swap-oob="true"`) {
		t.Fatalf("worker update frame: %s", frames[13])
	}
	if !strings.Contains(frames[9], `id="sub-sub_abc-badge"`) {
		t.Fatalf("group status frame: %s", frames[9])
	}
}
