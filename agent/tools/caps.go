package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/astroresearch/astroresearch/agent/textcut"
)

// Capabilities are a tool's optional capabilities with the docs/features.md R11
// defaults filled in, so callers never type-assert the optional interfaces.
type Capabilities struct {
	// Interrupt is what a user stop does to a running call (default Cancel).
	Interrupt InterruptBehavior
	// ConcurrencySafe decides per call whether it may run in parallel with
	// other safe calls. Never nil; the default answers false.
	ConcurrencySafe func(args json.RawMessage) bool
	// SiblingAbort: a failed call cancels the rest of its batch (default false).
	SiblingAbort bool
	// Interactive: the call waits for the user; no tool timeout (default false).
	Interactive bool
	// BoundedOutput: the tool pages its own output; never persisted (default false).
	BoundedOutput bool
	// ReadOnly: the tool changes nothing (default false).
	ReadOnly bool
	// Deferred: listed in the catalog and loaded by load_tool (default false).
	Deferred bool
	// Summary is the one-line catalog summary, at most MaxSummaryRunes
	// runes: the tool's own summary, or the first sentence of Description.
	Summary string
	// Permission is the tool's own permission rule; nil when it has none.
	Permission func(ctx context.Context, tc *Context, args json.RawMessage) PermissionDecision
}

// MaxSummaryRunes bounds a catalog summary (R11).
const MaxSummaryRunes = 100

// Caps reads t's optional capabilities, applying the R11 defaults for the
// ones t does not implement. An empty Summarizer answer falls back to the
// description's first sentence.
func Caps(t Tool) Capabilities {
	c := Capabilities{
		Interrupt:       Cancel,
		ConcurrencySafe: func(json.RawMessage) bool { return false },
		Summary:         DefaultSummary(t.Description()),
	}
	if i, ok := t.(Interrupter); ok {
		c.Interrupt = i.InterruptBehavior()
	}
	if cs, ok := t.(ConcurrencySafe); ok {
		c.ConcurrencySafe = cs.IsConcurrencySafe
	}
	if sa, ok := t.(SiblingAborter); ok {
		c.SiblingAbort = sa.CausesSiblingAbort()
	}
	if it, ok := t.(InteractiveTool); ok {
		c.Interactive = it.IsInteractive()
	}
	if bo, ok := t.(BoundedOutputTool); ok {
		c.BoundedOutput = bo.BoundsOwnOutput()
	}
	if ro, ok := t.(ReadOnlyTool); ok {
		c.ReadOnly = ro.IsReadOnly()
	}
	if d, ok := t.(DeferredTool); ok {
		c.Deferred = d.DeferLoading()
	}
	if s, ok := t.(Summarizer); ok {
		if own := strings.TrimSpace(s.ClassifierSummary()); own != "" {
			c.Summary = textcut.Ellipsize(own, MaxSummaryRunes)
		}
	}
	if p, ok := t.(PermissionChecker); ok {
		c.Permission = p.CheckPermission
	}
	return c
}

// DefaultSummary is the first sentence of a description — the text up to
// the first ". " (keeping the period) or newline, whichever comes first —
// trimmed, and cut to at most MaxSummaryRunes runes with a trailing "…"
// when longer.
func DefaultSummary(description string) string {
	s := strings.TrimSpace(description)
	end := len(s)
	if i := strings.Index(s, ". "); i >= 0 {
		end = i + 1
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < end {
		end = i
	}
	return textcut.Ellipsize(strings.TrimSpace(s[:end]), MaxSummaryRunes)
}
