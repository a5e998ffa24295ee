package agent

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
	"go.uber.org/goleak"
)

// noLeaks checks, after every other cleanup of the test (the runtime's
// shutdown included), that no goroutine the test started is still running.
// Call it first in the test.
func noLeaks(t *testing.T) {
	t.Helper()
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

type fakeDownloadArgs struct {
	ID string `json:"id"`
}

// fakeDownload stands in for download_paper: it waits delay (or its
// context), reports progress and "downloads" the paper.
func fakeDownload(delay time.Duration, runs *atomic.Int32) tools.Tool {
	return tools.New("download_paper", "Download a paper's PDF.", func(ctx context.Context, tc *tools.Context, a fakeDownloadArgs) (tools.Result, error) {
		runs.Add(1)
		tc.Report("arxiv: 50% of 1.0 MB")
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Output: fmt.Sprintf("Downloaded %q (library #7): 1.0 MB PDF.", a.ID)}, nil
	}, tools.WithDeferred(), tools.WithSiblingAbort())
}

// waitTask polls until the task reaches a final status.
func (h *harness) waitTask(session, id string) store.BackgroundTask {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		task, err := h.st.BackgroundTask(context.Background(), session, id)
		if err != nil {
			h.t.Fatal(err)
		}
		if store.TaskFinal(task.Status) {
			return task
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("background task %s did not finish", id)
	return store.BackgroundTask{}
}

func TestBackgroundDownloadInjectedOnNextStep(t *testing.T) {
	noLeaks(t)
	var runs atomic.Int32
	h := newHarness(t, withTools(fakeDownload(0, &runs), echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":["bg_task_run","bg_task_check"]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "bg", Name: "bg_task_run", Args: `{"tool":"download_paper","arguments":{"id":"2101.00001"}}`}),
	)
	// The third step waits for the task to finish: its result must then
	// be in the next request, once, after the bg_task_run result.
	h.fake.Handle(func(req llmtest.RecordedRequest) llmtest.Turn {
		if len(h.fake.Requests()) == 3 {
			list, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundTool)
			if err != nil || len(list) != 1 {
				t.Errorf("tasks at step 3: %+v %v", list, err)
				return llmtest.Text("?")
			}
			h.waitTask(s, list[0].ID)
			return llmtest.ToolCalls(llmtest.Call{ID: "check", Name: "bg_task_check", Args: `{}`})
		}
		return llmtest.Text("The paper is downloaded.")
	})
	sub := h.events.Broker().Subscribe(s)
	defer h.events.Broker().Unsubscribe(sub)
	turn, err := h.rt.StartTurn(context.Background(), h.userID, s, TurnRequest{Question: "Get 2101.00001"})
	if err != nil {
		t.Fatal(err)
	}
	_ = turn
	h.wait(s)
	tasks, err := h.st.BackgroundTasks(context.Background(), s, store.BackgroundTool)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("tasks %+v, %v", tasks, err)
	}
	if tasks[0].Status != store.TaskDone || runs.Load() != 1 {
		t.Fatalf("task %+v, runs %d", tasks[0], runs.Load())
	}
	reqs := h.fake.Requests()
	last := reqs[len(reqs)-1].Messages
	var notes []int
	bgResult := -1
	for i, m := range last {
		if m.ToolCallID == "bg" {
			bgResult = i
			if !strings.Contains(m.Content, tasks[0].ID) {
				t.Fatalf("bg_task_run did not return the task id at once: %q", m.Content)
			}
		}
		if m.Role == "user" && strings.HasPrefix(m.Content, "[background task done] ✅ download_paper: Downloaded \"2101.00001\"") {
			notes = append(notes, i)
		}
	}
	if len(notes) != 1 || notes[0] < bgResult {
		t.Fatalf("notification positions %v (bg result at %d) in %+v", notes, bgResult, last)
	}
	// Persisted with the lead's conversation; not delivered twice.
	h.assertValidHistory(s)
	again, err := h.st.ClaimBackgroundNotifications(context.Background(), s)
	if err != nil || len(again) != 0 {
		t.Fatalf("claimed again: %+v %v", again, err)
	}
	// Audited like a direct call.
	audit, err := h.st.AuditForSession(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	audited := false
	for _, a := range audit {
		audited = audited || (a.Tool == "download_paper" && a.ToolCallID == tasks[0].ID && a.Status == "ok")
	}
	if !audited {
		t.Fatalf("the background download is not in the audit log: %+v", audit)
	}
	// The timeline saw the task queued, running and done.
	var statuses []string
	for _, e := range eventsOf(h.allEvents(s), KindBackgroundTask) {
		statuses = append(statuses, decode[BackgroundTaskData](t, e).Status)
	}
	if got := strings.Join(statuses, " "); !strings.HasPrefix(got, "queued running") || !strings.HasSuffix(got, "done") {
		t.Fatalf("background task events: %s", got)
	}
}

func TestBackgroundRunRefusesOtherTools(t *testing.T) {
	var runs atomic.Int32
	h := newHarness(t, withTools(fakeDownload(0, &runs), echoTool()))
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":["bg_task_run"]}`}),
		llmtest.ToolCalls(
			llmtest.Call{ID: "parse", Name: "bg_task_run", Args: `{"tool":"parse_paper","arguments":{"id":"x"}}`},
			llmtest.Call{ID: "echo", Name: "bg_task_run", Args: `{"tool":"echo","arguments":{"text":"x"}}`},
			llmtest.Call{ID: "bad", Name: "bg_task_run", Args: `{"tool":"download_paper","arguments":{"nope":1}}`},
		),
		llmtest.Text("ok"),
	)
	h.runTurn(s, "go")
	msgs := h.fake.Requests()[2].Messages
	want := map[string]string{"parse": "cannot run in the background", "echo": "Invalid arguments for bg_task_run", "bad": "Invalid arguments for download_paper"}
	for _, m := range msgs {
		if w, ok := want[m.ToolCallID]; ok && !strings.Contains(m.Content, w) {
			t.Errorf("%s: %q, want %q", m.ToolCallID, m.Content, w)
		}
	}
	if runs.Load() != 0 {
		t.Fatalf("a refused call ran %d times", runs.Load())
	}
}

func TestBackgroundPoolBoundAndShutdownInterrupts(t *testing.T) {
	noLeaks(t)
	var runs atomic.Int32
	h := newHarness(t, withTools(fakeDownload(time.Hour, &runs)), withConfig(func(c *Config) { c.BackgroundWorkers = 2 }))
	s := h.session()
	var calls []llmtest.Call
	for i := range 5 {
		calls = append(calls, llmtest.Call{ID: fmt.Sprintf("bg%d", i), Name: "bg_task_run",
			Args: fmt.Sprintf(`{"tool":"download_paper","arguments":{"id":"2101.0000%d"}}`, i)})
	}
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":["bg_task_run"]}`}),
		llmtest.ToolCalls(calls...),
		llmtest.Text("started five"),
	)
	h.runTurn(s, "download five")
	deadline := time.Now().Add(5 * time.Second)
	for runs.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// Both slots are held, so the other three cannot start: a task enters
	// only by putting a token in bgSlots. Checked from the pool's state and
	// the stored rows, with no wait for something not to happen.
	if n, held := runs.Load(), len(h.rt.bgSlots); n != 2 || held != 2 {
		t.Fatalf("%d tasks running, %d slots held, with 2 workers", n, held)
	}
	before, err := h.st.BackgroundTasks(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	queued := 0
	for _, task := range before {
		if task.Status == store.TaskQueued {
			queued++
		}
	}
	if len(before) != 5 || queued != 3 {
		t.Fatalf("%d tasks, %d queued; want 5 and 3", len(before), queued)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.rt.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	tasks, err := h.st.BackgroundTasks(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if task.Status != store.TaskInterrupted {
			t.Errorf("after shutdown %s is %s", task.ID, task.Status)
		}
	}
}

func TestRestartMarksBackgroundTasksInterrupted(t *testing.T) {
	var runs atomic.Int32
	h := newHarness(t, withTools(fakeDownload(0, &runs)))
	s := h.session()
	ctx := context.Background()
	h.fake.Enqueue(llmtest.Text("hi"))
	h.runTurn(s, "hello")
	// A task a killed server left running.
	task := store.BackgroundTask{ID: "bg_left", SessionID: s, UserID: h.userID, Turn: 1, Kind: store.BackgroundTool,
		Name: "download_paper", Arguments: `{"id":"x"}`, Status: store.TaskRunning}
	if err := h.st.CreateBackgroundTask(ctx, &task); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := h.st.BackgroundTask(ctx, s, "bg_left")
	if err != nil || got.Status != store.TaskInterrupted {
		t.Fatalf("after recover: %+v %v", got, err)
	}
	h.fake.Enqueue(llmtest.Text("noted"))
	h.runTurn(s, "and now?")
	reqs := h.fake.Requests()
	found := false
	for _, m := range reqs[len(reqs)-1].Messages {
		found = found || strings.HasPrefix(m.Content, "[background task done] ⚠️ download_paper: The server restarted")
	}
	if !found {
		t.Fatal("the interrupted task was not reported to the model")
	}
}

func TestRestartMarksWorkersInterrupted(t *testing.T) {
	h := newHarness(t)
	s := h.session()
	ctx := context.Background()
	h.fake.Enqueue(llmtest.Text("hi"))
	h.runTurn(s, "hello")
	w := store.BackgroundTask{ID: "w_left", SessionID: s, UserID: h.userID, Turn: 1, Kind: store.BackgroundWorker,
		Name: "jets", Arguments: "survey", AgentName: "sub_w_left", Status: store.TaskRunning, Notified: true}
	if err := h.st.CreateBackgroundTask(ctx, &w); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := h.st.BackgroundTask(ctx, s, "w_left")
	if err != nil || got.Status != store.TaskInterrupted {
		t.Fatalf("after recover: %+v %v", got, err)
	}
	evs := eventsOf(h.allEvents(s), KindWorker)
	if len(evs) != 1 || decode[WorkerData](t, evs[0]).Status != store.TaskInterrupted {
		t.Fatalf("worker events after recover: %d", len(evs))
	}
	// A worker's result is never injected as a background notification.
	if n, _ := h.st.ClaimBackgroundNotifications(ctx, s); len(n) != 0 {
		t.Fatalf("worker row claimed as a notification: %+v", n)
	}
}

func TestBackgroundRunHonoursHooks(t *testing.T) {
	var runs atomic.Int32
	h := newHarness(t, withTools(fakeDownload(0, &runs)))
	h.hooks.Register(HookPreToolUse, "no-downloads", HookFunc(func(ctx context.Context, in HookInput) (HookDecision, error) {
		return HookDecision{Block: true, Reason: "downloads are off today"}, nil
	}), "download_paper")
	s := h.session()
	h.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "load", Name: "load_tool", Args: `{"names":["bg_task_run"]}`}),
		llmtest.ToolCalls(llmtest.Call{ID: "bg", Name: "bg_task_run", Args: `{"tool":"download_paper","arguments":{"id":"x"}}`}),
		llmtest.Text("ok"),
	)
	h.runTurn(s, "go")
	if out := toolOutput(h.fake.Requests()[2], "bg"); !strings.Contains(out, "downloads are off today") || runs.Load() != 0 {
		t.Fatalf("a hook-blocked download ran (%d) or said %q", runs.Load(), out)
	}
}
