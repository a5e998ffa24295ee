package store

import (
	"context"
	"fmt"
)

// Jobs are the rows of agent_background_tasks seen from the person who
// started them: the agent's background tasks and the downloads and parses
// started from paper pages, one list per user (docs/features.md L7).

// SetJobProgress records a running job's progress (kind-specific JSON).
// A job no longer running is left alone.
func (s *Store) SetJobProgress(ctx context.Context, id, progress string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE agent_background_tasks SET progress = ?
		WHERE id = ? AND status IN ('queued', 'running')`, progress, id)
	if err != nil {
		return fmt.Errorf("store: job %q progress: %w", id, err)
	}
	return nil
}

// OpenPaperJob returns the queued or running job of kind for paperID;
// ErrNotFound when there is none.
func (s *Store) OpenPaperJob(ctx context.Context, paperID int64, kind string) (BackgroundTask, error) {
	var t BackgroundTask
	err := s.r.GetContext(ctx, &t, `SELECT `+backgroundColumns+` FROM agent_background_tasks
		WHERE paper_id = ? AND kind = ? AND status IN ('queued', 'running')`, paperID, kind)
	if err != nil {
		return BackgroundTask{}, notFound(err, fmt.Sprintf("open %s job of paper %d", kind, paperID))
	}
	return t, nil
}

// UserJobs returns the user's jobs of every kind, newest first, at most
// limit.
func (s *Store) UserJobs(ctx context.Context, userID int64, limit int) ([]BackgroundTask, error) {
	out := []BackgroundTask{}
	err := s.r.SelectContext(ctx, &out, `SELECT `+backgroundColumns+` FROM agent_background_tasks
		WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: jobs of user %d: %w", userID, err)
	}
	return out, nil
}

// UserJob returns job id if it belongs to userID; ErrNotFound otherwise.
func (s *Store) UserJob(ctx context.Context, userID int64, id string) (BackgroundTask, error) {
	var t BackgroundTask
	err := s.r.GetContext(ctx, &t, `SELECT `+backgroundColumns+` FROM agent_background_tasks
		WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return BackgroundTask{}, notFound(err, fmt.Sprintf("job %q", id))
	}
	return t, nil
}
