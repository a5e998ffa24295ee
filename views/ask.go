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
