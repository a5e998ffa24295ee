package views

import "fmt"

// AskBox is the "Ask my library" panel of the library page.
type AskBox struct {
	BasePath string
	// KeywordOnly is set when no embedding model is configured.
	KeywordOnly bool
	// Progress describes indexing still under way ("" when idle).
	Progress string
	// Searchable is how many papers can be asked about.
	Searchable int
	Answer     *AskAnswer // the answer to show, if a question was asked
}

// URL prefixes path with the base path.
func (a AskBox) URL(path string) string { return a.BasePath + path }

// AskAnswer is a question answered from the library's passages.
type AskAnswer struct {
	Question string
	// Tag and Year are the filters as typed ("" = all papers).
	Tag, Year string
	// Error refuses the question (empty, too long); nothing else is set.
	Error string
	// Note explains keyword-only retrieval ("" for hybrid).
	Note string
	// NoSupport: the library holds no passage that answers; Message says so.
	NoSupport bool
	Message   string
	// GenerationError: passages were found but no answer could be written.
	GenerationError string
	Paragraphs      [][]AskSentence
	Removed         int // sentences dropped for citing no passage
	Passages        []AskPassage
}

// AskSentence is a sentence of the answer and the passages it cites.
type AskSentence struct {
	Text  string
	Cites []AskCite
}

// AskCite is a citation marker linking to passage N.
type AskCite struct {
	N   int
	URL string // the reader at the passage
}

// AskPassage is a numbered source passage.
type AskPassage struct {
	N        int
	ID       int64
	Title    string
	Year     string
	Section  string
	Excerpt  string
	URL      string // the reader at the passage
	PaperURL string // the paper's page
}

func citeLabel(n int) string { return fmt.Sprintf("[%d]", n) }

func passageAnchor(n int) string { return fmt.Sprintf("source-%d", n) }

func removedNote(n int) string {
	if n == 1 {
		return "1 sentence of the model's answer cited no passage and was left out."
	}
	return fmt.Sprintf("%d sentences of the model's answer cited no passage and were left out.", n)
}

func askTag(a *AskAnswer) string {
	if a == nil {
		return ""
	}
	return a.Tag
}

func askYear(a *AskAnswer) string {
	if a == nil {
		return ""
	}
	return a.Year
}

// TexSegment is a run of an answer's text: plain, or a TeX formula with
// its delimiters, which math.js renders with KaTeX.
type TexSegment struct {
	Text          string
	Math, Display bool
}

// texSegments splits s at $…$ and $$…$$ formulas (a \$ is a dollar sign;
// an unclosed or empty formula stays plain text).
func texSegments(s string) []TexSegment {
	var out []TexSegment
	plain := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || (i > 0 && s[i-1] == '\\') {
			continue
		}
		delim := "$"
		if i+1 < len(s) && s[i+1] == '$' {
			delim = "$$"
		}
		end := closingDollar(s, i+len(delim), delim)
		if end < 0 {
			i += len(delim) - 1
			continue
		}
		if i > plain {
			out = append(out, TexSegment{Text: s[plain:i]})
		}
		stop := end + len(delim)
		out = append(out, TexSegment{Text: s[i:stop], Math: true, Display: delim == "$$"})
		plain, i = stop, stop-1
	}
	if plain < len(s) {
		out = append(out, TexSegment{Text: s[plain:]})
	}
	return out
}

// closingDollar is the index of the delimiter that closes a formula whose
// body starts at from, or -1 (none, or an empty body).
func closingDollar(s string, from int, delim string) int {
	for j := from; j+len(delim) <= len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j:j+len(delim)] == delim {
			if j == from {
				return -1
			}
			return j
		}
	}
	return -1
}

func mathClass(seg TexSegment) string {
	if seg.Display {
		return "math math-display"
	}
	return "math math-inline"
}
