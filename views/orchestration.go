package views

import "fmt"

// Timeline items of the orchestration features (docs/features.md T21–T25): background
// tasks, nested sub-agent groups and the coordinator's worker list.

// BackgroundTaskCard is a bg_task_run task (T22); it is updated in place as
// the task runs and finishes, also after the turn that started it.
type BackgroundTaskCard struct {
	ID       string
	TaskID   string
	Tool     string
	Status   string // queued, running, done, failed, timeout, cancelled, interrupted
	Progress string
	Output   string
	IsError  bool
}

// DOMID implements TimelineItem.
func (b *BackgroundTaskCard) DOMID() string { return b.ID }

// SubagentGroup is a sub-agent's work (T21), nested in the timeline of the
// agent that started it and collapsible. Items are its own timeline items.
type SubagentGroup struct {
	ID     string
	Agent  string // sub_<id>
	Task   string
	Worker string // the coordinator worker id, if it is one
	Items  []TimelineItem
	Status SubagentStatus
}

// SubagentStatus is where a sub-agent stands: running, done, failed,
// timeout, cancelled or interrupted, and what it returned.
type SubagentStatus struct {
	Status string
	Steps  int
	Result string
}

// DOMID implements TimelineItem.
func (g *SubagentGroup) DOMID() string { return g.ID }

// ItemsID is the id of the element holding the group's items.
func (g *SubagentGroup) ItemsID() string { return SubagentItemsDOMID(g.ID) }

// SubagentItemsDOMID is the id of group's items element.
func SubagentItemsDOMID(group string) string { return group + "-items" }

func subagentBadgeID(group string) string   { return group + "-badge" }
func subagentOutcomeID(group string) string { return group + "-outcome" }

// WorkerList is the coordinator's workers of one turn (T25), each row
// updated live as the worker is queued, runs and finishes.
type WorkerList struct {
	ID   string
	Rows []*WorkerRow
}

// DOMID implements TimelineItem.
func (w *WorkerList) DOMID() string { return w.ID }

// RowsID is the id of the list element holding the rows.
func (w *WorkerList) RowsID() string { return WorkerRowsDOMID(w.ID) }

// WorkerRowsDOMID is the id of the rows element of worker list id.
func WorkerRowsDOMID(list string) string { return list + "-rows" }

// WorkerRow is one worker in the list.
type WorkerRow struct {
	ID       string
	WorkerID string
	Agent    string
	Title    string
	Status   string
	Summary  string
}

// DOMID implements TimelineItem.
func (w *WorkerRow) DOMID() string { return w.ID }

// taskStatusText is a task or sub-agent status in words.
func taskStatusText(status string) string {
	switch status {
	case "queued":
		return "waiting for a slot"
	case "running":
		return "running…"
	case "done":
		return "done"
	case "failed":
		return "failed"
	case "timeout":
		return "timed out"
	case "cancelled":
		return "stopped"
	case "interrupted":
		return "interrupted by a server restart"
	}
	return status
}

func stepsText(steps int) string {
	if steps <= 0 {
		return ""
	}
	return fmt.Sprintf(" in %s", plural(steps, "step", "steps"))
}
