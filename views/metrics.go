package views

import (
	"fmt"
	"time"
)

// RunMetrics are the counters of a stretch of work (one turn, or every
// turn of a session), read from the session's event log: they are the
// same on a reload, after a restart and in the live view.
type RunMetrics struct {
	Steps            int // the lead agent's model calls
	PromptTokens     int // every agent's model calls
	CompletionTokens int
	Retries          int   // model calls retried after rate limits or overloads
	ModelMS          int64 // time spent waiting for the model, every agent's calls
	Errors           int   // errors the runtime reported (error events)
	ToolErrors       int   // tool calls that ended in an error
	Duplicates       int   // calls refused as repeats of the same call
	Compactions      int
	// Duration is the wall time from the start of the turn(s) to done;
	// 0 while a turn runs or when unknown.
	Duration time.Duration
	Tools    []ToolMetric // by name
}

// ToolMetric is one tool's call count and total run time.
type ToolMetric struct {
	Tool    string
	Calls   int
	TotalMS int64
}

// MetricsPanel is the session page's counters over all its turns.
type MetricsPanel struct {
	Turns int
	RunMetrics
}

// TurnMetrics is the counters of one finished turn, shown in the timeline
// after its done line.
type TurnMetrics struct {
	Turn int
	RunMetrics
}

// DOMID implements TimelineItem.
func (m *TurnMetrics) DOMID() string { return fmt.Sprintf("metrics-turn-%d", m.Turn) }

// MetricsPanelBodyID is the id of the session panel's body, which the live
// stream replaces when a turn ends (the panel keeps its open state).
const MetricsPanelBodyID = "metrics-panel-body"

func formatRunTime(d time.Duration) string {
	if d <= 0 {
		return "—"
	}
	return formatElapsed(d)
}
