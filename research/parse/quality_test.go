package parse

import (
	"compress/gzip"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode"
)

// The ground truth: journal-layout papers from Debian's
// texlive-publishers-doc, each a PDF with the LaTeX source it was made
// from (make deps-parse installs them).
type sample struct {
	name, pdf, tex string
	twoColumn      bool
}

const texdoc = "/usr/share/doc/texlive-doc/latex/"

var samples = []sample{
	{"aastex sample631", texdoc + "aastex/sample631.pdf", texdoc + "aastex/sample631.tex.gz", false},
	{"mnras guide", texdoc + "mnras/mnras_guide.pdf", texdoc + "mnras/mnras_guide.tex.gz", true},
	{"revtex apsguide", texdoc + "revtex/aps/apsguide4-2.pdf", texdoc + "revtex/aps/apsguide4-2.tex.gz", true},
	{"revtex apssamp", texdoc + "revtex/sample/aps/apssamp.pdf", texdoc + "revtex/sample/aps/apssamp.tex.gz", true},
}

// readGz reads a LaTeX source, gunzipping it when its name ends in .gz.
func readGz(path string) (string, error) {
	if !strings.HasSuffix(path, ".gz") {
		b, err := os.ReadFile(path)
		return string(b), err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(z)
	return string(b), err
}

// truth is what the LaTeX source says the paper contains.
type truth struct {
	words    []string   // body words, in order
	sections [][]string // \section titles as words
	paras    [][]string // source paragraphs (≥ 12 words) as words
}

var (
	texCommentRe = regexp.MustCompile(`(?m)(^|[^\\])%.*$`)
	texDropEnvRe = regexp.MustCompile(`(?s)\\begin\{(verbatim|equation\*?|align\*?|eqnarray\*?|displaymath|gather\*?|multline\*?|lstlisting)\}.*?\\end\{(verbatim|equation\*?|align\*?|eqnarray\*?|displaymath|gather\*?|multline\*?|lstlisting)\}`)
	texMathRe    = regexp.MustCompile(`(?s)\$\$.*?\$\$|\$[^$]*\$|\\\[.*?\\\]|\\\(.*?\\\)`)
	texVerbRe    = regexp.MustCompile(`\\verb\*?(.)[^\n]*?(?:\\verb)?`)
	texArgCmdRe  = regexp.MustCompile(`\\(label|ref|pageref|eqref|autoref|cref|[a-z]*cite[a-z]*|bibliography|bibliographystyle|includegraphics|usepackage|input|include|begin|end|hspace\*?|vspace\*?|url|href|newcommand|renewcommand|documentclass|doi|email|orcid|affiliation|altaffiliation|software|facility|graphicspath|setlength|plotone|plottwo|fig|figurenum|tablenum|nolinenumbers|linenumbers|startlongtable)(\[[^\]]*\])*\{[^{}]*\}`)
	texTeXRe     = regexp.MustCompile(`(\pL)\\TeX\b\\?`)
	texBeginRe   = regexp.MustCompile(`\\begin\{[^{}]*\}(\[[^\]]*\])?(\{[^{}]*\})?`)
	texOptRe     = regexp.MustCompile(`\\[A-Za-z]+\*?\[[^\]]*\]`)
	texDimenRe   = regexp.MustCompile(`[0-9.]+(pt|em|ex|cm|mm|in|bp)\b`)
	texCmdRe     = regexp.MustCompile(`\\[A-Za-z]+\*?`)
	texSectionRe = regexp.MustCompile(`\\section\*?(\[[^\]]*\])?\{`)
)

// loadTruth reads a gzipped LaTeX source into the test's ground truth.
func loadTruth(path string) (truth, error) {
	src, err := readGz(path)
	if err != nil {
		return truth{}, err
	}
	if i := strings.Index(src, `\begin{document}`); i >= 0 {
		src = src[i:]
	}
	if i := strings.LastIndex(src, `\end{document}`); i >= 0 {
		src = src[:i]
	}
	src = texCommentRe.ReplaceAllString(src, "$1")
	src = texDropEnvRe.ReplaceAllString(src, "\n\n")
	var t truth
	for _, loc := range texSectionRe.FindAllStringIndex(src, -1) {
		title := balanced(src[loc[1]-1:])
		title = texArgCmdRe.ReplaceAllString(title, " ")
		title = texMathRe.ReplaceAllString(title, " ")
		if w := words(texCmdRe.ReplaceAllString(title, " ")); len(w) > 0 {
			t.sections = append(t.sections, w)
		}
	}
	src = texTeXRe.ReplaceAllString(src, "${1}TEX") // REV\TeX, Bib\TeX: one word in print
	src = texVerbRe.ReplaceAllString(src, " ")
	src = texBeginRe.ReplaceAllString(src, " ")
	src = texOptRe.ReplaceAllString(src, " ")
	src = texDimenRe.ReplaceAllString(src, " ")
	src = texMathRe.ReplaceAllString(src, " ")
	for range 3 {
		src = texArgCmdRe.ReplaceAllString(src, " ")
	}
	src = texCmdRe.ReplaceAllString(src, " ")
	for _, p := range regexp.MustCompile(`\n\s*\n`).Split(src, -1) {
		w := words(p)
		t.words = append(t.words, w...)
		if len(w) >= 12 {
			t.paras = append(t.paras, w)
		}
	}
	return t, nil
}

// balanced returns the contents of the brace group s starts with.
func balanced(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[1:i]
			}
		}
	}
	return ""
}

// words splits text into lower-case words of two or more letters.
func words(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len([]rune(f)) >= 2 {
			out = append(out, f)
		}
	}
	return out
}

// quality is how well an extraction matches the truth.
type quality struct {
	wordRecall    float64 // share of the source's words present
	headingRecall float64 // share of \section titles found as Markdown headings
	order         float64 // share of unique 6-word runs in source order
	paras         float64 // share of source paragraphs intact and in order
	missing       []string
}

// measure scores out (Markdown or plain text) against t. markdown says
// whether headings can be looked for.
func measure(t truth, out string, markdown bool) quality {
	var q quality
	ow := words(unescape(out))
	have := map[string]int{}
	for _, w := range ow {
		have[w]++
	}
	need := map[string]int{}
	for _, w := range t.words {
		need[w]++
	}
	got := 0
	for w, n := range need {
		got += min(n, have[w])
	}
	q.wordRecall = float64(got) / float64(max(1, len(t.words)))

	var headings []string
	if markdown {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "#") {
				headings = append(headings, " "+strings.Join(words(unescape(l)), " ")+" ")
			}
		}
	}
	found := 0
	for _, s := range t.sections {
		want := " " + strings.Join(s, " ") + " "
		ok := false
		for _, h := range headings {
			if strings.Contains(h, want) {
				ok = true
				break
			}
		}
		if ok {
			found++
		} else {
			q.missing = append(q.missing, strings.Join(s, " "))
		}
	}
	q.headingRecall = float64(found) / float64(max(1, len(t.sections)))
	q.order, q.paras = paragraphOrder(t, out)
	return q
}

func unescape(s string) string { return strings.ReplaceAll(s, `\`, "") }

// paragraphOrder measures reading order two ways. order: the share of
// 6-word runs unique in both texts that appear in source order (longest
// increasing subsequence). paras: the share of source paragraphs that
// come out intact and in order — starting an output paragraph (blank-line
// separated), ending in the same one, in sequence.
func paragraphOrder(t truth, out string) (order, paras float64) {
	const n = 6
	type at struct{ pos, para, off int }
	var ow []string
	var where []at
	for pi, p := range regexp.MustCompile(`\n\s*\n`).Split(unescape(out), -1) {
		for off, w := range words(p) {
			ow = append(ow, w)
			where = append(where, at{len(where), pi, off})
		}
	}
	index := func(ws []string) map[string][]int {
		m := map[string][]int{}
		for i := 0; i+n <= len(ws); i++ {
			k := strings.Join(ws[i:i+n], " ")
			m[k] = append(m[k], i)
		}
		return m
	}
	src, dst := index(t.words), index(ow)
	unique := func(k string) (int, bool) {
		if len(src[k]) == 1 && len(dst[k]) == 1 {
			return dst[k][0], true
		}
		return 0, false
	}
	var all []int
	for i := 0; i+n <= len(t.words); i++ {
		if p, ok := unique(strings.Join(t.words[i:i+n], " ")); ok {
			all = append(all, p)
		}
	}
	var starts []int
	for _, p := range t.paras {
		first, last := -1, -1
		for i := 0; i+n <= len(p) && i <= 2; i++ {
			if d, ok := unique(strings.Join(p[i:i+n], " ")); ok {
				if where[d].off <= i+3 && where[d].off >= i {
					first = d
				}
				break
			}
		}
		for i := len(p) - n; i >= 0 && i >= len(p)-n-2; i-- {
			if d, ok := unique(strings.Join(p[i:i+n], " ")); ok {
				last = d
				break
			}
		}
		if first >= 0 && last >= first && where[last].para == where[first].para {
			starts = append(starts, first)
		}
	}
	return float64(lis(all)) / float64(max(1, len(all))), float64(lis(starts)) / float64(max(1, len(t.paras)))
}

// lis is the length of the longest increasing subsequence.
func lis(xs []int) int {
	var tails []int
	for _, x := range xs {
		i, j := 0, len(tails)
		for i < j {
			h := (i + j) / 2
			if tails[h] < x {
				i = h + 1
			} else {
				j = h
			}
		}
		if i == len(tails) {
			tails = append(tails, x)
		} else {
			tails[i] = x
		}
	}
	return len(tails)
}
