// Package self holds the agent's self-management tools (docs/features.md T15, T19):
// its task list and asking the user.
package self

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// TodoArgs are todo_write's arguments: the whole task list, replacing the
// previous one.
type TodoArgs struct {
	Todos []TodoItem `json:"todos" desc:"The complete task list, in order. It replaces the previous list."`
}

// TodoItem is one task.
type TodoItem struct {
	ID        string   `json:"id" desc:"Short stable identifier, e.g. t1" maxLength:"40"`
	Subject   string   `json:"subject" desc:"What the task is, in a few words" maxLength:"300"`
	Status    string   `json:"status" enum:"pending,in_progress,completed"`
	BlockedBy []string `json:"blocked_by,omitempty" desc:"Ids of tasks that must be completed first"`
}

// maxTodos bounds the list.
const maxTodos = 50

// TodoWrite returns the todo_write tool, persisting to agent_tasks.
func TodoWrite(st *store.Store) tools.Tool {
	return tools.New("todo_write",
		"Record the task list for work that needs several steps: each task pending, in_progress or completed, "+
			"with optional blocked_by dependencies. Send the whole list every time. At most one task may be "+
			"in_progress, and only once every task it is blocked by is completed.",
		func(ctx context.Context, tc *tools.Context, args TodoArgs) (tools.Result, error) {
			tasks, problem := checkTodos(args.Todos)
			if problem != "" {
				return tools.Errorf("The task list was not saved: %s.", problem), nil
			}
			if err := st.ReplaceAgentTasks(ctx, tc.SessionID, tasks); err != nil {
				return tools.Result{}, err
			}
			done := 0
			for _, t := range tasks {
				if t.Status == "completed" {
					done++
				}
			}
			return tools.Result{
				Output:   fmt.Sprintf("Task list saved (%d of %d completed):\n%s", done, len(tasks), Render(tasks)),
				Metadata: map[string]any{"tasks": tasks},
			}, nil
		},
		tools.WithInterrupt(tools.Block),
	)
}

// checkTodos validates the list (unique ids, known blockers, no cycles, at
// most one in_progress and never ahead of its blockers) and converts it.
func checkTodos(items []TodoItem) ([]store.AgentTask, string) {
	if len(items) > maxTodos {
		return nil, fmt.Sprintf("at most %d tasks are allowed", maxTodos)
	}
	byID := map[string]TodoItem{}
	inProgress := 0
	for _, it := range items {
		if strings.TrimSpace(it.ID) == "" || strings.TrimSpace(it.Subject) == "" {
			return nil, "every task needs an id and a subject"
		}
		if _, dup := byID[it.ID]; dup {
			return nil, fmt.Sprintf("the id %q is used twice", it.ID)
		}
		byID[it.ID] = it
		if it.Status == "in_progress" {
			inProgress++
		}
	}
	if inProgress > 1 {
		return nil, "only one task may be in_progress at a time"
	}
	for _, it := range items {
		for _, b := range it.BlockedBy {
			blocker, ok := byID[b]
			switch {
			case !ok:
				return nil, fmt.Sprintf("task %q is blocked by %q, which is not in the list", it.ID, b)
			case b == it.ID:
				return nil, fmt.Sprintf("task %q cannot block itself", it.ID)
			case it.Status != "pending" && blocker.Status != "completed":
				return nil, fmt.Sprintf("task %q is %s but its blocker %q is not completed", it.ID, it.Status, b)
			}
		}
	}
	if cycle := findCycle(items); cycle != "" {
		return nil, "the blocked_by dependencies form a cycle: " + cycle
	}
	out := make([]store.AgentTask, len(items))
	for i, it := range items {
		out[i] = store.AgentTask{TaskID: it.ID, Subject: strings.TrimSpace(it.Subject), Status: it.Status, BlockedBy: it.BlockedBy}
	}
	return out, ""
}

// findCycle returns a cycle in the blocked_by graph as "a → b → a", or "".
func findCycle(items []TodoItem) string {
	deps := map[string][]string{}
	for _, it := range items {
		deps[it.ID] = it.BlockedBy
	}
	const (
		unseen = iota
		active
		finished
	)
	state := map[string]int{}
	var path []string
	var visit func(id string) string
	visit = func(id string) string {
		state[id] = active
		path = append(path, id)
		for _, d := range deps[id] {
			switch state[d] {
			case active:
				i := 0
				for path[i] != d {
					i++
				}
				return strings.Join(append(append([]string{}, path[i:]...), d), " → ")
			case unseen:
				if c := visit(d); c != "" {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[id] = finished
		return ""
	}
	for _, it := range items {
		if state[it.ID] == unseen {
			if c := visit(it.ID); c != "" {
				return c
			}
		}
	}
	return ""
}

// Render formats a task list one line per task:
// "- [x] t1: subject (blocked by t0)"; [>] marks the task in progress.
func Render(tasks []store.AgentTask) string {
	var b strings.Builder
	for _, task := range tasks {
		mark := " "
		switch task.Status {
		case "completed":
			mark = "x"
		case "in_progress":
			mark = ">"
		}
		fmt.Fprintf(&b, "- [%s] %s: %s", mark, task.TaskID, task.Subject)
		if len(task.BlockedBy) > 0 {
			fmt.Fprintf(&b, " (blocked by %s)", strings.Join(task.BlockedBy, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
