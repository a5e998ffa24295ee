package parse

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// layoutMarkdown reassembles decoded pages into Markdown.
func layoutMarkdown(pages []page) string {
	dropRotated(pages)
	dropMargins(pages)
	a := &assembler{body: bodySize(pages), bodyFont: fontBody(pages), frontMatter: true}
	dropLineNumbers(pages, a.body)
	if len(pages) > 0 {
		for _, b := range pages[0].blocks {
			for _, l := range b.lines {
				a.titleSize = max(a.titleSize, l.size)
			}
		}
	}
	for i := range pages {
		splitGutter(&pages[i], a.body)
		attachLabels(&pages[i], a.body)
	}
	for i, p := range pages {
		if i > 0 {
			a.frontMatter = false
		}
		for _, b := range mergeSideBySide(readingOrder(p), a.body, p.width/2) {
			a.addBlock(styleBlock(b, p.runs), i == 0)
		}
	}
	demoteRuns(a.paras)
	markNumberedRefs(a.paras)
	hy := hyphenated(a.paras)
	cites := pdfCitations(a.paras, hy)
	var out strings.Builder
	entry := 0
	for _, p := range a.paras {
		if len(p.lines) == 0 {
			continue
		}
		raw := joinLines(p.lines, hy)
		var txt string
		switch {
		case p.kind == kindReference:
			txt = linkIdentifiers(raw)
			entry++
			if m := refStartRe.FindStringSubmatch(raw); m != nil && strings.HasPrefix(m[1], "[") {
				txt = `<span id="ref-` + strings.Trim(m[1], "[]") + `"></span>` + txt
			} else if cites == nil || len(cites.refs) == 0 {
				txt = `<span id="ref-` + strconv.Itoa(entry) + `"></span>` + txt
			}
		case p.kind == kindText && cites != nil:
			txt = cites.linkPlain(raw)
		default:
			txt = escapeMarkdown(raw)
		}
		if txt == "" {
			continue
		}
		switch p.kind {
		case kindHeading:
			out.WriteString(strings.Repeat("#", p.level) + " " + txt)
		case kindReference, kindList:
			out.WriteString("- " + txt)
		default:
			if rest, ok := strings.CutPrefix(txt, "• "); ok {
				out.WriteString("- " + rest) // a bulleted item
				break
			}
			out.WriteString(escapeLineStart(txt))
		}
		out.WriteString("\n\n")
	}
	return strings.TrimSpace(out.String()) + "\n"
}

var hyphenWordRe = regexp.MustCompile(`\p{L}+-\p{L}+`)

// hyphenated collects the hyphenated words that occur inside lines, so a
// line-end hyphen in one of them is kept ("two-column") and others are
// removed ("para-graph" → "paragraph").
func hyphenated(ps []para) map[string]bool {
	set := map[string]bool{}
	for _, p := range ps {
		for _, l := range p.lines {
			for _, w := range hyphenWordRe.FindAllString(l, -1) {
				set[strings.ToLower(w)] = true
			}
		}
	}
	return set
}

// joinLines joins a paragraph's lines, undoing end-of-line hyphenation.
func joinLines(lines []string, hy map[string]bool) string {
	var b strings.Builder
	for i, l := range lines {
		l = fixLigatures(strings.TrimSpace(l))
		if i == 0 {
			b.WriteString(l)
			continue
		}
		cur := b.String()
		first, _ := utf8.DecodeRuneInString(l)
		if strings.HasSuffix(cur, "-") && !strings.HasSuffix(cur, "--") && unicode.IsLower(first) && endsWithLetterBefore(cur) {
			head := lastWord(cur[:len(cur)-1])
			tail := firstWord(l)
			if hy[strings.ToLower(head+"-"+tail)] {
				b.WriteString(l) // a real compound: keep the hyphen
			} else {
				s := cur[:len(cur)-1] + l
				b.Reset()
				b.WriteString(s)
			}
			continue
		}
		b.WriteByte(' ')
		b.WriteString(l)
	}
	return b.String()
}

func endsWithLetterBefore(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-1])
	return unicode.IsLetter(r)
}

func lastWord(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	return s[i+1:]
}

func firstWord(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return s
	}
	return s[:i]
}

var ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st", "\u00ad", "")

func fixLigatures(s string) string { return ligatures.Replace(s) }

var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `<`, `\<`, `>`, `\>`, `$`, `\$`, `|`, `\|`)

// escapeMarkdown makes extracted text literal in Markdown (and keeps a
// stray $ from starting math).
func escapeMarkdown(s string) string { return mdEscaper.Replace(s) }

var blockStartRe = regexp.MustCompile(`^([0-9]{1,9})([.)])(\s)`)

// escapeLineStart keeps a paragraph from reading as a heading, list or rule.
func escapeLineStart(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsRune("#+-=~", rune(s[0])) {
		return `\` + s
	}
	return blockStartRe.ReplaceAllString(s, `$1\$2$3`)
}

// identifierRe finds DOIs and arXiv ids in a reference.
var identifierRe = regexp.MustCompile(`(?i)\b(?:doi:\s?|https?://(?:dx\.)?doi\.org/)?(10\.[0-9]{4,9}/[^\s"<>]+[^\s"<>.,;)\]])|\barXiv:\s?([0-9]{4}\.[0-9]{4,5}(?:v[0-9]+)?|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})`)

// linkIdentifiers escapes a reference and links its DOIs (doi.org) and
// arXiv ids (arxiv.org/abs).
func linkIdentifiers(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range identifierRe.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(escapeMarkdown(s[last:m[0]]))
		target := ""
		if m[2] >= 0 {
			target = "https://doi.org/" + s[m[2]:m[3]]
		} else {
			target = "https://arxiv.org/abs/" + s[m[4]:m[5]]
		}
		b.WriteString("[" + escapeMarkdown(s[m[0]:m[1]]) + "](<" + strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(target) + ">)")
		last = m[1]
	}
	b.WriteString(escapeMarkdown(s[last:]))
	return b.String()
}

// pdfCitations indexes the reference list for linking citations in the
// text: a "[n]"-style list by its labels (entry "[n]" is #ref-n), else an
// unnumbered (author–year) list by each entry's first author and year
// (entry n, counted in order, is #ref-n). Nil when there is nothing to link.
func pdfCitations(ps []para, hy map[string]bool) *mdNorm {
	n := &mdNorm{refs: map[string]int{}, byAuthorYear: map[string]int{}}
	for _, p := range ps {
		if p.kind != kindReference || len(p.lines) == 0 {
			continue
		}
		if m := refStartRe.FindStringSubmatch(p.lines[0]); m != nil && strings.HasPrefix(m[1], "[") {
			label := strings.Trim(m[1], "[]")
			if num, err := strconv.Atoi(label); err == nil {
				n.refs[label] = num
			}
		}
	}
	if len(n.refs) > 0 {
		return n
	}
	entry := 0
	for _, p := range ps {
		if p.kind != kindReference || len(p.lines) == 0 {
			continue
		}
		entry++
		if key, ok := refKey(joinLines(p.lines, hy)); ok && n.byAuthorYear[key] == 0 {
			n.byAuthorYear[key] = entry
		}
	}
	if len(n.byAuthorYear) == 0 {
		return nil
	}
	return n
}

var citeTokenRe = regexp.MustCompile(`[0-9]+|[^0-9]+`)
