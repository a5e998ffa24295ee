package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// The coordinator's four tools (T25). They find the turn's coordinator
// through the call's context.

const coordinatorPrompt = `Coordinator mode: you do not research yourself. Split the question into independent tasks
(for example one per topic, object or paper set) and hand each to a worker with delegate_task; workers run in parallel.
Wait for them with check_task (use wait_seconds), stop a worker that is no longer needed with task_stop, then call
synthesize to merge their reports into one cited answer, and give that answer to the user.`

// coordinatorFrom returns the coordinator of the call's turn.
func coordinatorFrom(ctx context.Context) (*turnRun, *coordinator, error) {
	t := turnFrom(ctx)
	if t == nil || t.coord == nil {
		return nil, nil, errors.New("this tool only runs in a coordinator turn")
	}
	return t, t.coord, nil
}

// DelegateArgs are delegate_task's arguments.
type DelegateArgs struct {
	Title string `json:"title" desc:"A short name for the task, shown to the user" minLength:"1" maxLength:"120"`
	Task  string `json:"task" desc:"The task, complete in itself: the worker sees nothing of this conversation" minLength:"1" maxLength:"20000"`
	Tools string `json:"tools,omitempty" enum:"read_only,all" desc:"read_only (default): tools that change nothing; all: every tool"`
}

func delegateTask() tools.Tool {
	return tools.New("delegate_task",
		"Hand one self-contained task to a worker (a sub-agent with a fresh context). Returns the worker id at once; "+
			"the worker waits for a free slot, then runs. Delegate independent tasks in one step so they run in parallel.",
		func(ctx context.Context, tc *tools.Context, a DelegateArgs) (tools.Result, error) {
			_, c, err := coordinatorFrom(ctx)
			if err != nil {
				return tools.Result{}, err
			}
			w, err := c.delegate(ctx, strings.TrimSpace(a.Title), a.Task, a.Tools != "all")
			if err != nil {
				return tools.Errorf("The task was not delegated: %v.", err), nil
			}
			return tools.Result{Output: fmt.Sprintf("Delegated %q to worker %s. Check on it with check_task.", w.title, w.id),
				Metadata: map[string]any{"worker_id": w.id, "agent_name": w.agent}}, nil
		},
		tools.AlwaysConcurrencySafe(),
	)
}

// CheckArgs are check_task's arguments.
type CheckArgs struct {
	TaskID      string `json:"task_id,omitempty" desc:"A worker id; omit for every worker" maxLength:"64"`
	WaitSeconds int    `json:"wait_seconds,omitempty" min:"0" max:"600" desc:"Wait up to this long for the unfinished workers to finish (returns as soon as they all have)"`
}

func checkTask() tools.Tool {
	return tools.New("check_task",
		"Show the workers' state (queued, running, done, failed, timeout, cancelled) with the first line of each finished "+
			"worker's conclusion, or one worker's full report (task_id); optionally wait for the unfinished ones first.",
		func(ctx context.Context, tc *tools.Context, a CheckArgs) (tools.Result, error) {
			_, c, err := coordinatorFrom(ctx)
			if err != nil {
				return tools.Result{}, err
			}
			if a.WaitSeconds > 0 {
				c.wait(ctx, time.Duration(a.WaitSeconds)*time.Second)
			}
			var b strings.Builder
			n := 0
			for _, w := range c.snapshot() {
				if a.TaskID != "" && w.id != a.TaskID {
					continue
				}
				n++
				fmt.Fprintf(&b, "%s %q: %s", w.id, w.title, w.status)
				switch {
				case !store.TaskFinal(w.status):
				case a.TaskID != "":
					// One worker: its whole activity log and conclusion.
					fmt.Fprintf(&b, "\n%s", textcut.Prefix(w.result.Text(), 3500))
				default:
					if line := summaryLine(w.result); line != "" {
						b.WriteString(" — " + line)
					}
				}
				b.WriteString("\n")
			}
			if n == 0 {
				if a.TaskID != "" {
					return tools.Errorf("There is no worker %q in this turn.", a.TaskID), nil
				}
				return tools.Result{Output: "No tasks delegated yet."}, nil
			}
			return tools.Result{Output: strings.TrimSpace(b.String())}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithInteractive(),
	)
}

// StopArgs are task_stop's arguments.
type StopArgs struct {
	TaskID string `json:"task_id" desc:"The worker to stop" minLength:"1" maxLength:"64"`
}

func taskStop() tools.Tool {
	return tools.New("task_stop",
		"Stop a worker that is queued or running; what it found so far is kept.",
		func(ctx context.Context, tc *tools.Context, a StopArgs) (tools.Result, error) {
			_, c, err := coordinatorFrom(ctx)
			if err != nil {
				return tools.Result{}, err
			}
			stopped, err := c.stop(a.TaskID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return tools.Errorf("There is no worker %q in this turn.", a.TaskID), nil
			case !stopped:
				return tools.Errorf("Worker %s has already finished.", a.TaskID), nil
			}
			return tools.Result{Output: fmt.Sprintf("Stopping worker %s.", a.TaskID)}, nil
		},
		tools.AlwaysConcurrencySafe(),
	)
}

// SynthesizeArgs are synthesize's arguments.
type SynthesizeArgs struct {
	Instructions string `json:"instructions,omitempty" desc:"How to shape the answer (focus, length, structure)" maxLength:"4000"`
}

const synthesizePrompt = `You merge the reports of research workers into one answer to the user's question.
Use only what the reports say. Keep every source citation they give (bibcode, arXiv id or DOI) next to the claim it
supports, and mark each claim with the worker it came from, like [w_1a2b]. Where reports disagree, say so.
Say which tasks failed or did not finish. Write mathematics in LaTeX.`

func synthesize() tools.Tool {
	return tools.New("synthesize",
		"Merge the finished workers' reports into one cited answer (it waits for nothing: check_task first).",
		func(ctx context.Context, tc *tools.Context, a SynthesizeArgs) (tools.Result, error) {
			t, c, err := coordinatorFrom(ctx)
			if err != nil {
				return tools.Result{}, err
			}
			reports, used := synthesisInput(c.snapshot())
			if used == 0 {
				return tools.Errorf("No worker has finished yet: wait with check_task before synthesizing."), nil
			}
			prompt := "Question: " + t.question + "\n\n" + reports
			if a.Instructions != "" {
				prompt += "\n\nInstructions: " + a.Instructions
			}
			tc.Report(fmt.Sprintf("merging %s", plural(used, "report")))
			resp, err := t.r.d.Model.Stream(ctx, llm.Request{Messages: []llm.Message{
				{Role: llm.RoleSystem, Content: synthesizePrompt}, {Role: llm.RoleUser, Content: prompt}}}, func(llm.Delta) {})
			if err != nil {
				return tools.Result{}, fmt.Errorf("the synthesis model call failed: %w", err)
			}
			return tools.Result{Output: resp.Message.Content, Metadata: map[string]any{"reports": used}}, nil
		},
		tools.WithReadOnly(),
	)
}

// synthesisInput renders the workers' results for the synthesis call and
// counts those with a conclusion.
func synthesisInput(ws []worker) (string, int) {
	var b strings.Builder
	used := 0
	for _, w := range ws {
		fmt.Fprintf(&b, "## Worker %s — %s (%s)\n", w.id, w.title, w.status)
		switch {
		case !store.TaskFinal(w.status):
			b.WriteString("Not finished; its result is not available.\n\n")
		default:
			if strings.TrimSpace(w.result.answer) != "" {
				used++
			}
			b.WriteString(textcut.Prefix(w.result.Text(), 6000))
			b.WriteString("\n\n")
		}
	}
	return strings.TrimSpace(b.String()), used
}
