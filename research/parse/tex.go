package parse

import (
	"strings"
)

// inlineTeX prepares a formula's TeX for $…$ or $$…$$ in the Markdown: one
// line, trimmed, and written so that the reader's math parser always finds
// the closing delimiter and nothing in the span could read as HTML should
// it ever be taken for text — an unescaped $ becomes \$; < and > become \lt
// and \gt in math, \textless{} and \textgreater{} inside text-mode groups
// (\text{…}, \mbox{…}, …), which KaTeX renders the same; a trailing lone
// backslash (a control space "\ " that lost its space) becomes "\,".
// Escaped pairs ("\$", "\|", "\\") and | are kept as they are (a table row
// escapes | itself: see tableMarkdown).
func inlineTeX(tex string) string {
	tex = strings.TrimSpace(collapse(tex))
	var b strings.Builder
	b.Grow(len(tex) + 8)
	depth := 0       // brace depth
	textAt := -1     // depth of the innermost text-mode group, -1 in math
	pending := false // a text-mode command waits for its {
	for i := 0; i < len(tex); i++ {
		switch ch := tex[i]; {
		case ch == '\\' && i+1 < len(tex) && isLetter(tex[i+1]):
			j := i + 1
			for j < len(tex) && isLetter(tex[j]) {
				j++
			}
			name := tex[i+1 : j]
			b.WriteString(tex[i:j])
			pending = textCommands[name] && textAt < 0
			i = j - 1
		case ch == '\\' && i+1 < len(tex):
			b.WriteByte(ch)
			b.WriteByte(tex[i+1])
			i++
		case ch == '\\':
			b.WriteString(`\,`)
		case ch == '{':
			depth++
			if pending {
				textAt, pending = depth, false
			}
			b.WriteByte(ch)
		case ch == '}':
			if depth == textAt {
				textAt = -1
			}
			depth = max(depth-1, 0)
			b.WriteByte(ch)
		case ch == '$':
			b.WriteString(`\$`)
		case ch == '<' && textAt >= 0:
			b.WriteString(`\textless{}`)
		case ch == '>' && textAt >= 0:
			b.WriteString(`\textgreater{}`)
		case ch == '<':
			b.WriteString(`\lt `)
		case ch == '>':
			b.WriteString(`\gt `)
		default:
			if ch != ' ' {
				pending = false
			}
			b.WriteByte(ch)
		}
	}
	return strings.TrimSpace(b.String())
}

// textCommands take a text-mode argument.
var textCommands = map[string]bool{"text": true, "textrm": true, "textbf": true, "textit": true, "textsf": true,
	"texttt": true, "textup": true, "textnormal": true, "textmd": true, "textsl": true, "textsc": true, "emph": true,
	"mbox": true, "hbox": true, "fbox": true}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// escapeCellMath makes a table cell's formulas safe in a GFM table row: a
// | inside $…$ becomes \| (the table unescapes it before the formula is
// read) and TeX's own \| becomes \Vert (which it would otherwise lose).
// Text outside formulas is escaped already.
func escapeCellMath(cell string) string {
	if !strings.Contains(cell, "|") {
		return cell
	}
	var b strings.Builder
	inMath := false
	for i := 0; i < len(cell); i++ {
		switch ch := cell[i]; {
		case ch == '\\' && i+1 < len(cell) && cell[i+1] == '|' && inMath:
			b.WriteString(`\Vert `)
			i++
		case ch == '\\' && i+1 < len(cell):
			b.WriteByte(ch)
			b.WriteByte(cell[i+1])
			i++
		case ch == '$':
			inMath = !inMath
			b.WriteByte(ch)
			if i+1 < len(cell) && cell[i+1] == '$' { // $$: one delimiter
				b.WriteByte('$')
				i++
			}
		case ch == '|' && inMath:
			b.WriteString(`\|`)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// escapeStrayDollars keeps the $…$ and $$…$$ formulas of Markdown written
// by another tool (MinerU) and escapes every other $ — a price, "US$50" —
// as the other engines do, so the reader, which lets a digit follow a
// formula in paper text ("$\sim$10 Myr"), takes only formulas for math.
// A $ opens a formula when the next $ on its line closes it by pandoc's
// rule (no space inside either delimiter, no digit after the closing one),
// or is followed by a digit but the span holds TeX (\, ^, _ or {).
func escapeStrayDollars(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
		case s[i] != '$':
			b.WriteByte(s[i])
			i++
		case strings.HasPrefix(s[i:], "$$"):
			if j := strings.Index(s[i+2:], "$$"); j > 0 {
				b.WriteString(s[i : i+2+j+2])
				i += j + 4
				continue
			}
			b.WriteString(`\$\$`)
			i += 2
		default:
			if end, ok := formulaEnd(s, i); ok {
				b.WriteString(s[i : end+1])
				i = end + 1
				continue
			}
			b.WriteString(`\$`)
			i++
		}
	}
	return b.String()
}

// formulaEnd is the index of the $ that closes a formula opened by the $
// at s[i], if the next unescaped $ on the line does.
func formulaEnd(s string, i int) (int, bool) {
	if i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
		return 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return 0, false
		case '\\':
			j++
		case '$':
			if s[j-1] == ' ' || j == i+1 {
				return 0, false
			}
			if j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' && !strings.ContainsAny(s[i+1:j], `\^_{`) {
				return 0, false
			}
			return j, true
		}
	}
	return 0, false
}

// splitMath splits s at its unescaped $ signs: even parts are outside
// formulas, odd parts inside.
func splitMath(s string) []string {
	var parts []string
	last := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '$':
			parts = append(parts, s[last:i])
			last = i + 1
		}
	}
	return append(parts, s[last:])
}
