package measure

import (
	"regexp"
	"strings"
)

// Markdown tables carry their units in the header ("$D$ (Mpc)",
// "$M_{\rm BH}$ [$10^8\,M_\odot$]"); a data row alone has bare numbers.
// tableHeaders finds every table and maps the start offset of each data
// row to its header cells.
func tableHeaders(text string) map[int][]string {
	out := map[int][]string{}
	var header []string
	state := 0 // 0: outside a table, 1: header seen, 2: in the body
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimSpace(text[start:end])
		switch {
		case !strings.HasPrefix(line, "|"):
			state = 0
		case state == 0:
			header, state = cells(line), 1
		case state == 1 && separatorRe.MatchString(line):
			state = 2
		case state == 2:
			lead := start + strings.Index(text[start:end], "|")
			out[lead] = header
		default:
			header, state = cells(line), 1
		}
		start = end + 1
	}
	return out
}

var separatorRe = regexp.MustCompile(`^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$`)

// cells splits a table row into its trimmed cells.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	parts := strings.Split(row, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// headerUnitRe splits a header into its symbol and the unit in the last
// parentheses or brackets.
var headerUnitRe = regexp.MustCompile(`^(.*?)\s*[(\[]([^()\[\]]+)[)\]]\s*$`)

// extractRow reads a data row under header: each numeric cell becomes
// "symbol = cell unit" and is read like a sentence; the object is the
// row's designation when it has one.
func extractRow(row string, header []string) []Measurement {
	cs := cells(row)
	object := ""
	for _, c := range cs {
		if loc := objectRe.FindStringIndex(normalize(c)); loc != nil {
			object = strings.TrimSpace(normalize(c)[loc[0]:loc[1]])
			break
		}
	}
	var out []Measurement
	for i, c := range cs {
		if i >= len(header) || !strings.ContainsAny(c, "0123456789") {
			continue
		}
		symbol, unit := header[i], ""
		if g := headerUnitRe.FindStringSubmatch(header[i]); g != nil {
			symbol, unit = g[1], g[2]
		}
		if strings.TrimSpace(symbol) == "" {
			continue
		}
		scale := ""
		if g := scaleRe.FindStringSubmatch(unit); g != nil {
			scale, unit = " × 10^"+g[1], strings.TrimSpace(unit[len(g[0]):])
		}
		synthetic := symbol + " = " + c + scale + " " + unit
		for _, m := range extractSentence(synthetic) {
			if m.Object == "" {
				m.Object = object
			}
			out = append(out, m)
		}
	}
	return out
}

// scaleRe is a power of ten heading a header's unit: "10^8 M☉", "$10^{8}\,M_\odot$".
var scaleRe = regexp.MustCompile(`^\$?\s*10\s*\^\s*\{?\s*([-+]?[0-9]+)\s*\}?\s*(?:\\,|\\;|~)?\s*`)
