package agent

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/tools"
)

// Benchmarks of the runtime against the targets: overhead per step
// under 2 ms (model excluded) and p99 added latency per event under 50 ms
// with 200 concurrent turns. Figures are reported with b.ReportMetric and
// never asserted (docs/architecture.md, "Tests and benchmarks").

type noopArgs struct {
	N int `json:"n"`
}

// noopTool is the trivial tool of the overhead benchmark: no delay, no
// progress report, a two-byte output.
func noopTool() tools.Tool {
	return tools.New("noop", "Do nothing.", func(ctx context.Context, tc *tools.Context, a noopArgs) (tools.Result, error) {
		// Each step returns something new (C4 stops steps that repeat an
		// earlier result).
		return tools.Result{Output: strconv.Itoa(a.N) + ": " + noopOutput}, nil
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}

// noopOutput is a realistic tool result (~3 KB, ~750 tokens): each step
// then adds more than compact.MinNewTokens, so the diminishing-returns stop
// (docs/features.md C4) does not end the benchmark's scripted turns before their answer.
var noopOutput = strings.Repeat("An abstract-sized passage of tool output. ", 72)

// stampTool reports time.Now().UnixNano() as its progress. The progress is
// emitted synchronously (tools.Context.Progress → EventLog.Append), so the
// stamp is taken immediately before the event is marshalled, sequenced,
// persisted and published.
func stampTool() tools.Tool {
	return tools.New("stamp", "Report the time.", func(ctx context.Context, tc *tools.Context, a noopArgs) (tools.Result, error) {
		stamp := strconv.FormatInt(time.Now().UnixNano(), 10)
		tc.Report(stamp)
		return tools.Result{Output: "stamped " + stamp}, nil
	}, tools.WithReadOnly(), tools.AlwaysConcurrencySafe())
}

// toolStepsThenAnswer answers a chat request with a call to tool until the
// request carries steps tool results, then with a short text answer. Each
// call has distinct arguments so the duplicate detector never interferes.
// Every turn must run in a fresh session (earlier turns' results would count).
func toolStepsThenAnswer(tool string, steps int) func(llmtest.RecordedRequest) llmtest.Turn {
	return func(r llmtest.RecordedRequest) llmtest.Turn {
		done := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				done++
			}
		}
		if done < steps {
			return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprintf("call_%d", done+1), Name: tool,
				Args: fmt.Sprintf(`{"n":%d}`, done+1)})
		}
		return llmtest.Text("The answer ", "is 42.")
	}
}

// timedModel wraps the model and adds up the time spent inside Stream,
// minus the time spent in the runtime's onDelta callback (which emits
// text_delta events: runtime work, not model work).
type timedModel struct {
	m Model

	mu    sync.Mutex
	model time.Duration
	calls int
}

func (tm *timedModel) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	var inRuntime time.Duration // onDelta runs on this goroutine (llm.Client.Stream contract)
	wrapped := onDelta
	if onDelta != nil {
		wrapped = func(d llm.Delta) {
			start := time.Now()
			onDelta(d)
			inRuntime += time.Since(start)
		}
	}
	start := time.Now()
	resp, err := tm.m.Stream(ctx, req, wrapped)
	d := time.Since(start) - inRuntime
	tm.mu.Lock()
	tm.model += d
	tm.calls++
	tm.mu.Unlock()
	return resp, err
}

func (tm *timedModel) ActiveModel() string { return tm.m.ActiveModel() }

// timedRuntime builds a second runtime over the harness's store, event log,
// hooks and tools whose model is h.client wrapped in a timedModel.
func timedRuntime(h *harness, cfg Config) (*Runtime, *timedModel) {
	tm := &timedModel{m: h.client}
	rt := New(cfg, Deps{Store: h.st, Model: tm, Events: h.events, Hooks: h.hooks,
		Perms: NewPermissions(h.st, false), Log: slog.New(slog.DiscardHandler),
		Registry: func() *tools.Registry {
			r := StandardRegistry(ToolDeps{Store: h.st})
			for _, x := range h.extra {
				mustAdd(r, x)
			}
			return r
		}})
	h.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := rt.Shutdown(ctx); err != nil {
			h.t.Errorf("shutdown: %v", err)
		}
	})
	return rt, tm
}

// BenchmarkStepOverhead runs whole turns of N tool steps (one call to a
// trivial tool each) plus the final text answer, i.e. N+1 model steps, with
// llmtest answering at once. One op is one turn in a fresh session.
//
// ms/step is turn wall time (StartTurn → Wait returns, so it includes the
// done event, the session-stop hooks and the trajectory file) divided by
// model steps, and so it includes the fake model's HTTP round trip
// (request encoding, loopback HTTP, llmtest decoding and recording, SSE
// parsing). model-ms/step is the time spent inside Model.Stream minus the
// time spent in the runtime's delta callback, measured in the same turns;
// ms/step-excl-model is the difference: the runtime's own cost per step
// (context build, persistence, events, hooks, executor, audit).
func BenchmarkStepOverhead(b *testing.B) {
	for _, n := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			h := newHarness(b, withTools(noopTool()))
			h.fake.Handle(toolStepsThenAnswer("noop", n))
			rt, tm := timedRuntime(h, Config{DataDir: h.dir, ToolTimeout: 5 * time.Second, MaxSteps: n + 1})
			sessions := make([]string, b.N)
			for i := range sessions {
				sessions[i] = h.session()
			}
			ctx := context.Background()
			var wall time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if _, err := rt.StartTurn(ctx, h.userID, sessions[i], TurnRequest{Question: "How many?"}); err != nil {
					b.Fatal(err)
				}
				wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				err := rt.Wait(wctx, sessions[i])
				cancel()
				if err != nil {
					b.Fatalf("turn did not finish: %v", err)
				}
				wall += time.Since(start)
			}
			b.StopTimer()
			evs := h.allEvents(sessions[b.N-1])
			done := decode[DoneData](b, evs[len(evs)-1])
			if done.Reason != "answer" || done.Steps != n+1 {
				b.Fatalf("last turn ended %+v; events %s", done, kinds(evs))
			}
			steps := float64(b.N * (n + 1))
			tm.mu.Lock()
			model, calls := tm.model, tm.calls
			tm.mu.Unlock()
			if calls != b.N*(n+1) {
				b.Fatalf("%d model calls, want %d", calls, b.N*(n+1))
			}
			b.ReportMetric(ms(wall)/steps, "ms/step")
			b.ReportMetric(ms(model)/steps, "model-ms/step")
			b.ReportMetric(ms(wall-model)/steps, "ms/step-excl-model")
			b.ReportMetric(float64(len(evs))/float64(n+1), "events/step")
		})
	}
}

// received is one event as a subscriber saw it.
type received struct {
	e  Event
	at time.Time
}

// BenchmarkConcurrentTurnsLatency starts 200 turns at once, each in its own
// session (3 steps calling stampTool, then a text answer; llmtest answers
// at once), with one broker subscriber per session recording when each
// event arrives.
//
// How latency is measured: the store stamps every event row with
// created_at = time.Now() at the start of AppendAgentEvent (after the
// payload is marshalled and the session's sequence lock is taken, before
// the single writer connection is waited for). After the run the rows are
// read back and, for every event, latency = receipt − created_at: the
// writer queue, the INSERT, the publish and the subscriber being scheduled.
// p50-ms, p99-ms and max-ms cover all events. As a cross-check that also
// includes the marshalling and the sequence lock, every tool_progress event
// carries the time taken just before EventLog.Append (see stampTool):
// progress-p50-ms and progress-p99-ms. Both clocks are this process's wall
// clock (created_at round-trips through SQLite at nanosecond precision).
func BenchmarkConcurrentTurnsLatency(b *testing.B) {
	const turns, toolSteps = 200, 3
	h := newHarness(b, withTools(stampTool()))
	h.fake.Handle(toolStepsThenAnswer("stamp", toolSteps))
	ctx := context.Background()
	var all, progress []time.Duration
	var wall time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sessions := make([]string, turns)
		for i := range sessions {
			sessions[i] = h.session()
		}
		got := make([][]received, turns)
		var wg sync.WaitGroup
		for i, s := range sessions {
			sub := h.events.Broker().Subscribe(s)
			wg.Go(func() {
				defer h.events.Broker().Unsubscribe(sub)
				for e := range sub.C {
					got[i] = append(got[i], received{e: e, at: time.Now()})
					if e.Kind == KindDone {
						return
					}
				}
			})
		}
		b.StartTimer()
		start := time.Now()
		for _, s := range sessions {
			if _, err := h.rt.StartTurn(ctx, h.userID, s, TurnRequest{Question: "What time is it?"}); err != nil {
				b.Fatal(err)
			}
		}
		for _, s := range sessions {
			h.wait(s)
		}
		wg.Wait()
		wall += time.Since(start)
		b.StopTimer()
		for i, s := range sessions {
			a, p := latencies(b, h, s, got[i], toolSteps)
			all = append(all, a...)
			progress = append(progress, p...)
		}
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(all)
	slices.Sort(progress)
	b.ReportMetric(ms(percentile(all, 0.50)), "p50-ms")
	b.ReportMetric(ms(percentile(all, 0.99)), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
	b.ReportMetric(ms(percentile(progress, 0.50)), "progress-p50-ms")
	b.ReportMetric(ms(percentile(progress, 0.99)), "progress-p99-ms")
	b.ReportMetric(float64(len(all))/float64(b.N), "events")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s")
}

// latencies checks one session's received events against its log (all of
// them, in order, the turn answered) and returns the latency of each event
// and of each tool_progress event by its payload stamp.
func latencies(b *testing.B, h *harness, session string, got []received, toolSteps int) (all, progress []time.Duration) {
	rows, err := h.st.AgentEventsAfter(context.Background(), session, 0, 100000)
	if err != nil {
		b.Fatal(err)
	}
	if len(got) != len(rows) {
		b.Fatalf("session %s: subscriber got %d events, log has %d", session, len(got), len(rows))
	}
	for i, r := range got {
		row := rows[i]
		if r.e.Seq != row.Seq {
			b.Fatalf("session %s: event %d has seq %d, log %d", session, i, r.e.Seq, row.Seq)
		}
		all = append(all, r.at.Sub(row.CreatedAt))
		if r.e.Kind == KindToolProgress {
			ns, err := strconv.ParseInt(decode[ToolProgressData](b, r.e).Progress, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			progress = append(progress, r.at.Sub(time.Unix(0, ns)))
		}
	}
	if done := decode[DoneData](b, got[len(got)-1].e); done.Reason != "answer" || len(progress) != toolSteps {
		b.Fatalf("session %s ended %+v with %d progress events", session, done, len(progress))
	}
	return all, progress
}

// percentile returns the q-quantile of sorted (nearest rank).
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*q+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
