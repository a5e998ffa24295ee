package agent

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// Benchmarks of orchestration (issue 8): the wall time of a coordinator
// turn with 6 tasks of 1 s simulated work against 3 workers (expected ~2 s,
// not 6 s), the scheduling overhead per delegated task, and the memory of a
// running sub-agent. Figures are reported, never asserted.

// coordinatorTurn runs one coordinator turn delegating n tasks whose
// workers call busy once and conclude; it returns its wall time.
func coordinatorTurn(b *testing.B, h *harness, n int) time.Duration {
	b.Helper()
	titles := make([]string, n)
	for i := range titles {
		titles[i] = fmt.Sprintf("task%02d", i)
	}
	sc := &script{worker: researchingWorker, lead: []llmtest.Turn{
		delegations(titles...),
		llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":600}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "syn", Name: "synthesize", Args: `{}`}),
		llmtest.Text("Merged."),
	}}
	h.fake.Handle(sc.handle)
	s := h.session()
	start := time.Now()
	if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "many things", Coordinator: true}); err != nil {
		b.Fatal(err)
	}
	h.wait(s)
	return time.Since(start)
}

func BenchmarkCoordinatorSixTasksThreeWorkers(b *testing.B) {
	var now, peak atomic.Int32
	h := newHarness(b, withTools(busyTool(time.Second, &now, &peak)), withConfig(func(c *Config) { c.CoordinatorWorkers = 3 }))
	var total time.Duration
	for b.Loop() {
		total += coordinatorTurn(b, h, 6)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "wall_s/turn")
	b.ReportMetric(float64(peak.Load()), "peak_workers")
}

func BenchmarkCoordinatorSchedulingOverhead(b *testing.B) {
	// Workers that answer at once (one model call, no tools): a task's
	// share of the work is then that one call; everything beyond it — the
	// pool, the worker's row and events, the sub-agent's setup and its
	// persisted messages — is the scheduling overhead.
	const tasks, slots = 30, 3
	h := newHarness(b, withConfig(func(c *Config) { c.CoordinatorWorkers = slots }))
	call := modelRoundTrip(b, h)
	titles := make([]string, tasks)
	for i := range titles {
		titles[i] = fmt.Sprintf("task%02d", i)
	}
	var total time.Duration
	for b.Loop() {
		sc := &script{worker: func(req llmtest.RecordedRequest) llmtest.Turn { return llmtest.Text("Conclusion: nothing.") },
			lead: []llmtest.Turn{
				delegations(titles...),
				llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":600}`}),
				llmtest.Text("Merged."),
			}}
		h.fake.Handle(sc.handle)
		s := h.session()
		start := time.Now()
		if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "q", Coordinator: true}); err != nil {
			b.Fatal(err)
		}
		h.wait(s)
		total += time.Since(start)
	}
	// Ideally the turn takes tasks/slots model calls; whatever a task adds
	// beyond its third of a call is scheduling and bookkeeping (the lead's
	// delegate_task and check_task steps included).
	perTask := total / time.Duration(b.N*tasks)
	b.ReportMetric(float64(perTask.Microseconds())/1000, "wall_ms/task")
	b.ReportMetric(float64(call.Microseconds())/1000, "model_call_ms")
	b.ReportMetric(float64((perTask-call/slots).Microseconds())/1000, "overhead_ms/task")
}

// modelRoundTrip is the mean time of one streamed call to the fake model.
func modelRoundTrip(b *testing.B, h *harness) time.Duration {
	b.Helper()
	h.fake.Handle(func(llmtest.RecordedRequest) llmtest.Turn { return llmtest.Text("Conclusion: nothing.") })
	const n = 20
	start := time.Now()
	for range n {
		if _, err := h.client.Stream(context.Background(), llm.Request{Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "s"}, {Role: llm.RoleUser, Content: "t"}}}, func(llm.Delta) {}); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / n
}

func BenchmarkMemoryPerRunningSubagent(b *testing.B) {
	// n workers are held mid-task (each inside a tool call, its context
	// and conversation alive); the heap grows by about n sub-agents.
	const n = 100
	g := newGate()
	var started atomic.Int32
	h := newHarness(b, withTools(readOnlyWait(g, &started)), withConfig(func(c *Config) { c.CoordinatorWorkers = n }))
	titles := make([]string, n)
	for i := range titles {
		titles[i] = fmt.Sprintf("t%03d", i)
	}
	var perAgent float64
	for b.Loop() {
		started.Store(0)
		g = newGate()
		h.extra[0] = readOnlyWait(g, &started)
		sc := &script{lead: []llmtest.Turn{
			delegations(titles...),
			llmtest.ToolCalls(llmtest.Call{ID: "chk", Name: "check_task", Args: `{"wait_seconds":600}`}),
			llmtest.Text("done"),
		}, worker: func(req llmtest.RecordedRequest) llmtest.Turn {
			if len(req.Messages) == 2 {
				return llmtest.ToolCalls(llmtest.Call{ID: "w", Name: "wait", Args: `{}`})
			}
			return llmtest.Text("finished")
		}}
		h.fake.Handle(sc.handle)
		before := heapInUse()
		s := h.session()
		if _, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "hold", Coordinator: true}); err != nil {
			b.Fatal(err)
		}
		for started.Load() < n {
			time.Sleep(time.Millisecond)
		}
		during := heapInUse()
		perAgent = float64(during-before) / n
		close(g.release)
		h.wait(s)
	}
	b.ReportMetric(perAgent/1024, "KiB/subagent")
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}
