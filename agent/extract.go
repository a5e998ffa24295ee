package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
)

// Memory extraction (docs/features.md C11): after a turn, a restricted sub-agent — only
// save_memory, no research tools (C12: it used to search papers and
// resolve objects again after every turn), no events, no questions to the
// user — reads what happened (and what compaction dropped) beside the
// memories already saved, and saves lasting facts. It runs in the
// background and never delays the user's turn.

// MemoryAgent is the agent_name of the memory extractor's messages and
// audit rows.
const MemoryAgent = "memory"

// extractorAgent is the extractor's agent_name.
const extractorAgent = MemoryAgent

// extractionSteps bounds the extractor's work.
const extractionSteps = 3

// transcriptChars bounds what the extractor reads.
const transcriptChars = 12_000

const extractionPrompt = `You maintain the long-term memory of an astrophysics research assistant.
Read the transcript of the latest exchange and save, with save_memory, only facts that will still matter in
later sessions: who the user is (field, instruments, collaborations), how they want the assistant to work,
their ongoing projects (objects, proposals, papers in preparation), and durable references. Save each fact
once, specifically, in one or two sentences. Do not save passing details, answers already in papers, or code.
If nothing qualifies, reply "nothing to remember". Reply with a one-line summary of what you saved.`

// startExtraction runs the extractor for a finished turn in the
// background (tracked for shutdown).
func (t *turnRun) startExtraction() {
	if !t.r.cfg.ExtractMemories || t.agent != LeadAgent {
		return
	}
	transcript := renderTranscript(append(append([]llm.Message(nil), t.dropped...), t.turnMessages()...))
	if strings.TrimSpace(transcript) == "" {
		return
	}
	reg := t.r.d.Registry().Filtered(func(tool tools.Tool) bool { return tool.Name() == "save_memory" })
	if _, ok := reg.Get("save_memory"); !ok {
		return
	}
	x := &turnRun{r: t.r, userID: t.userID, session: t.session, turn: t.turn, question: transcript,
		agent: extractorAgent, registry: reg, dups: &dupDetector{}, silent: true}
	input := transcript
	if known := t.memories(context.WithoutCancel(t.r.base)); known != "" {
		input = "Already remembered (do not save these again):\n" + known + "\n\nTranscript:\n" + transcript
	}
	x.msgs = []llm.Message{{Role: llm.RoleSystem, Content: extractionPrompt}, {Role: llm.RoleUser, Content: input}}
	t.r.bg.Add(1)
	go func() {
		defer t.r.bg.Done()
		ctx, cancel := context.WithTimeout(t.r.base, 2*t.r.cfg.ToolTimeout)
		defer cancel()
		x.extract(ctx)
	}()
}

// extract runs the extractor's short loop.
func (x *turnRun) extract(ctx context.Context) {
	defer func() {
		if p := recover(); p != nil {
			x.log().Error("memory extraction panicked", "panic", p)
		}
	}()
	start := x.hookInput(HookSubagentStart)
	start.Message = "memory extraction"
	x.hooks().Run(ctx, start)
	for step := 1; step <= extractionSteps; step++ {
		resp, err := x.callModel(ctx, step, x.registry.Definitions())
		if err != nil {
			x.log().Warn("memory extraction failed", "err", err)
			break
		}
		if len(resp.Message.ToolCalls) == 0 {
			break
		}
		x.msgs = append(x.msgs, x.executeCalls(ctx, step, resp.Message.ToolCalls)...)
	}
	stop := x.hookInput(HookSubagentStop)
	stop.Message = "memory extraction"
	x.hooks().Run(context.WithoutCancel(ctx), stop)
}

// turnMessages are this turn's messages after the system prompt and the
// restored history: from the question on.
func (t *turnRun) turnMessages() []llm.Message {
	for i := len(t.msgs) - 1; i >= 0; i-- {
		if t.msgs[i].Role == llm.RoleUser && t.msgs[i].Content == t.question {
			return t.msgs[i:]
		}
	}
	return nil
}

// renderTranscript writes messages as plain text for the extractor, tool
// outputs shortened, the whole capped at transcriptChars (newest kept).
func renderTranscript(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			fmt.Fprintf(&b, "User: %s\n\n", m.Content)
		case llm.RoleAssistant:
			if m.Content != "" {
				fmt.Fprintf(&b, "Assistant: %s\n\n", m.Content)
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "Assistant called %s %s\n", c.Name, textcut.Prefix(c.Arguments, 300))
			}
		case llm.RoleTool:
			fmt.Fprintf(&b, "[%s result] %s\n\n", m.Name, textcut.Prefix(m.Content, 400))
		}
	}
	s := b.String()
	if r := []rune(s); len(r) > transcriptChars {
		s = "…" + string(r[len(r)-transcriptChars:])
	}
	return s
}
