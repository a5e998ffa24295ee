// Package jobs runs the long work people start from pages — a paper's PDF
// download, a parse — as stored jobs (rows of the agent's background task
// table, docs/features.md L7): the row is the state, so a reload, the jobs
// page and a restart (which marks unfinished rows interrupted) all see the
// same thing. The Runner keeps only what cannot be stored: each running
// job's cancel function.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/astroresearch/astroresearch/store"
)

// ErrRunning means the paper already has an open job of that kind.
var ErrRunning = errors.New("jobs: already running")

// Work is a job's body. It reports progress (any JSON-encodable value)
// through report; its error is the job's failure. A cancelled ctx ends
// the job as cancelled.
type Work func(ctx context.Context, report func(progress any)) error

// progressEvery throttles progress writes to the database.
const progressEvery = 500 * time.Millisecond

// Runner starts and stops paper jobs. Safe for concurrent use.
type Runner struct {
	st  *store.Store
	log *slog.Logger
	// ctx is the parent of every job: detached from the requests that
	// start them, cancelled by Stop.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	cancels map[string]context.CancelFunc // running jobs by id
}

// NewRunner returns a runner that stores jobs in st.
func NewRunner(st *store.Store, log *slog.Logger) *Runner {
	ctx, cancel := context.WithCancel(context.Background())
	return &Runner{st: st, log: log, ctx: ctx, cancel: cancel, cancels: map[string]context.CancelFunc{}}
}

// StartPaper stores a running job of kind (store.JobDownload or
// store.JobParse) for the user's paper, named name, and runs work in the
// background for at most timeout. It returns ErrRunning when the paper
// already has an open job of that kind.
func (r *Runner) StartPaper(ctx context.Context, userID, paperID int64, kind, name string, timeout time.Duration, work Work) (store.BackgroundTask, error) {
	task := store.BackgroundTask{ID: "job_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:12], UserID: userID,
		Kind: kind, Name: name, Arguments: fmt.Sprintf(`{"paper_id":%d}`, paperID), Status: store.TaskRunning, PaperID: &paperID}
	if err := r.st.CreateBackgroundTask(ctx, &task); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return store.BackgroundTask{}, ErrRunning
		}
		return store.BackgroundTask{}, fmt.Errorf("jobs: start %s of paper %d: %w", kind, paperID, err)
	}
	jobCtx, cancel := context.WithTimeout(r.ctx, timeout)
	r.mu.Lock()
	r.cancels[task.ID] = cancel
	r.mu.Unlock()
	r.wg.Add(1)
	go r.run(jobCtx, cancel, task, work)
	return task, nil
}

// run executes one job and records its outcome.
func (r *Runner) run(ctx context.Context, cancel context.CancelFunc, task store.BackgroundTask, work Work) {
	defer r.wg.Done()
	defer func() {
		r.mu.Lock()
		delete(r.cancels, task.ID)
		r.mu.Unlock()
		cancel()
	}()
	var last time.Time
	report := func(p any) {
		if time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		b, err := json.Marshal(p)
		if err == nil {
			err = r.st.SetJobProgress(context.WithoutCancel(ctx), task.ID, string(b))
		}
		if err != nil {
			r.log.Warn("job progress", "job", task.ID, "err", err)
		}
	}
	err := work(ctx, report)
	status, output := store.TaskDone, ""
	switch {
	case err == nil:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		status, output = store.TaskTimeout, err.Error()
	case ctx.Err() != nil:
		status, output = store.TaskCancelled, err.Error()
	default:
		status, output = store.TaskFailed, err.Error()
	}
	if err != nil {
		r.log.Warn("job ended", "job", task.ID, "kind", task.Kind, "paper", *task.PaperID, "status", status, "err", err)
	}
	if _, err := r.st.SetBackgroundTaskStatus(context.WithoutCancel(ctx), task.ID, status, output); err != nil {
		r.log.Warn("record job outcome", "job", task.ID, "err", err)
	}
}

// Cancel stops the user's running job id. It returns store.ErrNotFound
// when the user has no such job; a job that already ended is not an
// error.
func (r *Runner) Cancel(ctx context.Context, userID int64, id string) error {
	if _, err := r.st.UserJob(ctx, userID, id); err != nil {
		return fmt.Errorf("jobs: cancel: %w", err)
	}
	r.mu.Lock()
	cancel := r.cancels[id]
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}

// Running reports whether job id runs in this process.
func (r *Runner) Running(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cancels[id] != nil
}

// Stop cancels every running job and waits for them to record their end,
// or for ctx.
func (r *Runner) Stop(ctx context.Context) error {
	r.cancel()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait blocks until every job started so far has ended.
func (r *Runner) Wait() { r.wg.Wait() }
