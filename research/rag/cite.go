package rag

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a generated answer, its citation markers
// taken out: Cites are the passage numbers (1-based, ascending, distinct)
// it cites.
type Sentence struct {
	Text  string
	Cites []int
}

// citeRe matches a citation marker: [1], [1, 3], [2-4], [1; 2].
var citeRe = regexp.MustCompile(`\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]`)

// CheckedAnswer is a generated answer after citation checking.
type CheckedAnswer struct {
	// Paragraphs hold the sentences kept: each cites at least one passage
	// that exists, and only such passages.
	Paragraphs [][]Sentence
	// Removed are sentences dropped because they cite no existing passage.
	Removed []string
	// Dropped counts citation markers that named a passage that does not
	// exist (removed from sentences that also cite a real one).
	Dropped int
}

// Empty reports whether no sentence survived.
func (a CheckedAnswer) Empty() bool { return len(a.Paragraphs) == 0 }

// CheckCitations splits text into paragraphs and sentences and keeps the
// sentences that cite at least one of the passages 1..n. Citation markers
// that stand after a sentence's full stop ("... jet. [2]") belong to that
// sentence.
func CheckCitations(text string, n int) CheckedAnswer {
	var out CheckedAnswer
	for _, para := range splitParagraphs(text) {
		var kept []Sentence
		for _, raw := range splitSentences(para) {
			s, dropped := parseSentence(raw, n)
			out.Dropped += dropped
			switch {
			case s.Text == "":
			case len(s.Cites) == 0:
				out.Removed = append(out.Removed, s.Text)
			default:
				kept = append(kept, s)
			}
		}
		if len(kept) > 0 {
			out.Paragraphs = append(out.Paragraphs, kept)
		}
	}
	return out
}

var blankLineRe = regexp.MustCompile(`\n[ \t]*\n`)

func splitParagraphs(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	for _, p := range blankLineRe.Split(text, -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// abbreviations that end with a full stop without ending a sentence.
var abbreviations = map[string]bool{"al": true, "e.g": true, "i.e": true, "fig": true, "figs": true, "eq": true,
	"eqs": true, "sect": true, "sec": true, "cf": true, "vs": true, "approx": true, "ref": true, "refs": true,
	"tab": true, "no": true, "resp": true}

// splitSentences cuts a paragraph after ".", "!" or "?" (and any closing
// quotes/brackets and citation markers right after) when what follows is
// white space then an upper-case letter, a digit-free opening or the end;
// a line break before a list item also ends a sentence.
func splitSentences(para string) []string {
	var out []string
	start := 0
	i := 0
	for i < len(para) {
		c := para[i]
		if c == '\n' {
			rest := strings.TrimLeft(para[i+1:], " \t")
			if strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") || startsNumbered(rest) {
				out = append(out, para[start:i])
				start = i + 1
			}
			i++
			continue
		}
		if c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		end := i + 1
		for end < len(para) && strings.ContainsRune(`)"'”’`, rune(para[end])) {
			end++
		}
		// Citation markers after the stop belong to this sentence.
		for {
			rest := strings.TrimLeft(para[end:], " ")
			loc := citeRe.FindStringIndex(rest)
			if loc == nil || loc[0] != 0 {
				break
			}
			end += len(para[end:]) - len(rest) + loc[1]
			if end < len(para) && para[end] == '.' {
				end++
			}
		}
		if c == '.' && isAbbreviation(para[start:i]) {
			i = end
			continue
		}
		next := strings.TrimLeft(para[end:], " \t\n")
		if next == "" || (len(next) < len(para[end:]) && startsSentence(next)) {
			out = append(out, para[start:end])
			start = end
		}
		i = end
	}
	if start < len(para) {
		out = append(out, para[start:])
	}
	return out
}

func startsNumbered(s string) bool {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j > 0 && j+1 < len(s) && s[j] == '.' && s[j+1] == ' '
}

func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || r == '$' || r == '\\' || r == '(' || r == '"' || r == '“' || unicode.Is(unicode.Han, r)
}

// isAbbreviation reports whether the text before a full stop ends with
// a known abbreviation or a single letter (an initial).
func isAbbreviation(before string) bool {
	k := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	w := strings.ToLower(before[k+1:])
	return abbreviations[w] || (utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0]))
}

// parseSentence extracts the citation numbers of raw (those in 1..n) and
// the text without markers; dropped counts numbers outside 1..n.
func parseSentence(raw string, n int) (Sentence, int) {
	seen := map[int]bool{}
	var cites []int
	dropped := 0
	for _, m := range citeRe.FindAllString(raw, -1) {
		for _, num := range citeNumbers(m) {
			switch {
			case num < 1 || num > n:
				dropped++
			case !seen[num]:
				seen[num] = true
				cites = append(cites, num)
			}
		}
	}
	text := citeRe.ReplaceAllString(raw, "")
	text = strings.Join(strings.Fields(text), " ")
	text = strings.NewReplacer(" .", ".", " ,", ",", " ;", ";", " :", ":", " !", "!", " ?", "?").Replace(text)
	slices.Sort(cites)
	return Sentence{Text: text, Cites: cites}, dropped
}

// citeNumbers expands "[1, 3-5]" to 1, 3, 4, 5 (ranges capped at 20).
func citeNumbers(marker string) []int {
	body := strings.Trim(marker, "[] ")
	var out []int
	for _, part := range strings.FieldsFunc(body, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(strings.ReplaceAll(part, "–", "-"), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			continue
		}
		if !isRange {
			out = append(out, a)
			continue
		}
		b, err := strconv.Atoi(strings.TrimSpace(hi))
		if err != nil || b < a || b-a > 20 {
			out = append(out, a)
			continue
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	return out
}
