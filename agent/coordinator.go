package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/store"
)

// Coordinator mode (docs/features.md T25): for one turn the lead only delegates. Its
// tools are delegate_task, check_task, task_stop and synthesize; each
// delegated task is a worker — a sub-agent — run by a pool of
// COORDINATOR_MAX_WORKERS slots with a per-task timeout. Workers belong to
// the turn: a user stop stops them all (their partial results are kept),
// and the turn does not end before every worker has.

// Errors that stop a worker (the cause of its context).
var (
	errWorkerStopped = errors.New("stopped by the coordinator")
	errTurnEnded     = errors.New("the coordinator's turn ended")
)

// worker is one delegated task. Its fields after id are guarded by
// coordinator.mu.
type worker struct {
	id, agent, title, task string
	readOnly               bool
	status                 string
	result                 subagentResult
	cancel                 context.CancelCauseFunc
	done                   chan struct{}
}

// coordinator runs a coordinator turn's workers. Safe for concurrent use.
type coordinator struct {
	t       *turnRun
	base    context.Context // the turn's context: workers end with it
	slots   chan struct{}
	timeout time.Duration

	mu      sync.Mutex
	workers []*worker
	byID    map[string]*worker
	changed chan struct{} // closed and replaced at every state change
	closed  bool
	wg      sync.WaitGroup
}

func newCoordinator(t *turnRun, base context.Context, slots int, timeout time.Duration) *coordinator {
	return &coordinator{t: t, base: base, slots: make(chan struct{}, slots), timeout: timeout,
		byID: map[string]*worker{}, changed: make(chan struct{})}
}

// delegate queues a worker for task and starts it; it returns at once.
func (c *coordinator) delegate(ctx context.Context, title, task string, readOnly bool) (*worker, error) {
	w := &worker{id: newTaskID("w_"), title: title, task: task, readOnly: readOnly, status: store.TaskQueued,
		done: make(chan struct{})}
	w.agent = "sub_" + w.id
	row := store.BackgroundTask{ID: w.id, SessionID: c.t.session.ID, UserID: c.t.userID, Turn: c.t.turn,
		Kind: store.BackgroundWorker, Name: title, Arguments: task, AgentName: w.agent, Status: store.TaskQueued, Notified: true}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errTurnEnded
	}
	c.workers = append(c.workers, w)
	c.byID[w.id] = w
	c.wg.Add(1)
	wctx, cancel := context.WithCancelCause(c.base)
	w.cancel = cancel
	c.mu.Unlock()
	if err := c.t.r.d.Store.CreateBackgroundTask(context.WithoutCancel(ctx), &row); err != nil {
		c.t.log().Error("recording a worker failed", "err", err)
	}
	c.report(w, store.TaskQueued, "")
	go func() {
		defer c.wg.Done()
		defer cancel(nil)
		c.run(wctx, w)
	}()
	return w, nil
}

// run waits for a slot, runs the worker's sub-agent with the task timeout
// and records how it ended.
func (c *coordinator) run(ctx context.Context, w *worker) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		c.finish(ctx, nil, w, subagentResult{agent: w.agent})
		return
	}
	defer func() { <-c.slots }()
	c.setStatus(w, store.TaskRunning, "")
	c.report(w, store.TaskRunning, "")
	tctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	res := c.t.runSubagent(tctx, subagentSpec{task: w.task, readOnly: w.readOnly, name: w.agent, workerID: w.id,
		guide: fmt.Sprintf(workerGuide, w.id, w.title)})
	c.finish(ctx, tctx, w, res)
}

const workerGuide = `You are worker %s of a coordinator, assigned the task %q. Stay within it; other workers cover the rest.`

// finish records a worker's end: its status, its (possibly partial) result.
func (c *coordinator) finish(ctx, tctx context.Context, w *worker, res subagentResult) {
	status := res.status
	switch {
	case c.t.r.base.Err() != nil:
		status = store.TaskInterrupted
	case ctx.Err() != nil:
		status = store.TaskCancelled
	case tctx != nil && errors.Is(tctx.Err(), context.DeadlineExceeded):
		status = store.TaskTimeout
	case status == "":
		status = store.TaskFailed
	}
	res.status = status
	c.mu.Lock()
	w.result = res
	c.mu.Unlock()
	c.setStatus(w, status, res.Text())
	c.report(w, status, summaryLine(res))
	close(w.done)
}

func summaryLine(res subagentResult) string {
	s := strings.TrimSpace(res.answer)
	if s == "" {
		if res.err != nil {
			return res.err.Error()
		}
		return ""
	}
	first, _, _ := strings.Cut(s, "\n")
	return textcut.Ellipsize(first, 160)
}

// setStatus records w's status in memory and in its row, and wakes
// check_task waiters.
func (c *coordinator) setStatus(w *worker, status, output string) {
	c.mu.Lock()
	w.status = status
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	if _, err := c.t.r.d.Store.SetBackgroundTaskStatus(context.WithoutCancel(c.base), w.id, status,
		textcut.Prefix(output, backgroundOutputChars)); err != nil {
		c.t.log().Error("recording a worker's status failed", "worker", w.id, "err", err)
	}
}

// report emits the worker event of the timeline's worker list.
func (c *coordinator) report(w *worker, status, summary string) {
	c.t.emit(c.base, KindWorker, WorkerData{WorkerID: w.id, Agent: w.agent, Title: w.title, Status: status, Summary: summary})
}

// stop cancels one worker; it reports whether it was still unfinished.
func (c *coordinator) stop(id string) (bool, error) {
	c.mu.Lock()
	w, ok := c.byID[id]
	c.mu.Unlock()
	if !ok {
		return false, store.ErrNotFound
	}
	select {
	case <-w.done:
		return false, nil
	default:
	}
	w.cancel(errWorkerStopped)
	return true, nil
}

// wait blocks until every worker has finished, d has passed or ctx ends.
func (c *coordinator) wait(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		c.mu.Lock()
		open := 0
		for _, w := range c.workers {
			if !store.TaskFinal(w.status) {
				open++
			}
		}
		changed := c.changed
		c.mu.Unlock()
		if open == 0 {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// snapshot returns the workers with their state, in delegation order.
func (c *coordinator) snapshot() []worker {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]worker, len(c.workers))
	for i, w := range c.workers {
		out[i] = worker{id: w.id, agent: w.agent, title: w.title, task: w.task, status: w.status, result: w.result}
	}
	return out
}

// close stops every unfinished worker and waits for all of them: a turn
// never ends with workers running. Their partial results stay recorded.
func (c *coordinator) close() {
	c.mu.Lock()
	c.closed = true
	workers := append([]*worker(nil), c.workers...)
	c.mu.Unlock()
	for _, w := range workers {
		w.cancel(errTurnEnded)
	}
	c.wg.Wait()
}
