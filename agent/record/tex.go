package record

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// BibFile is the name the TeX record's \bibliography expects its BibTeX
// file under (without .bib).
const BibFile = "record"

// TeX renders the record as an AASTeX (aastex631) document: a short
// methods section saying how the assistant was used, then the record as an
// appendix. Works from the library are cited with \citet{key}, the keys of
// BibTeX() (file BibFile.bib); the text is plain LaTeX, all special
// characters escaped, so it compiles with pdflatex.
func (r Record) TeX() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%% Research record of AstroResearch session %s, generated %s from its stored event log.\n", r.SessionID, stamp(r.Generated))
	b.WriteString("% Compile with: pdflatex, bibtex, pdflatex, pdflatex (" + BibFile + ".bib beside this file).\n")
	b.WriteString("\\documentclass{aastex631}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\begin{document}\n\n")
	fmt.Fprintf(&b, "\\title{Research record: %s}\n\n", tex(titleOr(r.Title)))
	b.WriteString("\\section{Use of a research assistant}\\label{sec:assistant}\n\n")
	b.WriteString(r.methodsParagraph())
	b.WriteString("\n\n\\appendix\n\n\\section{Research record}\\label{app:record}\n\n")
	for _, t := range r.Turns {
		texTurn(&b, t)
	}
	if len(r.Turns) == 0 {
		b.WriteString("The session has no questions yet.\n\n")
	}
	b.WriteString("\\bibliographystyle{aasjournal}\n")
	if len(r.Works) > 0 {
		b.WriteString("\\bibliography{" + BibFile + "}\n")
	}
	b.WriteString("\n\\end{document}\n")
	return b.String()
}

// methodsParagraph summarises the session in one paragraph.
func (r Record) methodsParagraph() string {
	var models []string
	searches, from, to := 0, "", ""
	for _, t := range r.Turns {
		for _, m := range t.Models {
			if !slices.Contains(models, m) {
				models = append(models, m)
			}
		}
		for _, s := range t.Searches {
			if s.Tool == "search_papers" {
				searches++
			}
		}
		if from == "" {
			from = stamp(t.Started)
		}
		to = stamp(t.Started)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "We used the AstroResearch assistant (session \\texttt{%s}) for %d question(s)", tex(r.SessionID), len(r.Turns))
	if from != "" {
		fmt.Fprintf(&b, " asked between %s and %s", tex(from), tex(to))
	}
	fmt.Fprintf(&b, ", answered by %s. ", tex(listOr(models, "a language model")))
	fmt.Fprintf(&b, "It ran %d literature search(es) in NASA ADS and arXiv", searches)
	if len(r.Works) > 0 {
		var keys []string
		for _, w := range r.Works {
			if safeKey(w.Key) {
				keys = append(keys, w.Key)
			}
		}
		fmt.Fprintf(&b, " and read or cited %d work(s)", len(r.Works))
		if len(keys) > 0 {
			fmt.Fprintf(&b, ": \\citet{%s}", strings.Join(keys, ","))
		}
	}
	b.WriteString(". Appendix~\\ref{app:record} lists every question, search, paper, citation and tool error.")
	return b.String()
}

func texTurn(b *strings.Builder, t Turn) {
	fmt.Fprintf(b, "\\subsection{Question %d}\n\n\\begin{quote}\n%s\n\\end{quote}\n\n", t.N, texText(t.Question))
	fmt.Fprintf(b, "\\paragraph{Model and settings.} Asked %s; model %s; thinking %s; coordinator mode %s; %d steps, %d model calls, %d prompt and %d completion tokens; ended: %s.\n\n",
		tex(stamp(t.Started)), tex(listOr(t.Models, "none recorded")), onOff(t.Settings.Thinking), onOff(t.Settings.Coordinator),
		t.Settings.Steps, t.Settings.ModelCalls, t.Settings.PromptTokens, t.Settings.CompletionTokens, tex(orText(t.Settings.EndReason, "not finished")))
	b.WriteString("\\paragraph{Searches.}")
	items(b, len(t.Searches), func(i int) string {
		s := t.Searches[i]
		line := fmt.Sprintf("%s: ``%s'', %s, %d results", tex(s.Source), tex(s.Query), tex(stamp(s.At)), s.Results)
		if len(s.Notes) > 0 {
			line += " (" + tex(strings.Join(s.Notes, "; ")) + ")"
		}
		return line
	})
	b.WriteString("\\paragraph{Papers downloaded, parsed or read.}")
	items(b, len(t.Papers), func(i int) string {
		p := t.Papers[i]
		return fmt.Sprintf("%s: %s (%s)", tex(p.Action), cite(p.Key, orText(p.Title, "a paper since removed")), tex(ids(p.ArxivID, p.Bibcode, p.DOI)))
	})
	b.WriteString("\\paragraph{Cited in the answer.}")
	items(b, len(t.Citations), func(i int) string {
		c := t.Citations[i]
		what := cite(c.Key, orText(c.Title, c.Identifier))
		if c.Section != "" {
			what += ", section ``" + tex(c.Section) + "''"
		}
		line := fmt.Sprintf("%s: ``%s''", what, tex(c.Sentence))
		if c.Quote != "" {
			line += fmt.Sprintf(", quoting ``%s''", tex(c.Quote))
		}
		return line
	})
	if len(t.Errors) > 0 {
		b.WriteString("\\paragraph{Tool errors.}")
		items(b, len(t.Errors), func(i int) string {
			e := t.Errors[i]
			return fmt.Sprintf("\\texttt{%s} (%s): %s", tex(e.Tool), tex(orText(e.Status, "error")), tex(e.Message))
		})
	}
	fmt.Fprintf(b, "\\paragraph{Answer.} %s\n\n", texText(orText(t.Answer, "No answer was recorded.")))
}

// items writes an itemize of n lines, or "None."
func items(b *strings.Builder, n int, line func(i int) string) {
	if n == 0 {
		b.WriteString(" None.\n\n")
		return
	}
	b.WriteString("\n\\begin{itemize}\n")
	for i := range n {
		// "\item{}" so that a line starting with "[" is not read as
		// \item's optional label.
		b.WriteString("\\item{} " + line(i) + "\n")
	}
	b.WriteString("\\end{itemize}\n\n")
}

// cite is \citet{key}, or the escaped text when the work has no key (it is
// not in the library) or a key that is not safe to write into TeX.
func cite(key, text string) string {
	if !safeKey(key) {
		return tex(text)
	}
	return "\\citet{" + key + "}"
}

// safeKey reports whether a BibTeX key can be written into \citet{...}
// as it is: non-empty, printable ASCII, and none of TeX's active or
// grouping characters (bibcodes keep their "." and "&").
func safeKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if r <= ' ' || r >= 0x7F || strings.ContainsRune(`\{}%#~^$,`, r) {
			return false
		}
	}
	return true
}

// texText renders Markdown-ish text as LaTeX paragraphs: links and
// emphasis dropped, everything escaped.
func texText(s string) string {
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			l = strings.TrimLeft(strings.TrimSpace(l), "#> ")
			if l != "" {
				lines = append(lines, tex(plain(l)))
			}
		}
		if len(lines) > 0 {
			paras = append(paras, strings.Join(lines, "\n"))
		}
	}
	return strings.Join(paras, "\n\n")
}

// texSymbols are the non-ASCII characters rendered with LaTeX commands;
// other non-ASCII letters are left to inputenc (accented Latin) or
// replaced.
var texSymbols = map[rune]string{
	'–': "--", '—': "---", '“': "``", '”': "''", '‘': "`", '’': "'", '…': "\\ldots{}", '·': "$\\cdot$",
	'±': "$\\pm$", '×': "$\\times$", '≈': "$\\approx$", '≤': "$\\leq$", '≥': "$\\geq$", '∼': "$\\sim$", '→': "$\\rightarrow$",
	'°': "$^\\circ$", 'µ': "$\\mu$", 'Å': "\\AA{}", '⊙': "$\\odot$", '′': "$'$", '″': "$''$", '−': "$-$",
	'α': "$\\alpha$", 'β': "$\\beta$", 'γ': "$\\gamma$", 'δ': "$\\delta$", 'ε': "$\\epsilon$", 'ζ': "$\\zeta$", 'η': "$\\eta$",
	'θ': "$\\theta$", 'κ': "$\\kappa$", 'λ': "$\\lambda$", 'μ': "$\\mu$", 'ν': "$\\nu$", 'ξ': "$\\xi$", 'π': "$\\pi$",
	'ρ': "$\\rho$", 'σ': "$\\sigma$", 'τ': "$\\tau$", 'φ': "$\\phi$", 'χ': "$\\chi$", 'ψ': "$\\psi$", 'ω': "$\\omega$",
	'Δ': "$\\Delta$", 'Λ': "$\\Lambda$", 'Ω': "$\\Omega$", 'Σ': "$\\Sigma$", 'Φ': "$\\Phi$",
}

// texNoGlyph are the Latin Extended-A letters that T1 fonts with utf8
// inputenc cannot typeset (compiling stops on them).
const texNoGlyph = "ĦħĸĿŀŉŦŧſ"

// tex escapes text for LaTeX (math included: the record quotes, it does
// not typeset). Line breaks become spaces: the result is one run of text,
// safe inside any command argument (a blank line would end \title's).
func tex(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString("\\textbackslash{}")
		case '{', '}', '&', '%', '#', '_', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '~':
			b.WriteString("\\textasciitilde{}")
		case '^':
			b.WriteString("\\textasciicircum{}")
		case '<':
			b.WriteString("\\textless{}")
		case '>':
			b.WriteString("\\textgreater{}")
		case '|':
			b.WriteString("\\textbar{}")
		default:
			switch {
			case r < 0x80:
				if unicode.IsControl(r) {
					b.WriteByte(' ')
				} else {
					b.WriteRune(r)
				}
			case texSymbols[r] != "":
				b.WriteString(texSymbols[r])
			case (r <= 0xFF && unicode.IsLetter(r) || r >= 0x100 && r <= 0x17F) && !strings.ContainsRune(texNoGlyph, r):
				b.WriteRune(r) // Latin-1 and Latin Extended-A letters: inputenc knows them
			default:
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}
