package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
	"github.com/google/uuid"
)

// Background tasks (docs/features.md T22, T23, C6): bg_task_run hands a download or
// parse to a bounded pool and returns a task id at once. Every task is a
// row in agent_background_tasks, so a page reload shows it and a restart
// marks it interrupted instead of losing it. A finished task's result is
// drained into the lead's context before its next model call, once.

// backgroundAllowed reports whether bg_task_run may start the tool called
// name: download and parse work only (contract 5; the tool must also be
// registered, which the caller checks).
func backgroundAllowed(name string) bool { return name == "download_paper" || name == "parse_paper" }

// backgroundOutputChars bounds what is stored of a task's output.
const backgroundOutputChars = 20_000

// newTaskID returns a short, unique id with prefix.
func newTaskID(prefix string) string {
	return prefix + strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
}

// startBackground records a queued task for tool and starts it; the task
// outlives the turn and is bounded by the runtime's shutdown.
func (r *Runtime) startBackground(ctx context.Context, t *turnRun, tool tools.Tool, args json.RawMessage) (store.BackgroundTask, error) {
	task := store.BackgroundTask{ID: newTaskID("bg_"), SessionID: t.session.ID, UserID: t.userID, Turn: t.turn,
		Kind: store.BackgroundTool, Name: tool.Name(), Arguments: string(args), AgentName: t.agent, Status: store.TaskQueued}
	if err := r.d.Store.CreateBackgroundTask(context.WithoutCancel(ctx), &task); err != nil {
		return store.BackgroundTask{}, err
	}
	t.emit(ctx, KindBackgroundTask, BackgroundTaskData{TaskID: task.ID, Tool: task.Name, Status: task.Status})
	services, thinking := r.d.Services, t.thinking
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		r.runBackground(task, tool, args, services, thinking)
	}()
	return task, nil
}

// runBackground waits for a pool slot, runs the tool with the tool
// timeout and records the outcome. A server stop interrupts it.
func (r *Runtime) runBackground(task store.BackgroundTask, tool tools.Tool, args json.RawMessage, services any, thinking bool) {
	base := r.base
	select {
	case r.bgSlots <- struct{}{}:
	case <-base.Done():
		r.setBackground(task, store.TaskInterrupted, "The server stopped before this task started.", "")
		return
	}
	defer func() { <-r.bgSlots }()
	r.setBackground(task, store.TaskRunning, "", "")
	ctx, cancel := context.WithTimeout(base, r.cfg.ToolTimeout)
	defer cancel()
	tc := &tools.Context{Services: services, SessionID: task.SessionID, UserID: task.UserID, AgentName: task.AgentName,
		ToolCallID: task.ID, Silent: true, Thinking: thinking,
		Log:      r.d.Log.With("session", task.SessionID, "background_task", task.ID, "tool", task.Name),
		Progress: func(text string) { r.emitBackground(task, store.TaskRunning, text, "") },
	}
	start := time.Now()
	res, err := executeGuarded(ctx, tool, tc, args)
	status, output := store.TaskDone, res.Output
	switch {
	case err != nil && base.Err() != nil:
		status, output = store.TaskInterrupted, "The server stopped while this task was running."
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		status, output = store.TaskTimeout, fmt.Sprintf("%s timed out after %s and was stopped.", task.Name, r.cfg.ToolTimeout)
	case err != nil:
		status, output = store.TaskFailed, fmt.Sprintf("%s failed: %v", task.Name, err)
	case res.IsError:
		status = store.TaskFailed
	}
	r.setBackground(task, status, textcut.Prefix(output, backgroundOutputChars), "")
	// Audited like a direct call (PostToolUse / PostToolUseFailure).
	event := HookPostToolUse
	if status != store.TaskDone {
		event = HookPostToolUseFailure
	}
	r.d.Hooks.Run(context.WithoutCancel(base), HookInput{Event: event, SessionID: task.SessionID, UserID: task.UserID,
		Turn: task.Turn, Agent: task.AgentName, Tool: task.Name, ToolCallID: task.ID, Arguments: args, Output: output,
		IsError: status != store.TaskDone, Status: backgroundAuditStatus(status), ElapsedMS: time.Since(start).Milliseconds()})
}

// backgroundAuditStatus maps a task status to the audit log's statuses.
func backgroundAuditStatus(status string) string {
	switch status {
	case store.TaskDone:
		return "ok"
	case store.TaskFailed:
		return "error"
	}
	return status // timeout, cancelled, interrupted
}

// executeGuarded runs a tool, turning a panic into an error and giving up
// on a tool that ignores its context once ctx ends (its late result is
// dropped).
func executeGuarded(ctx context.Context, tool tools.Tool, tc *tools.Context, args json.RawMessage) (tools.Result, error) {
	done := goExecute(ctx, tool, tc, args, tc.Log)
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
		return tools.Result{}, ctx.Err()
	}
}

// toolOutcome is what a tool's Execute returned.
type toolOutcome struct {
	res tools.Result
	err error
}

// goExecute runs tool.Execute in a goroutine of its own and delivers its
// outcome on the returned channel (buffered: the goroutine never blocks,
// even when nobody waits any more). A panic is logged to log with its
// stack and delivered as an error.
func goExecute(ctx context.Context, tool tools.Tool, tc *tools.Context, args json.RawMessage, log *slog.Logger) <-chan toolOutcome {
	done := make(chan toolOutcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				log.Error("tool panicked", "tool", tool.Name(), "panic", p, "stack", string(debug.Stack()))
				done <- toolOutcome{err: fmt.Errorf("the tool crashed (%v)", p)}
			}
		}()
		res, err := tool.Execute(ctx, tc, args)
		done <- toolOutcome{res, err}
	}()
	return done
}

// setBackground records a status change and reports it on the timeline.
func (r *Runtime) setBackground(task store.BackgroundTask, status, output, progress string) {
	ctx := context.WithoutCancel(r.base)
	row, err := r.d.Store.SetBackgroundTaskStatus(ctx, task.ID, status, output)
	if err != nil {
		r.d.Log.Error("recording a background task failed", "task", task.ID, "err", err)
		return
	}
	if row.Status != status {
		return // it had already finished (e.g. marked interrupted)
	}
	r.emitBackground(row, status, progress, output)
}

// emitBackground appends a background_task event to the session, in its
// latest turn (the task may finish after the turn that started it).
func (r *Runtime) emitBackground(task store.BackgroundTask, status, progress, output string) {
	data := BackgroundTaskData{TaskID: task.ID, Tool: task.Name, Status: status, Progress: progress,
		Output: textcut.Prefix(output, r.Limits().MaxToolOutput), IsError: isFailure(status)}
	r.emitLatest(task.SessionID, task.UserID, task.AgentName, KindBackgroundTask, data)
}

// emitLatest appends an event outside any running turn code path, tagged
// with the session's latest turn.
func (r *Runtime) emitLatest(session string, userID int64, agentName string, kind Kind, payload any) {
	ctx := context.WithoutCancel(r.base)
	sess, err := r.d.Store.AgentSession(ctx, userID, session)
	if err != nil {
		r.d.Log.Warn("event for a gone session dropped", "session", session, "kind", kind, "err", err)
		return
	}
	if agentName == "" {
		agentName = LeadAgent
	}
	if _, err := r.d.Events.Append(ctx, session, sess.TurnCount, agentName, kind, payload); err != nil {
		r.d.Log.Error("recording event failed", "kind", kind, "err", err)
	}
}

func isFailure(status string) bool {
	return status == store.TaskFailed || status == store.TaskTimeout || status == store.TaskInterrupted || status == store.TaskCancelled
}

// interruptedBackgroundOutput is what a task cut by a restart reports.
const interruptedBackgroundOutput = "The server restarted before this task finished; run it again if you still need it."

// recoverBackground marks the tasks a stopped server left unfinished as
// interrupted (their results are then delivered like any other) and shows
// that on the timeline.
func (r *Runtime) recoverBackground(ctx context.Context) (int, error) {
	tasks, err := r.d.Store.InterruptBackgroundTasks(ctx, interruptedBackgroundOutput)
	if err != nil {
		return 0, err
	}
	for _, task := range tasks {
		if task.SessionID == "" {
			continue // a paper job started from a page: no timeline to tell
		}
		if task.Kind == store.BackgroundWorker {
			r.emitLatest(task.SessionID, task.UserID, LeadAgent, KindWorker, WorkerData{WorkerID: task.ID,
				Agent: task.AgentName, Title: task.Name, Status: store.TaskInterrupted, Summary: interruptedBackgroundOutput})
			continue
		}
		r.emitBackground(task, store.TaskInterrupted, "", interruptedBackgroundOutput)
	}
	return len(tasks), nil
}

// drainNotifications puts the lead's finished background results into the
// conversation before a model call (C6), each exactly once, as
// "[background task done] ✅ download_paper: ...".
func (t *turnRun) drainNotifications(ctx context.Context, step int) {
	if t.agent != LeadAgent {
		return
	}
	if pending, err := t.r.d.Store.HasBackgroundNotifications(context.WithoutCancel(ctx), t.session.ID); err != nil || !pending {
		if err != nil {
			t.log().Error("checking background notifications failed", "err", err)
		}
		return
	}
	tasks, err := t.r.d.Store.ClaimBackgroundNotifications(context.WithoutCancel(ctx), t.session.ID)
	if err != nil {
		t.log().Error("draining background notifications failed", "err", err)
		return
	}
	if len(tasks) == 0 {
		return
	}
	msg := llm.Message{Role: llm.RoleUser, Content: notificationText(tasks, t.r.Limits().MaxToolOutput)}
	if err := t.persist(ctx, step, msg); err != nil {
		t.log().Error("persisting a background notification failed", "err", err)
	}
	t.msgs = append(t.msgs, msg)
}

// notificationText renders finished tasks for the model, one paragraph
// each, every output cut to limit characters.
func notificationText(tasks []store.BackgroundTask, limit int) string {
	var b strings.Builder
	for i, task := range tasks {
		if i > 0 {
			b.WriteString("\n\n")
		}
		mark := "✅"
		if isFailure(task.Status) {
			mark = "❌"
		}
		if task.Status == store.TaskInterrupted {
			mark = "⚠️"
		}
		out := strings.TrimSpace(task.Output)
		if out == "" {
			out = "(no output)"
		}
		fmt.Fprintf(&b, "[background task done] %s %s: %s", mark, task.Name, textcut.Prefix(out, limit))
		if task.Status != store.TaskDone {
			fmt.Fprintf(&b, " (task %s, %s)", task.ID, task.Status)
		} else {
			fmt.Fprintf(&b, " (task %s)", task.ID)
		}
	}
	return b.String()
}
