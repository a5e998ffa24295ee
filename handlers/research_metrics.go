package handlers

import (
	"slices"

	"github.com/astroresearch/astroresearch/views"
)

// metricsPanel is the session's counters from the runtime's metrics hook;
// hidden when the server has none.
func (s *Server) metricsPanel(session string) views.MetricsPanel {
	if s.agentMetrics == nil {
		return views.MetricsPanel{}
	}
	m := s.agentMetrics.Session(session)
	p := views.MetricsPanel{Show: true, Turns: m.Turns, Steps: m.Steps, PromptTokens: m.PromptTokens,
		CompletionTokens: m.CompletionTokens, ToolErrors: m.ToolErrors, Duplicates: m.Duplicates, Compactions: m.Compactions}
	for tool, n := range m.ToolCalls {
		p.Tools = append(p.Tools, views.ToolMetric{Tool: tool, Calls: n, TotalMS: m.ToolMillis[tool]})
	}
	slices.SortFunc(p.Tools, func(a, b views.ToolMetric) int {
		if a.Tool < b.Tool {
			return -1
		}
		if a.Tool > b.Tool {
			return 1
		}
		return 0
	})
	return p
}
