package self

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// AskArgs are ask_user's arguments.
type AskArgs struct {
	Question string   `json:"question" desc:"One clear question for the user" maxLength:"2000"`
	Options  []string `json:"options,omitempty" desc:"Suggested answers shown as buttons (the user may also type their own)"`
}

// AskUser returns the ask_user tool: it pauses the turn, shows a question
// card and returns the user's answer. It is not available to sub-agents.
func AskUser() tools.Tool {
	return tools.New("ask_user",
		"Ask the user a question and wait for the answer (up to 5 minutes). Use it when a choice only the user "+
			"can make blocks the work, e.g. which object, epoch, instrument or paper they mean.",
		func(ctx context.Context, tc *tools.Context, args AskArgs) (tools.Result, error) {
			if tc.Ask == nil {
				return tools.Errorf("ask_user is not available here (sub-agents cannot address the user); decide yourself and report your assumption."), nil
			}
			q := strings.TrimSpace(args.Question)
			if q == "" {
				return tools.Errorf("The question is empty."), nil
			}
			if len(args.Options) > 10 {
				return tools.Errorf("Offer at most 10 options."), nil
			}
			answer, err := tc.Ask(ctx, q, args.Options)
			switch {
			case err != nil && ctx.Err() != nil:
				return tools.Result{}, ctx.Err()
			case err != nil:
				return tools.Errorf("The user did not answer in time (%v). Continue with your best judgement and state what you assumed.", err), nil
			}
			return tools.Result{Output: fmt.Sprintf("The user answered: %s", answer),
				Metadata: map[string]any{"question": q, "answer": answer}}, nil
		},
		tools.WithInteractive(),
	)
}
