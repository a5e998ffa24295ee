package views

// MetricsPanel is the session page's counters from the runtime's metrics
// hook (in this server process; they start at zero after a restart).
type MetricsPanel struct {
	Show             bool // false when the server has no metrics collector
	Turns            int
	Steps            int
	PromptTokens     int
	CompletionTokens int
	ToolErrors       int
	Duplicates       int
	Compactions      int
	Tools            []ToolMetric // by name
}

// ToolMetric is one tool's call count and total run time.
type ToolMetric struct {
	Tool    string
	Calls   int
	TotalMS int64
}
