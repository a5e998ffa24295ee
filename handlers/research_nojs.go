package handlers

import (
	"context"
	"time"

	"github.com/astroresearch/astroresearch/agent"
)

// Without JavaScript (issue 5, W3) the question form still works: the
// plain post waits for the turn and then shows the finished timeline. It
// stops waiting early when the turn needs the user (a question or a
// permission card: the page shows the card and its plain forms), and
// after noJSTurnWait, inside the page deadline (the page then says to
// reload to follow the turn).

// noJSTurnWait bounds how long a plain form post waits for its turn.
const noJSTurnWait = pageDeadline - 5*time.Second

// awaitTurnEnd reads the session's events from sub until the lead agent's
// turn ends or waits for the user, and reports whether it is still going
// on when it stops waiting (noJSTurnWait passed, ctx ended, or the
// subscription was dropped).
func awaitTurnEnd(ctx context.Context, sub *agent.Subscription) (running bool) {
	timer := time.NewTimer(noJSTurnWait)
	defer timer.Stop()
	for {
		select {
		case e, ok := <-sub.C:
			if !ok {
				return true
			}
			switch {
			case e.Kind == agent.KindDone && isLead(e):
				return false
			case e.Kind == agent.KindAskUser || e.Kind == agent.KindPermissionRequest:
				return false
			}
		case <-timer.C:
			return true
		case <-ctx.Done():
			return true
		}
	}
}

// stillRunningNote is the status message when a plain post stopped
// waiting for a turn that goes on.
const stillRunningNote = "The turn is still running: reload the page to follow it."
