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

// Sub-agents (docs/features.md T21): a child run with an isolated context — [system,
// task], none of the parent's conversation — the same hooks, permission
// checker and event log as its parent, its own duplicate detector,
// compaction breaker and step limit, and a forced final answer at the
// limit. Its messages are persisted as agent_name "sub_<id>" (never loaded
// into the lead's context) and its events carry that name, so the
// timeline nests them in a group under the parent. It returns its activity
// log and conclusion.

// Step limits of a sub-agent.
const (
	SubagentDefaultSteps = 5
	SubagentMaxSteps     = 10
)

// subagentSpec describes a child run.
type subagentSpec struct {
	task     string
	readOnly bool   // read-only tools only, else the parent's tool set
	maxSteps int    // 0 = SubagentDefaultSteps
	guide    string // extra instructions for its system prompt (a skill, a worker's role)
	name     string // "" = a new sub_<id>
	workerID string // set for coordinator workers
}

// subagentResult is what a child run came to.
type subagentResult struct {
	agent    string
	status   string // done, failed, timeout, cancelled, interrupted
	steps    int
	answer   string
	activity []string
	err      error
}

// Text is the result as the parent's model reads it: the activity log,
// then the conclusion.
func (r subagentResult) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Sub-agent %s (%s, %s).\n", r.agent, r.status, plural(r.steps, "step"))
	if len(r.activity) > 0 {
		b.WriteString("Activity:\n")
		for _, a := range r.activity {
			b.WriteString("- " + a + "\n")
		}
	}
	b.WriteString("Conclusion: ")
	switch {
	case strings.TrimSpace(r.answer) != "":
		b.WriteString(strings.TrimSpace(r.answer))
	case r.err != nil:
		b.WriteString("none — " + r.err.Error())
	default:
		b.WriteString("none — it stopped before concluding.")
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

const subagentPrompt = `You are a sub-agent of AstroResearch, an astrophysics research assistant. The lead agent gave you one task.
Work on it with your tools, then reply with a concise conclusion: what you found, with sources (bibcode, arXiv id or DOI)
for every claim, and what remains uncertain. You cannot ask the user questions. You have at most %d steps.`

// orchestrationTool reports whether name is a tool that starts or steers
// other agents; sub-agents never get these (no nesting).
func orchestrationTool(name string) bool {
	switch name {
	case "subagent", "bg_task_run", "bg_task_check", "delegate_task", "check_task", "task_stop", "synthesize",
		"spawn_teammate", "send_teammate_message", "team_broadcast", "check_team_inbox":
		return true
	}
	return false
}

// childRegistry is a sub-agent's tool set: the configured tools (or only
// the read-only ones) without orchestration, ask_user and todo_write (the
// session's task list is the lead's).
func (t *turnRun) childRegistry(readOnly bool) *tools.Registry {
	return t.r.d.Registry().Filtered(func(tool tools.Tool) bool {
		name, caps := tool.Name(), tools.Caps(tool)
		switch {
		case name == tools.LoadToolName:
			return true
		case orchestrationTool(name) || caps.Interactive || name == "todo_write":
			return false
		case readOnly:
			return caps.ReadOnly
		}
		return true
	})
}

// runSubagent runs a child to completion. ctx bounds it: the parent's stop
// stops it. It never fails: problems are in the result.
func (t *turnRun) runSubagent(ctx context.Context, spec subagentSpec) subagentResult {
	steps := spec.maxSteps
	if steps <= 0 {
		steps = SubagentDefaultSteps
	}
	steps = min(steps, SubagentMaxSteps)
	name := spec.name
	if name == "" {
		name = newTaskID("sub_")
	}
	c := &turnRun{r: t.r, userID: t.userID, session: t.session, turn: t.turn, question: spec.task, thinking: t.thinking,
		agent: name, registry: t.childRegistry(spec.readOnly), dups: &dupDetector{}, child: true, maxSteps: steps}
	defer t.r.forgetBreaker(c.breakerKey())
	system := fmt.Sprintf(subagentPrompt, steps) + "\n\n" + c.toolsSection()
	if spec.guide != "" {
		system += "\n\n" + spec.guide
	}
	task := llm.Message{Role: llm.RoleUser, Content: spec.task}
	c.msgs = []llm.Message{{Role: llm.RoleSystem, Content: system}, task}
	res := subagentResult{agent: name}
	if err := c.persist(ctx, 0, task); err != nil {
		res.status, res.err = store.TaskFailed, err
		return res
	}
	t.emit(ctx, KindSubagent, SubagentData{Agent: name, Parent: t.agent, Task: textcut.Ellipsize(spec.task, 300),
		Status: store.TaskRunning, WorkerID: spec.workerID})
	start := c.hookInput(HookSubagentStart)
	start.Message = spec.task
	t.hooks().Run(ctx, start)

	// A sub-agent bounds its own time (its tool is exempt from the tool
	// timeout because it may wait for the user's permission).
	runCtx, cancel := context.WithTimeout(ctx, time.Duration(steps+1)*t.r.cfg.ToolTimeout)
	defer cancel()
	_, err := c.loop(runCtx)
	res.steps, res.answer = c.steps, c.answer
	if len(c.msgs) > 2 {
		res.activity = activityLog(c.msgs[2:])
	}
	res.status = childStatus(ctx, runCtx, err, t.r.base)
	if err != nil && res.status == store.TaskFailed {
		res.err = errors.New(userMessage(err))
	}
	// The closing record outlives a cancelled parent, like persist: a
	// stopped sub-agent must still show as cancelled, not running.
	t.emit(context.WithoutCancel(ctx), KindSubagent, SubagentData{Agent: name, Parent: t.agent, Status: res.status, Steps: res.steps,
		Result: textcut.Prefix(res.Text(), t.r.Limits().MaxToolOutput), WorkerID: spec.workerID})
	stop := c.hookInput(HookSubagentStop)
	stop.Message, stop.Status = res.status, res.status
	t.hooks().Run(context.WithoutCancel(ctx), stop)
	return res
}

// childStatus names how a child run ended.
func childStatus(parent, run context.Context, err error, base context.Context) string {
	switch {
	case err == nil:
		return store.TaskDone
	case base.Err() != nil:
		return store.TaskInterrupted
	case parent.Err() != nil:
		return store.TaskCancelled
	case errors.Is(run.Err(), context.DeadlineExceeded):
		return store.TaskTimeout
	}
	return store.TaskFailed
}

// activityLog summarises a child's work: short thoughts, the tools it
// called and how each call went.
func activityLog(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				continue // the conclusion
			}
			if th := strings.TrimSpace(m.Content); th != "" {
				out = append(out, "thought: "+textcut.Ellipsize(strings.Join(strings.Fields(th), " "), 160))
			}
			for _, call := range m.ToolCalls {
				out = append(out, fmt.Sprintf("called %s %s", call.Name, textcut.Ellipsize(call.Arguments, 120)))
			}
		case llm.RoleTool:
			first, _, _ := strings.Cut(strings.TrimSpace(m.Content), "\n")
			out = append(out, fmt.Sprintf("%s → %s", m.Name, textcut.Ellipsize(first, 160)))
		}
	}
	return out
}

// toolsSection is the catalog of the child's loadable tools for its system
// prompt (its resident tools travel in the request's tools parameter).
func (t *turnRun) toolsSection() string { return catalogSection(t.registry) }

// SubagentArgs are the subagent tool's arguments.
type SubagentArgs struct {
	Task     string `json:"task" desc:"The task, complete in itself: the sub-agent sees nothing of this conversation" minLength:"1" maxLength:"20000"`
	Tools    string `json:"tools,omitempty" enum:"read_only,all" desc:"read_only (default): only tools that change nothing; all: your own tools"`
	MaxSteps int    `json:"max_steps,omitempty" min:"1" max:"10" desc:"Step limit (default 5)"`
}

// subagentTool returns the subagent tool (T21).
func subagentTool() tools.Tool {
	return tools.New("subagent",
		"Hand a self-contained task to a sub-agent with a fresh context (it does not see this conversation) and get back "+
			"its activity log and conclusion. Use it for focused research that would fill your context, e.g. surveying "+
			"the papers on one question. Several subagent calls in one step run in parallel.",
		func(ctx context.Context, tc *tools.Context, a SubagentArgs) (tools.Result, error) {
			t := turnFrom(ctx)
			if t == nil {
				return tools.Result{}, errNoTurn
			}
			res := t.runSubagent(ctx, subagentSpec{task: a.Task, readOnly: a.Tools != "all", maxSteps: a.MaxSteps})
			out := tools.Result{Output: res.Text(), IsError: res.status != store.TaskDone,
				Metadata: map[string]any{"agent_name": res.agent, "status": res.status, "steps": res.steps}}
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, nil
		},
		tools.AlwaysConcurrencySafe(), tools.WithInteractive(), tools.WithDeferred(),
	)
}
