package llm_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func overloaded() llmtest.Turn { return llmtest.HTTPError(529, nil, "Overloaded") }

func fallbackClient(t *testing.T, s *llmtest.Server) (*llm.Client, *sleepRecorder) {
	return newClient(t, s, func(cfg *llm.Config) {
		cfg.Model, cfg.FallbackModel, cfg.FallbackChain = "primary", "fallback", []string{"chain-1", "chain-2"}
	})
}

func TestFallbackAfterThreeOverloads(t *testing.T) {
	s := llmtest.New(t)
	c, _ := fallbackClient(t, s)

	// Three 529s: the retry after the third goes to the fallback model.
	s.Enqueue(overloaded(), overloaded(), overloaded(), llmtest.Text("ok"))
	resp, err := c.Stream(t.Context(), userRequest("q"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := models(s.Requests()); !slices.Equal(got, []string{"primary", "primary", "primary", "fallback"}) {
		t.Errorf("models %v", got)
	}
	if resp.Model != "fallback" || resp.Retries != 3 {
		t.Errorf("answered by %q after %d retries, want fallback after 3", resp.Model, resp.Retries)
	}
	if p, a, sw := c.FallbackState(); p != "primary" || a != "fallback" || !sw {
		t.Errorf("state %q %q %v", p, a, sw)
	}

	// The next call uses the fallback model directly.
	s.Enqueue(llmtest.Text("again"))
	if resp, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil || resp.Retries != 0 {
		t.Fatalf("second call: %d retries, %v", resp.Retries, err)
	}
	if last := s.Requests()[4]; last.Model != "fallback" {
		t.Errorf("next call used %q", last.Model)
	}
}

func TestFallbackRotation(t *testing.T) {
	s := llmtest.New(t)
	c, _ := fallbackClient(t, s)
	want := []string{"fallback", "chain-1", "chain-2", "primary", "fallback"}
	for i, w := range want {
		s.Enqueue(overloaded(), overloaded(), overloaded(), llmtest.Text("ok"))
		if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if a := c.ActiveModel(); a != w {
			t.Fatalf("round %d: active %q, want %q", i, a, w)
		}
	}
}

func TestSuccessResetsOverloadCount(t *testing.T) {
	s := llmtest.New(t)
	c, _ := fallbackClient(t, s)
	s.Enqueue(overloaded(), overloaded(), llmtest.Text("ok"), overloaded(), overloaded(), llmtest.Text("ok"))
	for range 2 {
		if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, a, sw := c.FallbackState(); a != "primary" || sw {
		t.Errorf("active %q switched %v after non-consecutive overloads", a, sw)
	}
}

func TestExplicitRequestModelIsNotFallenBack(t *testing.T) {
	s := llmtest.New(t)
	c, _ := fallbackClient(t, s)
	s.Enqueue(overloaded(), overloaded(), overloaded(), llmtest.Text("ok"))
	req := userRequest("q")
	req.Model = "pinned"
	if _, err := c.Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	if got := models(s.Requests()); !slices.Equal(got, []string{"pinned", "pinned", "pinned", "pinned"}) {
		t.Errorf("models %v", got)
	}
	if a := c.ActiveModel(); a != "primary" {
		t.Errorf("active %q", a)
	}
}

func TestSetModelResetsFallback(t *testing.T) {
	s := llmtest.New(t)
	c, _ := fallbackClient(t, s)
	s.Enqueue(overloaded(), overloaded(), overloaded(), llmtest.Text("ok"))
	if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
		t.Fatal(err)
	}
	c.SetModel("admin-choice")
	if p, a, sw := c.FallbackState(); p != "admin-choice" || a != "admin-choice" || sw {
		t.Errorf("state %q %q %v", p, a, sw)
	}
	s.Enqueue(llmtest.Text("ok"))
	if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
		t.Fatal(err)
	}
	if last := s.Requests()[4]; last.Model != "admin-choice" {
		t.Errorf("model %q", last.Model)
	}
}

// TestConcurrentSessions runs 100 streams against one server while the
// model is switched; run with -race.
func TestConcurrentSessions(t *testing.T) {
	s := llmtest.New(t)
	s.Handle(func(r llmtest.RecordedRequest) llmtest.Turn {
		return llmtest.Text("echo:", r.LastMessage().Content).WithUsage(1, 1)
	})
	c, _ := newClient(t, s)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			q := fmt.Sprint(i)
			resp, err := c.Stream(t.Context(), userRequest(q), nil)
			if err != nil || resp.Message.Content != "echo:"+q {
				t.Errorf("session %d: %+v %v", i, resp, err)
			}
		})
	}
	for i := range 20 {
		wg.Go(func() {
			c.SetModel(fmt.Sprintf("m-%d", i))
			_ = c.ActiveModel()
			_, _, _ = c.FallbackState()
		})
	}
	wg.Wait()
	if n := len(s.Requests()); n != 100 {
		t.Errorf("%d requests", n)
	}
}

func TestResolveModel(t *testing.T) {
	s := llmtest.New(t)
	s.SetModels("qwen3:8b", "llama3")
	s.Enqueue(llmtest.Text("ok"))
	c, _ := newClient(t, s, func(cfg *llm.Config) { cfg.Model = "" })
	if a := c.ActiveModel(); a != "" {
		t.Fatalf("active %q before resolve", a)
	}
	if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.Model != "qwen3:8b" {
		t.Errorf("model %q", r.Model)
	}
	if m, err := c.ResolveModel(t.Context()); err != nil || m != "qwen3:8b" {
		t.Errorf("ResolveModel = %q, %v", m, err)
	}
	if n := len(s.AllRequests()); n != 2 {
		t.Errorf("%d requests, want models list once plus one chat", n)
	}
}

func TestResolveModelEmptyList(t *testing.T) {
	s := llmtest.New(t)
	s.SetModels()
	c, _ := newClient(t, s, func(cfg *llm.Config) { cfg.Model = "" })
	_, err := c.ResolveModel(t.Context())
	if llm.ClassOf(asError(t, err)) != llm.ModelError {
		t.Errorf("err %v", err)
	}
}

func TestEmbed(t *testing.T) {
	s := llmtest.New(t)
	s.SetEmbeddingDim(16)
	c, _ := newClient(t, s)
	got, err := c.Embed(t.Context(), "embed-model", []string{"galaxy", "nebula"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !slices.Equal(got[0], llmtest.Vector("galaxy", 16)) || !slices.Equal(got[1], llmtest.Vector("nebula", 16)) {
		t.Errorf("vectors %v", got)
	}
	if r := s.AllRequests()[0]; r.Model != "embed-model" || r.Path != "/v1/embeddings" {
		t.Errorf("request %+v", r)
	}
	if none, err := c.Embed(t.Context(), "m", nil); none != nil || err != nil {
		t.Errorf("empty input: %v %v", none, err)
	}
}

// The thinking toggle follows the active model: a switch to a fallback
// model that takes no enable_thinking flag hides it.
func TestThinkingToggleFollowsFallback(t *testing.T) {
	s := llmtest.New(t)
	c, _ := newClient(t, s, func(cfg *llm.Config) { cfg.Model, cfg.FallbackModel = "qwen-plus", "gpt-4o" })
	if !c.ThinkingToggle() {
		t.Fatal("qwen-plus: no thinking toggle")
	}
	s.Enqueue(overloaded(), overloaded(), overloaded(), llmtest.Text("ok"))
	if _, err := c.Stream(t.Context(), userRequest("q"), nil); err != nil {
		t.Fatal(err)
	}
	if c.ActiveModel() != "gpt-4o" || c.ThinkingToggle() {
		t.Errorf("after the switch to %q: toggle %v, want none", c.ActiveModel(), c.ThinkingToggle())
	}
}
