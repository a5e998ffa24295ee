package views

// ContextWindow is the active model's context window and the limits the
// agent derived from it (C12), for the session and admin pages.
type ContextWindow struct {
	Model  string
	Tokens int    // 0: unknown (the server does not report it)
	Source string // where Tokens came from (LLM_CONTEXT_WINDOW, /v1/models, Ollama /api/ps, ...)
	// SoftLimit, HardLimit and ToolOutput are the limits in force (tokens,
	// tokens, characters).
	SoftLimit, HardLimit, ToolOutput int
	// TooSmall: the window is known and below what the agent needs; the
	// pages then say so with the fix.
	TooSmall bool
	// Minimum is the smallest window the agent works well in.
	Minimum int
}

// thousands writes n with thin grouping commas (32,768).
func thousands(n int) string {
	s := itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
