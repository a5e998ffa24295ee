package record

import (
	"fmt"
	"strings"
	"time"
)

// Markdown renders the record for reading.
func (r Record) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Research record: %s\n\n", titleOr(r.Title))
	fmt.Fprintf(&b, "Session `%s`, started %s; record generated %s from the stored event log.\n\n", r.SessionID, stamp(r.Created), stamp(r.Generated))
	if len(r.Turns) == 0 {
		b.WriteString("The session has no questions yet.\n")
	}
	for _, t := range r.Turns {
		fmt.Fprintf(&b, "## Question %d\n\n", t.N)
		fmt.Fprintf(&b, "> %s\n\n", strings.ReplaceAll(strings.TrimSpace(t.Question), "\n", "\n> "))
		fmt.Fprintf(&b, "- Asked: %s\n", stamp(t.Started))
		fmt.Fprintf(&b, "- Model: %s\n", listOr(t.Models, "none recorded"))
		fmt.Fprintf(&b, "- Run: %d steps, %d model calls, %d prompt and %d completion tokens; ended: %s\n",
			t.Settings.Steps, t.Settings.ModelCalls, t.Settings.PromptTokens, t.Settings.CompletionTokens, orText(t.Settings.EndReason, "not finished"))
		fmt.Fprintf(&b, "- Thinking: %s; coordinator mode: %s\n", onOff(t.Settings.Thinking), onOff(t.Settings.Coordinator))
		if len(t.Agents) > 0 {
			fmt.Fprintf(&b, "- Sub-agents: %s\n", strings.Join(t.Agents, ", "))
		}
		b.WriteString("\n### Searches\n\n")
		if len(t.Searches) == 0 {
			b.WriteString("None.\n")
		}
		for _, s := range t.Searches {
			fmt.Fprintf(&b, "- %s: %q — %s, %d results", s.Source, s.Query, stamp(s.At), s.Results)
			if s.Sort != "" {
				fmt.Fprintf(&b, ", sorted by %s", s.Sort)
			}
			for _, n := range s.Notes {
				fmt.Fprintf(&b, " (%s)", n)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n### Papers downloaded, parsed or read\n\n")
		if len(t.Papers) == 0 {
			b.WriteString("None.\n")
		}
		for _, p := range t.Papers {
			fmt.Fprintf(&b, "- %s: %s (%s)%s\n", p.Action, orText(p.Title, fmt.Sprintf("library paper #%d (since removed)", p.PaperID)), ids(p.ArxivID, p.Bibcode, p.DOI), keyNote(p.Key))
		}
		b.WriteString("\n### Cited in the answer\n\n")
		if len(t.Citations) == 0 {
			b.WriteString("Nothing.\n")
		}
		for _, c := range t.Citations {
			what := orText(c.Title, c.Identifier)
			if c.Section != "" {
				what += ", section “" + c.Section + "”"
			}
			fmt.Fprintf(&b, "- %s%s: “%s”", what, keyNote(c.Key), c.Sentence)
			if c.Quote != "" {
				fmt.Fprintf(&b, " — quoting: “%s”", c.Quote)
			}
			b.WriteString("\n")
		}
		if len(t.Errors) > 0 {
			b.WriteString("\n### Tool errors\n\n")
			for _, e := range t.Errors {
				fmt.Fprintf(&b, "- %s (%s, %s): %s\n", e.Tool, orText(e.Status, "error"), stamp(e.At), e.Message)
			}
		}
		b.WriteString("\n### Answer\n\n")
		b.WriteString(orText(strings.TrimSpace(t.Answer), "No answer was recorded."))
		b.WriteString("\n\n")
	}
	if len(r.Works) > 0 {
		b.WriteString("## Works read or cited\n\n")
		for _, w := range r.Works {
			fmt.Fprintf(&b, "- `%s`: %s, %s", w.Key, w.Authors, w.Title)
			if w.Year != 0 {
				fmt.Fprintf(&b, " (%d)", w.Year)
			}
			fmt.Fprintf(&b, " — %s\n", ids(w.ArxivID, w.Bibcode, w.DOI))
		}
	}
	return b.String()
}

func titleOr(t string) string { return orText(t, "Untitled session") }

func orText(s, alt string) string {
	if strings.TrimSpace(s) == "" {
		return alt
	}
	return s
}

func listOr(l []string, alt string) string {
	if len(l) == 0 {
		return alt
	}
	return strings.Join(l, ", ")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "unknown time"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// ids lists a paper's identifiers.
func ids(arxivID, bibcode, doi string) string {
	var out []string
	if arxivID != "" {
		out = append(out, "arXiv:"+arxivID)
	}
	if bibcode != "" {
		out = append(out, bibcode)
	}
	if doi != "" {
		out = append(out, "doi:"+doi)
	}
	return listOr(out, "no identifier")
}

func keyNote(key string) string {
	if key == "" {
		return ""
	}
	return " [" + key + "]"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
