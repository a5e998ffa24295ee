package tools

import "context"

// Option sets an optional capability of a tool built by New. Options that
// take the argument type (WithConcurrencySafe, WithPermission) must use the
// same A as New; a mismatch makes New panic.
type Option func(*toolSettings)

// toolSettings collects the options of one New call. The typed closures
// are kept as any and asserted to their func(A) form by New.
type toolSettings struct {
	interrupt     InterruptBehavior
	readOnly      bool
	deferred      bool
	siblingAbort  bool
	interactive   bool
	boundedOutput bool
	summary       string
	alwaysSafe    bool
	concurrency   any // func(A) bool
	permission    any // func(context.Context, *Context, A) PermissionDecision
}

// WithInterrupt sets what a user stop does to a running call (default
// Cancel; Block for writers that must not stop half-way).
func WithInterrupt(b InterruptBehavior) Option {
	return func(s *toolSettings) { s.interrupt = b }
}

// WithConcurrencySafe decides per call, from the decoded arguments, whether
// the call may run in parallel with other safe calls. Arguments that do
// not decode are never concurrency-safe.
func WithConcurrencySafe[A any](safe func(args A) bool) Option {
	return func(s *toolSettings) { s.concurrency, s.alwaysSafe = safe, false }
}

// AlwaysConcurrencySafe marks every call of the tool as concurrency-safe.
func AlwaysConcurrencySafe() Option {
	return func(s *toolSettings) { s.concurrency, s.alwaysSafe = nil, true }
}

// WithReadOnly declares that the tool changes nothing; in auto mode it
// never asks for permission.
func WithReadOnly() Option {
	return func(s *toolSettings) { s.readOnly = true }
}

// WithDeferred lists the tool in the catalog instead of the first prompt;
// the model loads it with load_tool.
func WithDeferred() Option {
	return func(s *toolSettings) { s.deferred = true }
}

// WithBoundedOutput marks a tool that caps its own output and pages the
// rest (read_file): the executor never swaps its output for a
// <persisted-output> stub, which would defeat reading a persisted result.
func WithBoundedOutput() Option {
	return func(s *toolSettings) { s.boundedOutput = true }
}

// WithInteractive marks a tool that waits for the user and bounds that wait
// itself, so the executor's tool timeout does not cut it short.
func WithInteractive() Option {
	return func(s *toolSettings) { s.interactive = true }
}

// WithSiblingAbort makes a failed call cancel the rest of its batch.
func WithSiblingAbort() Option {
	return func(s *toolSettings) { s.siblingAbort = true }
}

// WithSummary sets the one-line catalog summary (default: the first
// sentence of the description). It is cut to MaxSummaryRunes runes.
func WithSummary(summary string) Option {
	return func(s *toolSettings) { s.summary = summary }
}

// WithPermission gives the tool its own permission rule, consulted before
// the central rules with the decoded arguments. Arguments that do not
// decode get DecisionNone (they fail validation before running anyway).
func WithPermission[A any](check func(ctx context.Context, tc *Context, args A) PermissionDecision) Option {
	return func(s *toolSettings) { s.permission = check }
}
