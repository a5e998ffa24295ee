package agent

import (
	"context"

	"github.com/astroresearch/astroresearch/agent/tools/self"
)

// tasksBlock renders the session's unfinished task list as the
// "[current tasks]" block restored into a new turn's context (docs/features.md C2).
// It returns "" when there is nothing left to do.
func (t *turnRun) tasksBlock(ctx context.Context) (string, error) {
	tasks, err := t.r.d.Store.AgentTasks(ctx, t.session.ID)
	if err != nil {
		return "", err
	}
	open := false
	for _, task := range tasks {
		if task.Status != "completed" {
			open = true
		}
	}
	if !open {
		return "", nil
	}
	return "[current tasks]\n" + self.Render(tasks), nil
}
