package agent

import (
	"context"
	"time"

	"github.com/astroresearch/astroresearch/agent/compact"
	"github.com/astroresearch/astroresearch/agent/llm"
)

// Context-window awareness (C12): the runtime knows the active
// model's window — LLM_CONTEXT_WINDOW, or what the server reports — and
// derives the budget (C3), the compaction thresholds (C7) and the tool
// output preview size (R14) from it, unless those are set explicitly.

// MinContextWindow is the smallest window the agent works well in: the
// fixed prompt (system prompt and tool schemas, ~3,000 tokens), a question,
// a few tool results and an answer. Below it the pages say so.
const MinContextWindow = 8192

// WindowSource discovers a model's context window (the LLM client).
type WindowSource interface {
	DiscoverWindow(ctx context.Context, model string) (llm.Window, error)
}

// modelResolver is implemented by a Model that can name its model before
// the first call (the LLM client asks the endpoint's model list).
type modelResolver interface {
	ResolveModel(ctx context.Context) (string, error)
}

// Limits are the context limits in force for the active model. Safe to
// copy.
type Limits struct {
	// Model is the model the limits were found for ("" before discovery).
	Model string
	// Window is the context window in tokens; 0 when unknown (the SPEC
	// defaults apply).
	Window int
	// Source says where Window came from: "LLM_CONTEXT_WINDOW", a
	// discovery source (see llm.Window), or "" when unknown.
	Source string
	// Budget is the context budget in force.
	Budget compact.Budget
	// MaxToolOutput is the tool output preview size in characters.
	MaxToolOutput int
	// provisional: ask the server again at the next turn.
	provisional bool
}

// TooSmall reports whether the window is known and smaller than
// MinContextWindow.
func (l Limits) TooSmall() bool { return l.Window > 0 && l.Window < MinContextWindow }

// Shares of the window the derived limits take.
const (
	softPercent = 55 // compaction trigger and "over soft" nudge
	hardPercent = 75 // "answer now"; the rest is left for the answer
)

// deriveLimits computes the limits for a window of tokens (0 = unknown:
// the SPEC defaults). Fields of explicit (the budget and preview size set
// in the configuration; zero = not set) win over derived ones.
func deriveLimits(window int, explicit compact.Budget, explicitOutput int) (compact.Budget, int) {
	b := compact.DefaultBudget()
	output := 4000
	if window > 0 {
		b.SoftLimit = max(1000, window*softPercent/100)
		b.HardLimit = max(b.SoftLimit, window*hardPercent/100)
		b.CharLimit = max(1000, window/2)
		output = min(4000, max(1000, window/4))
	}
	if explicit.SoftLimit > 0 {
		b.SoftLimit = explicit.SoftLimit
	}
	if explicit.HardLimit > 0 {
		b.HardLimit = explicit.HardLimit
	}
	b.HardLimit = max(b.HardLimit, b.SoftLimit)
	if explicit.MaxMessages > 0 {
		b.MaxMessages = explicit.MaxMessages
	}
	if explicit.CharLimit > 0 {
		b.CharLimit = explicit.CharLimit
	}
	if explicitOutput > 0 {
		output = explicitOutput
	}
	return b, output
}

// Limits returns the limits in force. Safe for concurrent use.
func (r *Runtime) Limits() Limits {
	r.limitsMu.Lock()
	defer r.limitsMu.Unlock()
	return r.limits
}

// setWindow records a window for model and derives the limits from it.
func (r *Runtime) setWindow(model string, w llm.Window) Limits {
	b, out := deriveLimits(w.Tokens, r.explicitBudget, r.explicitOutput)
	l := Limits{Model: model, Window: w.Tokens, Source: w.Source, Budget: b, MaxToolOutput: out, provisional: w.Provisional}
	r.limitsMu.Lock()
	defer r.limitsMu.Unlock()
	r.limits = l
	return l
}

// discoveryBudget bounds a discovery at the start of a turn.
const discoveryBudget = 10 * time.Second

// RefreshLimits makes the limits describe the active model: with
// LLM_CONTEXT_WINDOW set nothing changes; otherwise, when the active model
// differs from the one the limits were found for (start-up, a model switch,
// a fallback) or the last answer was provisional, the window is asked from
// the server. A failed discovery keeps the SPEC defaults (and is logged).
// Safe for concurrent use; turns call it before they start.
func (r *Runtime) RefreshLimits(ctx context.Context) Limits {
	cur := r.Limits()
	if r.cfg.ContextWindow > 0 || r.d.Window == nil {
		return cur
	}
	ctx, cancel := context.WithTimeout(ctx, discoveryBudget)
	defer cancel()
	model := r.d.Model.ActiveModel()
	if res, ok := r.d.Model.(modelResolver); ok && model == "" {
		model, _ = res.ResolveModel(ctx) // LLM_MODEL unset: the first model the endpoint lists
	}
	if model == cur.Model && !cur.provisional {
		return cur
	}
	w, err := r.d.Window.DiscoverWindow(ctx, model)
	if err != nil {
		r.d.Log.Warn("discovering the model's context window failed; using the default limits", "model", model, "err", err)
		w = llm.Window{}
	}
	if model == "" {
		w.Provisional = true // the model is resolved on the first call: ask again then
	}
	if w.Tokens == 0 && cur.Window > 0 && cur.Model == model {
		// The server reports nothing, but a window was learnt from it (a
		// refusal naming it, a truncation): keep that.
		w = llm.Window{Tokens: cur.Window, Source: cur.Source}
	}
	l := r.setWindow(model, w)
	if w.Tokens > 0 && (w.Tokens != cur.Window || model != cur.Model) {
		r.d.Log.Info("model context window", "model", model, "window", w.Tokens, "source", w.Source,
			"soft_limit", l.Budget.SoftLimit, "hard_limit", l.Budget.HardLimit, "tool_output_chars", l.MaxToolOutput)
	}
	if l.TooSmall() {
		r.d.Log.Warn("the model's context window is too small for the agent", "model", model, "window", w.Tokens,
			"fix", "OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or a model with a larger num_ctx")
	}
	return l
}
