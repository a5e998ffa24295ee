package agent

import "github.com/astroresearch/astroresearch/agent/tools"

// turnRegistry builds a lead turn's registry: the configured tools plus
// the orchestration tools the runtime provides (docs/features.md R12: "with background
// tasks", "with teams"): subagent; bg_task_run and bg_task_check when a
// download or parse tool is registered; the team tools when there is a
// data dir for the inboxes.
func (r *Runtime) turnRegistry() *tools.Registry {
	reg := r.d.Registry()
	mustAdd(reg, subagentTool())
	if r.teams != nil {
		for _, tool := range []tools.Tool{spawnTeammate(), sendTeammateMessage(), teamBroadcast(), checkTeamInbox()} {
			mustAdd(reg, tool)
		}
	}
	if backgroundNames(reg)[0] != "none" {
		mustAdd(reg, bgTaskRun())
		mustAdd(reg, bgTaskCheck())
	}
	return reg
}

// coordinatorRegistry is the lead's registry in coordinator mode: only
// delegate_task, check_task, task_stop and synthesize (T25).
func coordinatorRegistry() *tools.Registry {
	reg := tools.NewRegistry()
	for _, tool := range []tools.Tool{delegateTask(), checkTask(), taskStop(), synthesize()} {
		mustAdd(reg, tool)
	}
	return reg
}
