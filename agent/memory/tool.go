package memory

import (
	"context"
	"errors"
	"fmt"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// SaveArgs are save_memory's arguments.
type SaveArgs struct {
	Kind    string `json:"kind" enum:"user,feedback,project,reference" desc:"user: who the user is; feedback: how they want you to work; project: their ongoing work; reference: a durable fact or pointer"`
	Content string `json:"content" desc:"One lasting, specific fact, in a sentence or two" maxLength:"1000"`
}

// SaveTool returns the save_memory tool (T18).
func SaveTool(s *Service) tools.Tool {
	return tools.New("save_memory",
		"Save one lasting fact about the user or their work to long-term memory, for later sessions "+
			"(e.g. their field and instruments, how they like answers, the objects of an ongoing project). "+
			"Not for things that only matter now, and not for code.",
		func(ctx context.Context, tc *tools.Context, args SaveArgs) (tools.Result, error) {
			m, err := s.Save(ctx, tc.UserID, args.Kind, args.Content, "agent")
			var refused *RefusedError
			if errors.As(err, &refused) {
				return tools.Errorf("Not saved: %s.", refused.Reason), nil
			}
			if err != nil {
				return tools.Result{}, err
			}
			return tools.Result{Output: fmt.Sprintf("Saved as memory #%d (%s).", m.ID, m.Kind),
				Metadata: map[string]any{"memory_id": m.ID}}, nil
		},
		tools.WithInterrupt(tools.Block),
	)
}
