package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/views"
)

// TestTimelineLinksObjects: a query_target card links the object page of
// the object it resolved (metadata as persisted: decoded JSON).
func TestTimelineLinksObjects(t *testing.T) {
	ctx := context.Background()
	tl := newTimeline("/base/research/s", time.Now, &questionSource{known: map[int]string{1: "q"}})
	tl.basePath = "/base"
	raw, _ := json.Marshal(map[string]any{"object": sesame.Object{Name: "NGC 1275"}})
	var meta map[string]any
	json.Unmarshal(raw, &meta)
	seq := int64(0)
	mk := func(kind agent.Kind, data any) agent.Event {
		seq++
		b, _ := json.Marshal(data)
		return agent.Event{Seq: seq, SessionID: "s", Kind: kind, Agent: agent.LeadAgent, Turn: 1, Data: b}
	}
	var hist timelineHistory
	for _, e := range []agent.Event{
		mk(agent.KindToolCall, agent.ToolCallData{ID: "q1", Name: "query_target", Arguments: `{"name":"Perseus A"}`, Step: 1}),
		mk(agent.KindToolResult, agent.ToolResultData{ToolCallID: "q1", Name: "query_target", Output: "NGC 1275 (type SyG)", Metadata: meta, Step: 1}),
	} {
		hist.apply(tl.apply(ctx, e))
	}
	var buf bytes.Buffer
	for _, it := range hist.items {
		if err := views.TimelineEntry(it, false).Render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(buf.String(), `href="/base/objects/NGC%201275"`) {
		t.Fatalf("no object link in\n%s", buf.String())
	}
}
