package agent

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
)

// identityPrompt opens every system prompt. Static sections come first so
// provider prompt caches can reuse them (docs/features.md C1).
const identityPrompt = `You are AstroResearch, an astrophysics research assistant working for a professional astronomer.
You search the literature (NASA ADS, arXiv), read papers, resolve astronomical objects and keep the user's library and notes.`

const principlesPrompt = `Working principles:
- Search and read before you answer; do not answer from memory when a source can be checked.
- Cite every claim that comes from a paper (bibcode, arXiv id or DOI) so the user can click through.
- Write mathematics in LaTeX ($...$ inline, $$...$$ for display).
- Say plainly what you could not find or verify; never invent references, numbers or quotations.
- Keep a task list with todo_write for work that takes several steps.
- When you need a decision only the user can make, ask with ask_user instead of guessing.`

// systemPrompt assembles the system message from its sections: identity,
// the catalog of loadable tools, memories, skills, principles. The
// resident tools are not listed: the request's tools parameter carries
// their names and descriptions, and saying it twice costs the window
// (C12: the lead's fixed prompt stays under 3,000 tokens).
func (t *turnRun) systemPrompt(ctx context.Context) string {
	var b strings.Builder
	b.WriteString(identityPrompt)
	b.WriteString("\n")
	if cat := catalogSection(t.registry); cat != "" {
		b.WriteString("\n")
		b.WriteString(cat)
		b.WriteString("\n")
	}
	if mem := t.memories(ctx); mem != "" {
		b.WriteString("\nWhat you remember about this user (most recent first):\n")
		b.WriteString(mem)
	}
	if list := t.activeSkills(ctx); list != "" {
		b.WriteString("\nSkills (load the instructions with load_skill when one fits the task):\n")
		b.WriteString(list)
	}
	b.WriteString("\n")
	b.WriteString(principlesPrompt)
	if t.coord != nil {
		b.WriteString("\n\n")
		b.WriteString(coordinatorPrompt)
	}
	return b.String()
}

// memories lists the user's latest memories (C1, C11).
func (t *turnRun) memories(ctx context.Context) string {
	if t.r.d.Memory == nil {
		return ""
	}
	section, err := t.r.d.Memory.PromptSection(ctx, t.userID)
	if err != nil {
		t.log().Warn("loading memories failed", "err", err)
		return ""
	}
	return section
}

// activeSkills lists the skills that apply to this question (docs/features.md T17:
// conditional activation by keywords or workspace file globs).
func (t *turnRun) activeSkills(ctx context.Context) string {
	lib := t.r.d.Skills
	if lib == nil {
		return ""
	}
	if _, offered := t.registry.Get("load_skill"); !offered {
		return ""
	}
	list, err := lib.Active(ctx, t.question, workspaceFiles(t.r.cfg.WorkspaceDir))
	if err != nil {
		t.log().Warn("listing skills failed", "err", err)
		return ""
	}
	return skills.PromptSection(list)
}

// maxWorkspaceScan bounds how many workspace files are matched against
// skill globs.
const maxWorkspaceScan = 2000

// workspaceFiles lists up to maxWorkspaceScan workspace-relative file paths.
func workspaceFiles(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxWorkspaceScan {
			return fs.SkipAll
		}
		if d.Type().IsRegular() {
			if rel, err := filepath.Rel(dir, p); err == nil {
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return out
}

// catalogSection lists the deferred tools not loaded yet (name and one-line
// summary), or "" when there are none.
func catalogSection(reg *tools.Registry) string {
	cat := reg.CatalogText()
	if cat == "" {
		return ""
	}
	return "More tools, loaded on demand with load_tool (or called directly, which loads them):\n" + strings.TrimRight(cat, "\n")
}
