package llm

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
)

// overloadsBeforeSwitch is how many consecutive Overloaded results of the
// active model make the client move to the next model (docs/features.md R5).
const overloadsBeforeSwitch = 3

// modelState is the active model and the fallback rotation. The rotation
// is the sequence [primary, FallbackModel, FallbackChain...] without empty
// names or repeats; each switch moves to the next entry and wraps around
// from the last back to the primary. Safe for concurrent use.
type modelState struct {
	mu        sync.Mutex
	fallbacks []string // FallbackModel then FallbackChain, as configured
	sequence  []string // sequence[0] is the primary ("" until resolved)
	pos       int      // index of the active model in sequence
	overloads int      // consecutive Overloaded results of the active model
}

func newModelState(primary, fallback string, chain []string) *modelState {
	s := &modelState{fallbacks: append([]string{fallback}, chain...)}
	s.reset(primary)
	return s
}

// reset makes primary the active model and forgets the fallback progress.
// The caller holds mu (or owns s exclusively).
func (s *modelState) reset(primary string) {
	s.sequence = []string{primary}
	for _, m := range s.fallbacks {
		if m != "" && !slices.Contains(s.sequence, m) {
			s.sequence = append(s.sequence, m)
		}
	}
	s.pos, s.overloads = 0, 0
}

func (s *modelState) active() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sequence[s.pos]
}

func (s *modelState) set(primary string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reset(primary)
}

// resolve sets the primary when none is known yet and returns the active model.
func (s *modelState) resolve(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sequence[0] == "" {
		s.reset(name)
	}
	return s.sequence[s.pos]
}

func (s *modelState) state() (primary, active string, switched bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sequence[0], s.sequence[s.pos], s.pos != 0
}

// report records the outcome of a call to model. Results for a model that
// is no longer active (a concurrent call already switched, or a request
// with its own Model) are ignored, so a burst of concurrent overloads
// moves the rotation one step, not one per caller. Only a success resets
// the count; other errors leave it as it is. It returns the models of a
// switch it made.
func (s *modelState) report(model string, overloaded bool) (from, to string, switched bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from = s.sequence[s.pos]
	if model != from {
		return "", "", false
	}
	if !overloaded {
		s.overloads = 0
		return "", "", false
	}
	s.overloads++
	if s.overloads < overloadsBeforeSwitch || len(s.sequence) < 2 {
		return "", "", false
	}
	s.pos = (s.pos + 1) % len(s.sequence)
	s.overloads = 0
	return from, s.sequence[s.pos], true
}

// ActiveModel returns the model calls currently use when Request.Model is
// empty ("" until configured or resolved). Safe for concurrent use.
func (c *Client) ActiveModel() string { return c.models.active() }

// SetModel makes name the primary and active model, as an administrator's
// run-time switch does, and resets the fallback state. Safe for concurrent use.
func (c *Client) SetModel(name string) {
	c.models.set(name)
	c.cfg.Log.Info("llm: model set", slog.String("model", name))
}

// FallbackState returns the primary model, the active one, and whether the
// client has switched away from the primary after overloads.
func (c *Client) FallbackState() (primary, active string, switched bool) {
	return c.models.state()
}

// reportOutcome feeds the fallback counter with the result of one attempt
// against model: a success, an Overloaded error, or (ignored) anything else.
func (c *Client) reportOutcome(ctx context.Context, model string, err error) {
	var overloaded bool
	switch {
	case err == nil:
	case isOverloaded(err):
		overloaded = true
	default:
		return
	}
	if from, to, ok := c.models.report(model, overloaded); ok {
		c.cfg.Log.LogAttrs(ctx, slog.LevelWarn, "llm: switching model after consecutive overloads",
			slog.String("from", from), slog.String("to", to), slog.Int("overloads", overloadsBeforeSwitch))
	}
}

func isOverloaded(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Class == Overloaded
}
