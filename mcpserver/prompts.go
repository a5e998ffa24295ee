package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/astroresearch/astroresearch/agent/tools/skills"
)

// maxTaskChars bounds a prompt's task argument.
const maxTaskChars = 10_000

// skillList is the skills directory's skills now (none without a library
// or when it cannot be read, which is logged).
func (s *Service) skillList(ctx context.Context) []skills.Skill {
	if s.skills == nil {
		return nil
	}
	list, err := s.skills.List(ctx)
	if err != nil {
		s.log.Error("mcp: list skills", "err", err)
		return nil
	}
	return list
}

// promptSignature changes whenever the prompts made from list would.
func promptSignature(list []skills.Skill) string {
	var b strings.Builder
	for _, sk := range list {
		b.WriteString(sk.Name + "\x00" + sk.Description + "\x00")
	}
	return b.String()
}

// addPrompts offers every skill of the skills directory (the shipped ones —
// literature review, comparing measurements — and the user's own) as a
// prompt with one optional argument, the task. The skill's text is read
// again when the prompt is requested, so an edit of its body shows at once.
func (s *Service) addPrompts(srv *mcp.Server, list []skills.Skill) {
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
