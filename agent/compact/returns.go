package compact

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"strings"
)

// Diminishing-returns thresholds of docs/features.md C4.
const (
	// MinContinuations is how many continuations must have happened before
	// the budget rule may stop the loop.
	MinContinuations = 3
	// MinNewTokens is the growth below which a continuation past the soft
	// budget counts as unproductive.
	MinNewTokens = 500
	// StallSteps is how many consecutive steps that added nothing stop the
	// loop.
	StallSteps = 2
)

// StepCall is one tool call of a step as the detector sees it: the call
// and the output the model got back.
type StepCall struct {
	Name      string
	Arguments string // raw JSON as the model sent it
	Output    string
	// Empty marks a result that found nothing (no hits, no content); an
	// output of only white space is empty too.
	Empty bool
}

// DiminishingReturns detects a loop that keeps going without getting
// anywhere (docs/features.md C4). It fires only on steps that add nothing — every call
// of the step repeats an earlier call of the turn (same tool, same or
// near-identical arguments), returns exactly what an earlier call of that
// tool returned, or returns nothing — StallSteps times in a row; or, once
// the conversation is past the soft budget, after MinContinuations or more
// continuations with two consecutive checks adding fewer than MinNewTokens
// tokens. A chain of small, different, successful steps (load → download →
// parse → read → note) never fires it. Once it fires it stays fired. The
// zero value is ready to use; one per turn; not safe for concurrent use.
type DiminishingReturns struct {
	continuations int
	small         int // consecutive checks below MinNewTokens (counted past the soft budget only)
	stalls        int // consecutive steps that added nothing
	calls         map[string]bool
	outputs       map[string]bool
	stopped       bool
	reason        string
}

// Check records one continuation: the step's calls with their results,
// newTokens tokens it added to the conversation (the tool results and the
// assistant message; for example the growth of Tracker.Tokens across the
// step) and whether the conversation is now past the soft budget. It
// reports whether the loop should stop calling tools.
func (d *DiminishingReturns) Check(calls []StepCall, newTokens int, overSoft bool) (stop bool) {
	if d.stopped {
		return true
	}
	if d.calls == nil {
		d.calls, d.outputs = map[string]bool{}, map[string]bool{}
	}
	d.continuations++
	if d.addedNothing(calls) {
		d.stalls++
	} else {
		d.stalls = 0
	}
	if overSoft && newTokens < MinNewTokens {
		d.small++
	} else {
		d.small = 0
	}
	switch {
	case d.stalls >= StallSteps:
		d.stopped, d.reason = true, "stall"
	case overSoft && d.continuations >= MinContinuations && d.small >= 2:
		d.stopped, d.reason = true, "budget"
	}
	return d.stopped
}

// addedNothing records the step's calls and reports whether each of them
// repeated an earlier call, repeated an earlier result or came back empty.
// A step without calls added nothing.
func (d *DiminishingReturns) addedNothing(calls []StepCall) bool {
	nothing := true
	for _, c := range calls {
		callKey := c.Name + "\x00" + normalizeArgs(c.Arguments)
		outKey := c.Name + "\x00" + digest(c.Output)
		repeatCall, repeatOut := d.calls[callKey], d.outputs[outKey]
		d.calls[callKey], d.outputs[outKey] = true, true
		empty := c.Empty || strings.TrimSpace(c.Output) == ""
		if !repeatCall && !repeatOut && !empty {
			nothing = false
		}
	}
	return nothing
}

// Stopped reports whether the detector has fired.
func (d *DiminishingReturns) Stopped() bool { return d.stopped }

// Reason says which rule fired: "stall" (steps that added nothing),
// "budget" (small continuations past the soft budget) or "" (not fired).
func (d *DiminishingReturns) Reason() string { return d.reason }

// normalizeArgs makes near-identical arguments equal: JSON re-encoded with
// sorted keys, strings lower-cased with white space collapsed. Arguments
// that are not JSON are compared the same way as text.
func normalizeArgs(args string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return normalizeText(args)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(normalizeValue(v)); err != nil {
		return normalizeText(args)
	}
	return b.String()
}

func normalizeValue(v any) any {
	switch x := v.(type) {
	case string:
		return normalizeText(x)
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeValue(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeValue(e)
		}
		return x
	}
	return v
}

func normalizeText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func digest(s string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(s)))
	return string(sum[:])
}
