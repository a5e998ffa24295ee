package agent

import (
	"fmt"
	"strings"
)

// identityPrompt opens every system prompt. Static sections come first so
// provider prompt caches can reuse them (SPEC C1).
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
// tools (one line each), the catalog of loadable tools, principles.
func (t *turnRun) systemPrompt() string {
	var b strings.Builder
	b.WriteString(identityPrompt)
	b.WriteString("\n\nTools you can call now:\n")
	for _, d := range t.registry.Definitions() {
		fmt.Fprintf(&b, "- %s: %s\n", d.Name, firstLine(d.Description))
	}
	if cat := t.registry.CatalogText(); cat != "" {
		b.WriteString("\nMore tools, loaded on demand with load_tool:\n")
		b.WriteString(cat)
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(principlesPrompt)
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
