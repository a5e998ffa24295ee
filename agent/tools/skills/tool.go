package skills

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
)

// LoadArgs are load_skill's arguments.
type LoadArgs struct {
	Name string `json:"name" desc:"The skill's name, as listed in the system prompt" maxLength:"64"`
	Mode string `json:"mode,omitempty" enum:"inline,fork" desc:"inline (default): return the instructions to follow yourself; fork: have a sub-agent follow them"`
	Task string `json:"task,omitempty" desc:"fork mode: the task the sub-agent carries out with the skill, complete in itself" maxLength:"20000"`
}

// LoadSkill returns the load_skill tool (T17). Fork mode runs a sub-agent
// (tools.Context.Subagent) that follows the skill for the given task and
// returns its activity log and conclusion; where there is no sub-agent
// runner (inside a sub-agent) fork is refused with a clear message.
func LoadSkill(l *Library) tools.Tool {
	return tools.New("load_skill",
		"Load a skill: step-by-step instructions for a research procedure listed under \"Skills\" in the "+
			"system prompt. Follow the returned instructions.",
		func(ctx context.Context, tc *tools.Context, args LoadArgs) (tools.Result, error) {
			s, ok, err := l.Get(ctx, args.Name)
			if err != nil {
				return tools.Result{}, err
			}
			if !ok {
				names, err := l.names(ctx)
				if err != nil {
					return tools.Result{}, err
				}
				return tools.Errorf("There is no skill named %q. Available skills: %s.", args.Name, orNone(names)), nil
			}
			if args.Mode == "fork" {
				return fork(ctx, tc, s, args.Task)
			}
			return tools.Result{
				Output:   fmt.Sprintf("Skill %s — %s\n\n%s", s.Name, s.Description, s.Body),
				Metadata: map[string]any{"skill": s.Name, "path": s.Path},
			}, nil
		},
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred(),
	)
}

// fork has a sub-agent follow skill s for task.
func fork(ctx context.Context, tc *tools.Context, s Skill, task string) (tools.Result, error) {
	if tc.Subagent == nil {
		return tools.Errorf("Fork mode is not available here (a sub-agent cannot start another). "+
			"Load %q inline and follow its instructions yourself.", s.Name), nil
	}
	if strings.TrimSpace(task) == "" {
		return tools.Errorf("Fork mode needs a task: say what the sub-agent should do with the skill %q.", s.Name), nil
	}
	guide := fmt.Sprintf("Follow the skill %s — %s:\n\n%s", s.Name, s.Description, s.Body)
	out, err := tc.Subagent(ctx, task, guide)
	if err != nil && ctx.Err() != nil {
		return tools.Result{}, ctx.Err()
	}
	return tools.Result{Output: out, IsError: err != nil, Metadata: map[string]any{"skill": s.Name, "mode": "fork"}}, nil
}

func (l *Library) names(ctx context.Context) ([]string, error) {
	list, err := l.List(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	return names, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none (the skills directory is empty)"
	}
	return strings.Join(names, ", ")
}

// PromptSection renders skills for the system prompt: one line each.
func PromptSection(list []Skill) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}
