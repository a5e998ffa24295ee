package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
)

func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestModelStatusView(t *testing.T) {
	doc := render(t, ModelStatusView(ModelStatus{Active: "qwen-plus", Primary: "qwen-plus"}, false))
	if got := strings.Join(strings.Fields(doc.Find(`[data-testid="model-status"]`).Text()), " "); got != "Model qwen-plus" {
		t.Errorf("primary: %q", got)
	}
	if doc.Find(`[data-testid="model-fallback"]`).Length() != 0 {
		t.Error("fallback badge without a switch")
	}
	doc = render(t, ModelStatusView(ModelStatus{Active: "qwen-turbo", Primary: "qwen-plus", Switched: true}, true))
	st := doc.Find(`[data-testid="model-status"]`)
	if got := strings.Join(strings.Fields(st.Text()), " "); got != "Model qwen-turbo fallback (qwen-plus was overloaded)" {
		t.Errorf("fallback: %q", got)
	}
	if st.AttrOr("hx-swap-oob", "") != "true" {
		t.Error("the live fragment is not an out-of-band swap")
	}
	doc = render(t, ModelStatusView(ModelStatus{}, false))
	if !strings.Contains(doc.Text(), "the first model the endpoint lists") {
		t.Errorf("unresolved model: %q", doc.Text())
	}
}

func TestQuestionFormThinkingToggle(t *testing.T) {
	doc := render(t, QuestionFormView(QuestionForm{Action: "/research/x/turns"}))
	if doc.Find(`[data-testid="thinking-toggle"]`).Length() != 0 || doc.Find(`input[name="thinking_field"]`).Length() != 0 {
		t.Error("toggle shown for a model whose reasoning cannot be switched")
	}
	doc = render(t, QuestionFormView(QuestionForm{Action: "/research/x/turns", ThinkingToggle: true, Thinking: true}))
	box := doc.Find(`[data-testid="thinking-toggle"]`)
	if box.Length() != 1 || box.AttrOr("checked", "no") == "no" || box.Closest("label").Length() != 1 {
		t.Error("toggle missing, unchecked or unlabelled")
	}
}

func TestTurnMetricsItem(t *testing.T) {
	m := &TurnMetrics{Turn: 3, RunMetrics: RunMetrics{Steps: 2, PromptTokens: 10, Retries: 1,
		Tools: []ToolMetric{{Tool: "search_papers", Calls: 2, TotalMS: 1500}}}}
	doc := render(t, TimelineEntry(m, false))
	d := doc.Find(`details#metrics-turn-3[data-testid="turn-metrics"]`)
	if d.Length() != 1 || !strings.Contains(d.Find("summary").Text(), "question 3") {
		t.Fatalf("turn metrics: %q", doc.Text())
	}
	if d.Find(`[data-testid="metric-retries"]`).Text() != "1" || d.Find(`[data-testid="metric-duration"]`).Text() != "—" {
		t.Errorf("retries %q, duration %q", d.Find(`[data-testid="metric-retries"]`).Text(), d.Find(`[data-testid="metric-duration"]`).Text())
	}
	if row := d.Find(`[data-testid="metric-tools"] tbody td`); row.Eq(0).Text() != "search_papers" || row.Eq(2).Text() != "1500 ms" {
		t.Errorf("tool row %q", row.Text())
	}
}
