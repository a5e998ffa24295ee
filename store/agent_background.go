package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Kinds of background task rows.
const (
	BackgroundTool   = "tool"     // a bg_task_run tool run (T22)
	BackgroundWorker = "worker"   // a coordinator worker (T25)
	JobDownload      = "download" // a PDF download started from a paper page (L7)
	JobParse         = "parse"    // a parse started from a paper page (L7)
)

// Statuses of a background task. Queued and running are open; the others
// are final.
const (
	TaskQueued      = "queued"
	TaskRunning     = "running"
	TaskDone        = "done"
	TaskFailed      = "failed"
	TaskTimeout     = "timeout"
	TaskCancelled   = "cancelled"
	TaskInterrupted = "interrupted"
)

// TaskFinal reports whether status is a final status.
func TaskFinal(status string) bool { return status != TaskQueued && status != TaskRunning }

// BackgroundTask is one background tool run, coordinator worker or paper
// job (a download or parse started from a page: no session, a paper).
type BackgroundTask struct {
	ID         string     `db:"id" json:"id"`
	SessionID  string     `db:"session_id" json:"-"` // "" for paper jobs
	UserID     int64      `db:"user_id" json:"-"`
	Turn       int        `db:"turn" json:"turn"`
	Kind       string     `db:"kind" json:"kind"`
	Name       string     `db:"name" json:"name"`
	Arguments  string     `db:"arguments" json:"arguments"`
	AgentName  string     `db:"agent_name" json:"agent,omitempty"`
	Status     string     `db:"status" json:"status"`
	Output     string     `db:"output" json:"output,omitempty"`
	Notified   bool       `db:"notified" json:"-"`
	PaperID    *int64     `db:"paper_id" json:"paper_id,omitempty"`
	Progress   string     `db:"progress" json:"progress,omitempty"` // JSON, kind-specific
	CreatedAt  time.Time  `db:"created_at" json:"created_at"`
	StartedAt  *time.Time `db:"started_at" json:"started_at,omitempty"`
	FinishedAt *time.Time `db:"finished_at" json:"finished_at,omitempty"`
}

const backgroundColumns = `id, COALESCE(session_id, '') AS session_id, user_id, turn, kind, name, arguments,
	agent_name, status, output, notified, paper_id, progress, created_at, started_at, finished_at`

// CreateBackgroundTask stores a new task (its ID, session — "" for a
// paper job —, user, turn, kind, name, arguments, agent, paper and status
// must be set) and fills in its creation time. A second open job of the
// same kind for one paper fails with ErrConflict.
func (s *Store) CreateBackgroundTask(ctx context.Context, t *BackgroundTask) error {
	t.CreatedAt = s.Now()
	_, err := s.w.ExecContext(ctx, `INSERT INTO agent_background_tasks
		(id, session_id, user_id, turn, kind, name, arguments, agent_name, status, output, notified, paper_id, progress, created_at)
		VALUES (?, NULLIF(?, ''), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.SessionID, t.UserID, t.Turn, t.Kind, t.Name, t.Arguments, t.AgentName, t.Status, t.Output, t.Notified,
		t.PaperID, t.Progress, t.CreatedAt)
	if isUniqueViolation(err) {
		return fmt.Errorf("store: create background task: %w", ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("store: create background task: %w", err)
	}
	return nil
}

// SetBackgroundTaskStatus moves task id to status with output. Running
// sets the start time, a final status the finish time. A task already in a
// final status is left alone (its outcome is never overwritten), and the
// row as it stands afterwards is returned; ErrNotFound when there is none.
func (s *Store) SetBackgroundTaskStatus(ctx context.Context, id, status, output string) (BackgroundTask, error) {
	now := s.Now()
	var t BackgroundTask
	err := s.w.GetContext(ctx, &t, `UPDATE agent_background_tasks SET status = ?, output = ?,
		started_at  = CASE WHEN ? = 'running' THEN ? ELSE started_at END,
		finished_at = CASE WHEN ? NOT IN ('queued', 'running') THEN ? ELSE finished_at END
		WHERE id = ? AND status IN ('queued', 'running') RETURNING `+backgroundColumns,
		status, output, status, now, status, now, id)
	if err == nil {
		return t, nil
	}
	if cur, gerr := s.backgroundTask(ctx, id); gerr == nil {
		return cur, nil
	}
	return BackgroundTask{}, notFound(err, fmt.Sprintf("background task %q", id))
}

func (s *Store) backgroundTask(ctx context.Context, id string) (BackgroundTask, error) {
	var t BackgroundTask
	err := s.w.GetContext(ctx, &t, `SELECT `+backgroundColumns+` FROM agent_background_tasks WHERE id = ?`, id)
	return t, err
}

// BackgroundTask returns task id of the session; ErrNotFound otherwise.
func (s *Store) BackgroundTask(ctx context.Context, sessionID, id string) (BackgroundTask, error) {
	var t BackgroundTask
	err := s.r.GetContext(ctx, &t, `SELECT `+backgroundColumns+` FROM agent_background_tasks
		WHERE id = ? AND session_id = ?`, id, sessionID)
	if err != nil {
		return BackgroundTask{}, notFound(err, fmt.Sprintf("background task %q", id))
	}
	return t, nil
}

// BackgroundTasks returns the session's tasks of kind ("" = all), oldest
// first.
func (s *Store) BackgroundTasks(ctx context.Context, sessionID, kind string) ([]BackgroundTask, error) {
	out := []BackgroundTask{}
	err := s.r.SelectContext(ctx, &out, `SELECT `+backgroundColumns+` FROM agent_background_tasks
		WHERE session_id = ? AND (? = '' OR kind = ?) ORDER BY created_at, rowid`, sessionID, kind, kind)
	if err != nil {
		return nil, fmt.Errorf("store: background tasks: %w", err)
	}
	return out, nil
}

// HasBackgroundNotifications reports whether the session has finished
// tasks not yet notified: a read, so the common "nothing new" case before
// each model call never takes the write lock.
func (s *Store) HasBackgroundNotifications(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := s.r.GetContext(ctx, &n, `SELECT EXISTS (SELECT 1 FROM agent_background_tasks
		WHERE session_id = ? AND notified = 0 AND status NOT IN ('queued', 'running'))`, sessionID)
	if err != nil {
		return false, fmt.Errorf("store: background notifications: %w", err)
	}
	return n == 1, nil
}

// ClaimBackgroundNotifications marks the session's finished, not yet
// notified tasks as notified and returns them, oldest first. Each finished
// task is returned by exactly one call (C6: drained once).
func (s *Store) ClaimBackgroundNotifications(ctx context.Context, sessionID string) ([]BackgroundTask, error) {
	out := []BackgroundTask{}
	err := s.w.SelectContext(ctx, &out, `UPDATE agent_background_tasks SET notified = 1
		WHERE session_id = ? AND notified = 0 AND status NOT IN ('queued', 'running')
		RETURNING `+backgroundColumns, sessionID)
	if err != nil {
		return nil, fmt.Errorf("store: claim background notifications: %w", err)
	}
	slices.SortFunc(out, func(a, b BackgroundTask) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

// InterruptBackgroundTasks marks every queued or running task interrupted
// with output (after a restart) and returns them.
func (s *Store) InterruptBackgroundTasks(ctx context.Context, output string) ([]BackgroundTask, error) {
	out := []BackgroundTask{}
	err := s.w.SelectContext(ctx, &out, `UPDATE agent_background_tasks SET status = 'interrupted', output = ?, finished_at = ?
		WHERE status IN ('queued', 'running') RETURNING `+backgroundColumns, output, s.Now())
	if err != nil {
		return nil, fmt.Errorf("store: interrupt background tasks: %w", err)
	}
	slices.SortFunc(out, func(a, b BackgroundTask) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}
