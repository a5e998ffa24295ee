package llm_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// sleepRecorder is a Config.Sleep that records the requested waits and
// returns at once (or with ctx.Err() when ctx is already done).
type sleepRecorder struct {
	mu sync.Mutex
	d  []time.Duration
}

func (r *sleepRecorder) Sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.d = append(r.d, d)
	r.mu.Unlock()
	return ctx.Err()
}

func (r *sleepRecorder) Waits() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.d)
}

// newClient returns a client on s with model "test-model", no jitter and
// a recording Sleep; opts adjust the config.
func newClient(t *testing.T, s *llmtest.Server, opts ...func(*llm.Config)) (*llm.Client, *sleepRecorder) {
	t.Helper()
	rec := &sleepRecorder{}
	cfg := llm.Config{
		BaseURL: s.URL(),
		APIKey:  "test-key",
		Model:   llmtest.DefaultModel,
		Sleep:   rec.Sleep,
		Rand:    func() float64 { return 0 },
	}
	for _, o := range opts {
		o(&cfg)
	}
	return llm.New(cfg), rec
}

// collect returns an onDelta that appends to the returned slice.
func collect() (func(llm.Delta), *[]llm.Delta) {
	var out []llm.Delta
	return func(d llm.Delta) { out = append(out, d) }, &out
}

func userRequest(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}

func models(reqs []llmtest.RecordedRequest) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Model
	}
	return out
}

func asError(t *testing.T, err error) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
	}
	return e
}
