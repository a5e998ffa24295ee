package compact

// Diminishing-returns thresholds of docs/features.md C4.
const (
	// MinContinuations is how many continuations must have happened before
	// the detector may stop the loop.
	MinContinuations = 3
	// MinNewTokens is the growth below which a continuation counts as
	// unproductive.
	MinNewTokens = 500
)

// DiminishingReturns detects a loop that keeps going without producing
// much (docs/features.md C4): after MinContinuations or more continuations, two
// consecutive checks each adding fewer than MinNewTokens tokens mean "stop
// calling tools and answer". Once it fires it stays fired. The zero value
// is ready to use; one per turn; not safe for concurrent use.
type DiminishingReturns struct {
	continuations int
	small         int // consecutive checks below MinNewTokens
	stopped       bool
}

// Check records one continuation that added newTokens tokens to the
// conversation (the tool results and the assistant message of the step;
// for example the growth of Tracker.Tokens across the step) and reports
// whether the loop should stop calling tools.
func (d *DiminishingReturns) Check(newTokens int) (stop bool) {
	d.continuations++
	if newTokens < MinNewTokens {
		d.small++
	} else {
		d.small = 0
	}
	if d.continuations >= MinContinuations && d.small >= 2 {
		d.stopped = true
	}
	return d.stopped
}

// Stopped reports whether the detector has fired.
func (d *DiminishingReturns) Stopped() bool { return d.stopped }
