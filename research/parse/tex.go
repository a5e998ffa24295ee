package parse

import "strings"

// inlineTeX prepares a formula's TeX for $…$ or $$…$$ in the Markdown: one
// line, trimmed, and written so that the reader's math parser always finds
// the closing delimiter and a table row never splits it — an unescaped $
// becomes \$, | becomes \vert, < and > become \lt and \gt (so nothing in
// the span reads as HTML should it ever be taken for text), and a trailing
// lone backslash (a control space "\ " that lost its space) becomes "\,".
// \| becomes \Vert; other escaped pairs ("\$", "\\") are kept as they are.
func inlineTeX(tex string) string {
	tex = strings.TrimSpace(collapse(tex))
	var b strings.Builder
	b.Grow(len(tex) + 8)
	for i := 0; i < len(tex); i++ {
		switch ch := tex[i]; {
		case ch == '\\' && i+1 < len(tex) && tex[i+1] == '|':
			b.WriteString(`\Vert `) // the same ‖, and no | for a table row to split on
			i++
		case ch == '\\' && i+1 < len(tex):
			b.WriteByte(ch)
			b.WriteByte(tex[i+1])
			i++
		case ch == '\\':
			b.WriteString(`\,`)
		case ch == '$':
			b.WriteString(`\$`)
		case ch == '|':
			b.WriteString(`\vert `)
		case ch == '<':
			b.WriteString(`\lt `)
		case ch == '>':
			b.WriteString(`\gt `)
		default:
			b.WriteByte(ch)
		}
	}
	return strings.TrimSpace(b.String())
}
