package rag

import (
	"context"
	"fmt"
	"strings"
)

// Answer is a question answered from the library.
type Answer struct {
	Question string `json:"question"`
	// Passages are the numbered sources: passage n is Passages[n-1].
	Passages []Hit  `json:"passages"`
	Mode     Mode   `json:"mode"`
	Note     string `json:"note,omitempty"`
	// NoSupport is set when the library holds no passage that supports an
	// answer (nothing retrieved, or the model found nothing in the passages
	// or cited none); Paragraphs is then empty and nothing is answered from
	// the model's own memory.
	NoSupport bool `json:"no_support"`
	// Paragraphs are the answer's sentences, each citing passage numbers.
	Paragraphs [][]Sentence `json:"paragraphs,omitempty"`
	// Removed are sentences of the model's answer dropped because they
	// cited no existing passage.
	Removed []string `json:"removed,omitempty"`
	// GenerationError is set when passages were found but the model could
	// not be asked (the passages are still returned).
	GenerationError string `json:"generation_error,omitempty"`
}

// NoSupportText is what an answer says when the library holds nothing
// that supports one.
const NoSupportText = "Your library holds no passage that answers this question, so I will not answer it from memory."

// noSupportToken is what the model is told to reply when the passages do
// not answer the question.
const noSupportToken = "NO_SUPPORT"

// maxPassageChars caps each passage in the prompt.
const maxPassageChars = 4000

// Ask retrieves passages for q and has the model answer from them alone,
// every sentence citing passage numbers; sentences citing no existing
// passage are dropped. When nothing supports an answer it says so
// (NoSupport) instead of asking the model.
func (s *Service) Ask(ctx context.Context, q Query) (Answer, error) {
	res, err := s.Search(ctx, q)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Question: q.Text, Passages: res.Hits, Mode: res.Mode, Note: res.Note}
	if len(res.Hits) == 0 {
		a.NoSupport = true
		return a, nil
	}
	if s.opt.Generator == nil {
		a.GenerationError = "no chat model is configured"
		return a, nil
	}
	text, err := s.opt.Generator.Generate(ctx, answerSystemPrompt, answerPrompt(q.Text, res.Hits))
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		s.log.Warn("rag: generate answer", "err", err)
		a.GenerationError = "the model could not be reached"
		return a, nil
	}
	if strings.HasPrefix(strings.TrimSpace(text), noSupportToken) {
		a.NoSupport = true
		return a, nil
	}
	checked := CheckCitations(text, len(res.Hits))
	a.Paragraphs, a.Removed = checked.Paragraphs, checked.Removed
	a.NoSupport = checked.Empty()
	return a, nil
}

const answerSystemPrompt = `You answer questions from an astronomer's paper library using ONLY the numbered passages given.
Rules:
- End every sentence with the number of each passage that supports it in square brackets, e.g. [1] or [2][3].
- Never state anything the passages do not say; do not use your own knowledge.
- If the passages do not answer the question, reply with exactly ` + noSupportToken + ` and nothing else.
- Be concise, write math in LaTeX ($...$), and answer in the language of the question.`

// answerPrompt lists the passages, numbered from 1, then the question.
func answerPrompt(question string, hits []Hit) string {
	var b strings.Builder
	b.WriteString("Passages:\n\n")
	for i, h := range hits {
		year := ""
		if h.Year != nil {
			year = fmt.Sprintf(" (%d)", *h.Year)
		}
		fmt.Fprintf(&b, "[%d] %s%s", i+1, h.Title, year)
		if h.SectionPath != "" {
			fmt.Fprintf(&b, " — %s", h.SectionPath)
		}
		text := h.Text
		if len(text) > maxPassageChars {
			text = strings.ToValidUTF8(text[:maxPassageChars], "") + " …"
		}
		fmt.Fprintf(&b, "\n%s\n\n", strings.TrimSpace(text))
	}
	fmt.Fprintf(&b, "Question: %s", question)
	return b.String()
}

// Text is the answer as plain text with its citation markers, paragraphs
// separated by blank lines; NoSupportText when there is no answer.
func (a Answer) Text() string {
	if a.NoSupport {
		return NoSupportText
	}
	var paras []string
	for _, p := range a.Paragraphs {
		var b strings.Builder
		for i, s := range p {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s.Text)
			for _, c := range s.Cites {
				fmt.Fprintf(&b, " [%d]", c)
			}
		}
		paras = append(paras, b.String())
	}
	return strings.Join(paras, "\n\n")
}
