package agent

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
)

// Session titles: a session without a title is named after its first
// question when that turn begins (the turn's session event carries the
// title). When the first answer is in, the model is asked for a shorter
// title; it replaces the question only if nobody renamed the session
// meanwhile (a "title" event). It runs in the background, like memory
// extraction, and never delays the turn.

// TitleFromModel is TitleData.Source for a title the model proposed.
const TitleFromModel = "model"

// maxProposedTitle bounds a proposed title (characters); longer answers
// are not titles and are ignored.
const maxProposedTitle = 80

const titlePrompt = `Propose a title for a research session, from its first question and answer.
The title names the subject in at most eight words, like a paper's short title: no quotes, no final full stop,
no "Question about". Reply with the title only.`

// startTitleProposal asks the model for a shorter title in the background
// when this turn named the session after its question.
func (t *turnRun) startTitleProposal() {
	if !t.r.cfg.ProposeTitles || t.agent != LeadAgent || t.newTitle == "" || strings.TrimSpace(t.answer) == "" {
		return
	}
	question, answer, from := t.question, t.answer, t.newTitle
	t.r.bg.Add(1)
	go func() {
		defer t.r.bg.Done()
		ctx, cancel := context.WithTimeout(t.r.base, t.r.cfg.ToolTimeout)
		defer cancel()
		t.proposeTitle(ctx, question, answer, from)
	}()
}

// proposeTitle asks the model, and sets and announces its title when it
// is usable and the session still has the title from.
func (t *turnRun) proposeTitle(ctx context.Context, question, answer, from string) {
	log := t.log()
	req := llm.Request{MaxTokens: 40, Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: titlePrompt},
		{Role: llm.RoleUser, Content: "Question: " + textcut.Prefix(question, 2000) + "\n\nAnswer: " + textcut.Prefix(answer, 4000)},
	}}
	resp, err := t.r.d.Model.Stream(ctx, req, nil)
	if err != nil {
		log.Warn("title proposal failed", "err", err)
		return
	}
	title := cleanTitle(resp.Message.Content)
	if title == "" || title == from {
		return
	}
	changed, err := t.r.d.Store.RetitleAgentSession(ctx, t.session.ID, from, title)
	if err != nil {
		log.Warn("saving the proposed title failed", "err", err)
		return
	}
	if !changed {
		return // renamed meanwhile: the user's title stays
	}
	if _, err := t.r.d.Events.Append(ctx, t.session.ID, t.turn, LeadAgent, KindTitle,
		TitleData{Title: title, Source: TitleFromModel}); err != nil {
		log.Error("recording event failed", "kind", KindTitle, "err", err)
	}
}

// cleanTitle reduces a model's reply to a title: its first non-empty line
// without a "Title:" label, quotes, Markdown emphasis or a final full stop;
// "" when nothing usable remains or it is too long to be a title.
func cleanTitle(reply string) string {
	line := ""
	for l := range strings.Lines(reply) {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	line = strings.TrimLeft(line, "#* ")
	if k, rest, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "title") {
		line = rest
	}
	line = strings.Trim(strings.TrimSpace(line), "\"'“”‘’*_`")
	line = strings.TrimSuffix(line, ".")
	line = strings.Join(strings.Fields(line), " ")
	if line == "" || utf8.RuneCountInString(line) > maxProposedTitle {
		return ""
	}
	return line
}
