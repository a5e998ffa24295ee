package handlers

import (
	"slices"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/views"
)

// runStats accumulates the metrics of a turn or a session from its events
// (the session metrics panel, W2): the event log is the one source, so the
// figures are the same live, on a reload and after a restart. Not safe
// for concurrent use.
type runStats struct {
	m     views.RunMetrics
	tools map[string]*views.ToolMetric
}

// count adds event e. Events that cannot be decoded count as nothing.
func (r *runStats) count(e agent.Event) {
	switch e.Kind {
	case agent.KindUsage:
		var d agent.UsageData
		if e.Decode(&d) != nil {
			return
		}
		if isLead(e) {
			r.m.Steps++
		}
		r.m.PromptTokens += d.PromptTokens
		r.m.CompletionTokens += d.CompletionTokens
		r.m.Retries += d.Retries
		r.m.ModelMS += d.ElapsedMS
	case agent.KindToolResult:
		var d agent.ToolResultData
		if e.Decode(&d) != nil {
			return
		}
		if r.tools == nil {
			r.tools = map[string]*views.ToolMetric{}
		}
		tm := r.tools[d.Name]
		if tm == nil {
			tm = &views.ToolMetric{Tool: d.Name}
			r.tools[d.Name] = tm
		}
		tm.Calls++
		tm.TotalMS += d.ElapsedMS
		if d.IsError {
			r.m.ToolErrors++
		}
		if d.Status == "duplicate" {
			r.m.Duplicates++
		}
	case agent.KindCompaction:
		r.m.Compactions++
	case agent.KindError:
		r.m.Errors++
	}
}

// addDuration adds the wall time between two event times, when both are
// known. Both are cut to the millisecond first: a live event's time has a
// monotonic reading and full precision, the same event read back from the
// log may not, and the live and reloaded page must show the same figure.
func (r *runStats) addDuration(from, to time.Time) {
	from, to = from.Truncate(time.Millisecond), to.Truncate(time.Millisecond)
	if !from.IsZero() && to.After(from) {
		r.m.Duration += to.Sub(from)
	}
}

// snapshot returns the metrics so far, tools sorted by name.
func (r *runStats) snapshot() views.RunMetrics {
	m := r.m
	m.Tools = make([]views.ToolMetric, 0, len(r.tools))
	for _, t := range r.tools {
		m.Tools = append(m.Tools, *t)
	}
	slices.SortFunc(m.Tools, func(a, b views.ToolMetric) int { return strings.Compare(a.Tool, b.Tool) })
	return m
}
