package agent

import (
	"context"
	"fmt"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// checkPermission resolves a call the rules deny, or asks the user when they
// say Ask (showing a card; the turn waits for allow once / always / deny).
func (t *turnRun) checkPermission(ctx context.Context, c *callRun) {
	tc := t.toolContext(ctx, c)
	decision, reason, err := t.r.d.Perms.Check(ctx, t.userID, c.tool, tc, c.args, c.status == "ask")
	c.status = ""
	if err != nil {
		t.log().Error("permission check failed", "err", err)
		c.resolve("denied", tools.Errorf("The permission check failed, so %s was not run.", c.call.Name))
		return
	}
	switch decision {
	case tools.DecisionDeny:
		c.resolve("denied", tools.Errorf("Permission denied: %s. Do not retry this call.", reason))
	case tools.DecisionAsk:
		t.askPermission(ctx, c, reason)
	}
}

func (t *turnRun) askPermission(ctx context.Context, c *callRun, reason string) {
	id, item := t.r.pending.open(t.session.ID, "permission")
	defer t.r.pending.close(id)
	in := t.hookInput(HookPermissionRequest)
	in.Tool, in.ToolCallID, in.Arguments, in.Message = c.call.Name, c.call.ID, c.args, reason
	t.hooks().Run(ctx, in)
	t.emit(ctx, KindPermissionRequest, PermissionRequestData{RequestID: id, ToolCallID: c.call.ID,
		Tool: c.call.Name, Arguments: string(c.args), Reason: reason})
	waitCtx, cancel := context.WithTimeout(ctx, t.r.cfg.AskTimeout)
	defer cancel()
	decision, err := item.wait(waitCtx)
	switch {
	case err != nil && ctx.Err() != nil:
		c.resolve("cancelled", tools.Errorf("Cancelled while waiting for the user's permission to run %s.", c.call.Name))
	case err != nil:
		c.resolve("denied", tools.Errorf("Nobody answered the permission request for %s within %s, so it was not run. "+
			"Continue without it or ask the user.", c.call.Name, t.r.cfg.AskTimeout))
	case decision == Deny:
		c.resolve("denied", tools.Errorf("The user denied permission to run %s. Do not retry it; find another way or ask the user.", c.call.Name))
	case decision == AllowAlways:
		if _, err := t.r.d.Store.PutPermissionRule(context.WithoutCancel(ctx), t.userID, c.call.Name, "*", "allow"); err != nil {
			t.log().Error("saving an always-allow rule failed", "err", err)
		}
	}
}

// askFunc returns the tools.Context.Ask implementation for this turn: a
// question card that waits up to AskTimeout for the user's answer.
func (t *turnRun) askFunc(ctx context.Context) func(context.Context, string, []string) (string, error) {
	return func(callCtx context.Context, question string, options []string) (string, error) {
		id, item := t.r.pending.open(t.session.ID, "question")
		defer t.r.pending.close(id)
		expires := t.r.d.Now().Add(t.r.cfg.AskTimeout)
		t.emit(ctx, KindAskUser, AskUserData{QuestionID: id, Question: question, Options: options,
			ExpiresAt: expires.UTC().Format("2006-01-02T15:04:05Z07:00")})
		waitCtx, cancel := context.WithTimeout(callCtx, t.r.cfg.AskTimeout)
		defer cancel()
		answer, err := item.wait(waitCtx)
		if err != nil && callCtx.Err() == nil {
			return "", fmt.Errorf("%w: no answer within %s", ErrQuestionExpired, t.r.cfg.AskTimeout)
		}
		return answer, err
	}
}
