package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/store"
)

// maxTaskChars bounds a prompt's task argument.
const maxTaskChars = 10_000

// addPrompts offers every skill of the skills directory (the shipped ones —
// literature review, comparing measurements — and the user's own) as a
// prompt with one optional argument, the task. The skill is read again when
// the prompt is requested, so an edit shows at once.
func (s *Service) addPrompts(ctx context.Context, srv *mcp.Server, u store.User) {
	if s.skills == nil {
		return
	}
	list, err := s.skills.List(ctx)
	if err != nil {
		s.log.Error("mcp: list skills", "err", err)
		return
	}
	for _, sk := range list {
		srv.AddPrompt(&mcp.Prompt{Name: sk.Name, Title: promptTitle(sk.Name), Description: sk.Description,
			Arguments: []*mcp.PromptArgument{{Name: "task", Title: "Task",
				Description: "What to apply it to: an object, a quantity, a question (optional)"}}},
			s.getPrompt(sk.Name))
	}
}

// getPrompt renders the skill as one user message: its instructions, the
// task, and how the tools here map onto the steps.
func (s *Service) getPrompt(name string) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		sk, ok, err := s.skills.Get(ctx, name)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("the skill %q is gone from the skills directory", name)
		}
		task := strings.TrimSpace(req.Params.Arguments["task"])
		if len(task) > maxTaskChars {
			return nil, fmt.Errorf("the task is longer than %d characters", maxTaskChars)
		}
		return &mcp.GetPromptResult{Description: sk.Description,
			Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: promptText(sk, task)}}}}, nil
	}
}

func promptText(sk skills.Skill, task string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Follow this research procedure (%s — %s) with the AstroResearch tools. "+
		"Where a step names a tool you do not have (such as todo_write), do that step yourself.\n\n%s\n", sk.Name, sk.Description, sk.Body)
	if task != "" {
		fmt.Fprintf(&b, "\nTask: %s\n", task)
	}
	return b.String()
}

// promptTitle turns "literature-review" into "Literature review".
func promptTitle(name string) string {
	t := strings.ReplaceAll(name, "-", " ")
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}
