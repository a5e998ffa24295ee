package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// turnKey carries the running turn in a tool call's context, for the
// orchestration tools that start work on its behalf.
type turnKey struct{}

// withTurn returns ctx carrying t.
func withTurn(ctx context.Context, t *turnRun) context.Context {
	return context.WithValue(ctx, turnKey{}, t)
}

// turnFrom returns the turn running the tool call of ctx; nil outside one.
func turnFrom(ctx context.Context) *turnRun {
	t, _ := ctx.Value(turnKey{}).(*turnRun)
	return t
}

// errNoTurn is the tool result of an orchestration tool called outside a
// turn (a background run); it cannot happen through the executor.
var errNoTurn = errors.New("this tool only runs inside an agent turn")

// BgRunArgs are bg_task_run's arguments.
type BgRunArgs struct {
	Tool      string          `json:"tool" enum:"download_paper,parse_paper" desc:"The tool to run in the background"`
	Arguments json.RawMessage `json:"arguments" desc:"The tool's arguments, exactly as you would pass them to it"`
}

// bgTaskRun returns bg_task_run (T22): it validates the inner call, checks
// its permission and starts it in the background pool.
func bgTaskRun() tools.Tool {
	return tools.New("bg_task_run",
		"Start a download_paper or parse_paper call in the background and get a task id at once. "+
			"Keep working meanwhile: the result is delivered to you automatically as a "+
			"\"[background task done]\" message before your next step after it finishes; bg_task_check shows the state.",
		func(ctx context.Context, tc *tools.Context, a BgRunArgs) (tools.Result, error) {
			t := turnFrom(ctx)
			if t == nil {
				return tools.Result{}, errNoTurn
			}
			tool, ok := t.registry.Get(a.Tool)
			if !ok || !backgroundAllowed(a.Tool) {
				return tools.Errorf("%s cannot run in the background here; available: %s.", a.Tool,
					strings.Join(backgroundNames(t.registry), ", ")), nil
			}
			args := a.Arguments
			if len(strings.TrimSpace(string(args))) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			if err := validateArgs(tool, args); err != nil {
				return tools.Errorf("Invalid arguments for %s: %v", a.Tool, err), nil
			}
			// The inner call passes the same PreToolUse hooks and permission
			// check as a direct one (R13, R15).
			in := t.hookInput(HookPreToolUse)
			in.Tool, in.ToolCallID, in.Arguments = a.Tool, tc.ToolCallID, args
			d := t.hooks().Run(ctx, in)
			if d.Block {
				return tools.Errorf("%s was blocked: %s.", a.Tool, strings.TrimSuffix(orDefault(d.Reason, "a hook refused it"), ".")), nil
			}
			if len(d.MutatedInput) > 0 {
				if err := validateArgs(tool, d.MutatedInput); err != nil {
					return tools.Errorf("A hook rewrote the arguments of %s into invalid ones: %v", a.Tool, err), nil
				}
				args = d.MutatedInput
			}
			decision, reason, err := t.r.d.Perms.Check(ctx, t.userID, tool, tc, args, d.PermissionRequired)
			if err != nil {
				return tools.Result{}, err
			}
			switch decision {
			case tools.DecisionDeny:
				return tools.Errorf("Permission denied for %s: %s. Do not retry it.", a.Tool, reason), nil
			case tools.DecisionAsk:
				return tools.Errorf("%s needs the user's approval (%s); call it directly instead of in the background.", a.Tool, reason), nil
			}
			task, err := t.r.startBackground(ctx, t, tool, args)
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Result{
				Output: fmt.Sprintf("Started background task %s (%s). Its result will be delivered to you when it finishes; "+
					"continue with other work.", task.ID, task.Name),
				Metadata: map[string]any{"task_id": task.ID, "tool": task.Name},
			}, nil
		},
		tools.WithDeferred(), tools.AlwaysConcurrencySafe(),
		tools.WithSummary("Run download_paper or parse_paper in the background; returns a task id at once."),
	)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// backgroundNames lists the allowed tools registered in reg.
func backgroundNames(reg *tools.Registry) []string {
	var out []string
	for _, n := range reg.Names() {
		if backgroundAllowed(n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []string{"none"}
	}
	return out
}

// BgCheckArgs are bg_task_check's arguments.
type BgCheckArgs struct {
	TaskID string `json:"task_id,omitempty" desc:"A task id from bg_task_run; omit to list every background task of this session" maxLength:"64"`
}

// bgTaskCheck returns bg_task_check (T23): one task in detail, or the
// session's tasks.
func bgTaskCheck() tools.Tool {
	return tools.New("bg_task_check",
		"List this session's background tasks with their state, or show one task's result.",
		func(ctx context.Context, tc *tools.Context, a BgCheckArgs) (tools.Result, error) {
			st := turnStore(ctx)
			if st == nil {
				return tools.Result{}, errNoTurn
			}
			if a.TaskID != "" {
				task, err := st.BackgroundTask(ctx, tc.SessionID, a.TaskID)
				if errors.Is(err, store.ErrNotFound) {
					return tools.Errorf("There is no background task %q in this session.", a.TaskID), nil
				}
				if err != nil {
					return tools.Result{}, err
				}
				return tools.Result{Output: describeTask(task, 4000), Metadata: map[string]any{"task": task}}, nil
			}
			list, err := st.BackgroundTasks(ctx, tc.SessionID, store.BackgroundTool)
			if err != nil {
				return tools.Result{}, err
			}
			if len(list) == 0 {
				return tools.Result{Output: "No background tasks in this session."}, nil
			}
			var b strings.Builder
			for _, task := range list {
				b.WriteString(describeTask(task, 200))
				b.WriteString("\n")
			}
			return tools.Result{Output: strings.TrimSpace(b.String())}, nil
		},
		tools.WithDeferred(), tools.WithReadOnly(), tools.AlwaysConcurrencySafe(),
	)
}

// turnStore is the store of the turn running the call of ctx.
func turnStore(ctx context.Context) *store.Store {
	if t := turnFrom(ctx); t != nil {
		return t.r.d.Store
	}
	return nil
}

// describeTask is one task as the model reads it.
func describeTask(task store.BackgroundTask, outputChars int) string {
	s := fmt.Sprintf("%s %s %s: %s", task.ID, task.Name, textcut.Prefix(task.Arguments, 200), task.Status)
	if out := strings.TrimSpace(task.Output); out != "" {
		s += " — " + textcut.Prefix(out, outputChars)
	}
	return s
}
