package agent

import (
	"context"
	"fmt"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/store"
)

// Recover repairs what a crash or kill left behind (docs/features.md R8): for every
// session whose last turn never emitted done, the tool calls left without a
// result get a persisted "interrupted" result, and the turn is closed with
// an error event and done{reason: "interrupted"}. Call it once at start-up,
// before taking turns. Background tasks and coordinator workers left
// queued or running are marked interrupted (their results say so). It
// returns how many turns it closed.
func (r *Runtime) Recover(ctx context.Context) (int, error) {
	open, err := r.d.Store.UnfinishedAgentTurns(ctx)
	if err != nil {
		return 0, err
	}
	for _, u := range open {
		if err := r.closeInterrupted(ctx, u.SessionID, u.Turn, LeadAgent); err != nil {
			return 0, fmt.Errorf("agent: recover session %s: %w", u.SessionID, err)
		}
	}
	if _, err := r.recoverBackground(ctx); err != nil {
		return 0, fmt.Errorf("agent: recover background tasks: %w", err)
	}
	return len(open), nil
}

func (r *Runtime) closeInterrupted(ctx context.Context, session string, turn int, agentName string) error {
	rows, err := r.d.Store.AgentMessages(ctx, session, agentName)
	if err != nil {
		return err
	}
	msgs := make([]llm.Message, 0, len(rows))
	for _, row := range rows {
		m, err := MessageFromRow(row)
		if err != nil {
			return err
		}
		msgs = append(msgs, m)
	}
	t := &turnRun{r: r, session: store.AgentSession{ID: session}, turn: turn, agent: agentName}
	if missing := openCallsAtEnd(msgs); len(missing) > 0 {
		results := make([]llm.Message, len(missing))
		for i, c := range missing {
			results[i] = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: interruptedOutput}
		}
		step := 0
		if len(rows) > 0 {
			step = rows[len(rows)-1].Step
		}
		if err := t.persist(ctx, step, results...); err != nil {
			return err
		}
		for _, c := range missing {
			t.emit(ctx, KindToolResult, ToolResultData{ToolCallID: c.ID, Name: c.Name, Output: interruptedOutput, IsError: true, Step: step, Status: "interrupted"})
		}
	}
	t.emit(ctx, KindError, ErrorData{Message: "The server stopped while this turn was running; it was interrupted.", Class: "interrupted"})
	t.emit(ctx, KindDone, DoneData{Reason: "interrupted"})
	return nil
}

// openCallsAtEnd returns the calls of the last assistant message that have
// no result, when only tool results follow it (a turn cut mid-tool).
func openCallsAtEnd(msgs []llm.Message) []llm.ToolCall {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			continue
		}
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			return nil
		}
		answered := map[string]bool{}
		for _, r := range msgs[i+1:] {
			answered[r.ToolCallID] = true
		}
		var missing []llm.ToolCall
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				missing = append(missing, c)
			}
		}
		return missing
	}
	return nil
}
