package handlers

import (
	"fmt"
	"path"

	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/views"
)

// The timeline ops of the orchestration events (docs/features.md T21–T25): a
// background task card updated in place, a sub-agent's nested group, and
// the coordinator's worker list.

// orchestration returns the ops of a background_task, subagent or worker
// event.
func (t *timeline) orchestration(e agent.Event) ([]timelineOp, error) {
	switch e.Kind {
	case agent.KindBackgroundTask:
		var d agent.BackgroundTaskData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		card := &views.BackgroundTaskCard{ID: "bgtask-" + domSafe(d.TaskID), TaskID: d.TaskID, Tool: d.Tool,
			Status: d.Status, Progress: d.Progress, Output: d.Output, IsError: d.IsError}
		return []timelineOp{t.addOrReplace(t.bgSeen, card)}, nil
	case agent.KindSubagent:
		var d agent.SubagentData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		id := "sub-" + domSafe(d.Agent)
		st := views.SubagentStatus{Status: d.Status, Steps: d.Steps, Result: d.Result}
		if _, open := t.groups[d.Agent]; open || d.Status != "running" {
			if !open {
				return nil, nil // the end of a group this stream never opened
			}
			return []timelineOp{{kind: opGroupStatus, owner: id, status: st}}, nil
		}
		g := &views.SubagentGroup{ID: id, Agent: d.Agent, Task: d.Task, Worker: d.WorkerID, Status: st}
		t.groups[d.Agent] = g.ItemsID()
		return []timelineOp{{kind: opAdd, item: g}}, nil
	case agent.KindWorker:
		var d agent.WorkerData
		if err := e.Decode(&d); err != nil {
			return nil, err
		}
		row := &views.WorkerRow{ID: "worker-" + domSafe(d.WorkerID), WorkerID: d.WorkerID, Agent: d.Agent,
			Title: d.Title, Status: d.Status, Summary: d.Summary}
		if t.workerList == "" {
			list := &views.WorkerList{ID: fmt.Sprintf("workers-%d-%d", e.Turn, e.Seq), Rows: []*views.WorkerRow{row}}
			t.workerList = list.ID
			t.workerRows[row.ID] = true
			return []timelineOp{{kind: opAdd, item: list}}, nil
		}
		if t.workerRows[row.ID] {
			return []timelineOp{{kind: opReplace, item: row}}, nil
		}
		t.workerRows[row.ID] = true
		return []timelineOp{{kind: opAdd, item: row, parent: views.WorkerRowsDOMID(t.workerList)}}, nil
	}
	return nil, nil
}

// addOrReplace adds item the first time its id is seen, then replaces it.
func (t *timeline) addOrReplace(seen map[string]bool, item views.TimelineItem) timelineOp {
	if seen[item.DOMID()] {
		return timelineOp{kind: opReplace, item: item}
	}
	seen[item.DOMID()] = true
	return timelineOp{kind: opAdd, item: item}
}

// teammateLink links a spawn_teammate card to the teammate's session.
func (t *timeline) teammateLink(d agent.ToolResultData) views.Link {
	if d.Name != "spawn_teammate" || d.IsError {
		return views.Link{}
	}
	id, _ := d.Metadata["session_id"].(string)
	name, _ := d.Metadata["teammate"].(string)
	if id == "" || domSafe(id) != id {
		return views.Link{}
	}
	return views.Link{Href: path.Dir(t.base) + "/" + id, Text: "Open " + name + "'s session"}
}
