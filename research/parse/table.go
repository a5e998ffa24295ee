package parse

import (
	"html"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// table converts a LaTeXML tabular to a Markdown table when it is a plain
// grid (same number of cells per row, no spans), otherwise to a minimal
// HTML table (text, colspan and rowspan only).
func (c *lxConv) table(n *xhtml.Node) string { return tableMarkdown(n, c.inline) }

// tableMarkdown converts an HTML table, each cell's content by cellText.
func tableMarkdown(n *xhtml.Node, cellText func(*xhtml.Node) string) string {
	type cell struct {
		text             string
		colspan, rowspan int
	}
	var rows [][]cell
	grid := true
	for _, tr := range findAll(n, func(x *xhtml.Node) bool { return x.DataAtom == atom.Tr || hasClass(x, "ltx_tr") }) {
		var row []cell
		for _, td := range findAll(tr, func(x *xhtml.Node) bool {
			return x.DataAtom == atom.Td || x.DataAtom == atom.Th || hasClass(x, "ltx_td")
		}) {
			cs, rs := spanAttr(td, "colspan"), spanAttr(td, "rowspan")
			if cs > 1 || rs > 1 {
				grid = false
			}
			row = append(row, cell{cellText(td), cs, rs})
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return ""
	}
	for _, r := range rows {
		if len(r) != len(rows[0]) {
			grid = false
		}
	}
	var b strings.Builder
	if grid {
		for i, r := range rows {
			b.WriteString("|")
			for _, cl := range r {
				b.WriteString(" " + escapeCellMath(cl.text) + " |")
			}
			b.WriteString("\n")
			if i == 0 {
				b.WriteString("|" + strings.Repeat(" --- |", len(r)) + "\n")
			}
		}
		return b.String()
	}
	b.WriteString("<table>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, cl := range r {
			b.WriteString("<td")
			if cl.colspan > 1 {
				b.WriteString(` colspan="` + strconv.Itoa(cl.colspan) + `"`)
			}
			if cl.rowspan > 1 {
				b.WriteString(` rowspan="` + strconv.Itoa(cl.rowspan) + `"`)
			}
			b.WriteString(">" + html.EscapeString(strings.ReplaceAll(cl.text, `\`, "")) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>")
	return b.String()
}

func spanAttr(n *xhtml.Node, key string) int {
	v, err := strconv.Atoi(attr(n, key))
	if err != nil || v < 1 {
		return 1
	}
	return min(v, 100)
}
