// Package record writes a research session's record (L10) from its
// stored events alone, so it works for old sessions too: per question the
// models used, every literature search, every paper downloaded, parsed or
// read, the passages the answer cites, tool errors and the answer. It
// renders the record as Markdown, an AASTeX methods appendix whose \citet
// keys are the library's BibTeX export keys, JSON, and a zip with the raw
// event log. NewSince reruns a session's literature searches (no model) to
// list what appeared since.
package record

import (
	"time"
)

// Record is one session's record.
type Record struct {
	SessionID string    `json:"session_id"`
	Title     string    `json:"title"`
	Created   time.Time `json:"created_at"`
	Generated time.Time `json:"generated_at"`
	Turns     []Turn    `json:"turns"`
	// Works are the library papers the session read or cited, with their
	// BibTeX keys, in first-use order.
	Works []Work `json:"works"`
	// bibtex is the BibTeX of Works, keyed as Works say.
	bibtex string
}

// BibTeX returns the BibTeX entries of the works, with the keys the record
// cites them by.
func (r Record) BibTeX() string { return r.bibtex }

// Turn is one question and everything done to answer it.
type Turn struct {
	N        int       `json:"turn"`
	Question string    `json:"question"`
	Started  time.Time `json:"started_at"`
	Ended    time.Time `json:"ended_at,omitzero"`
	// Models are the models that answered (usually one; more after a
	// fallback), in order of first use.
	Models []string `json:"models"`
	// Settings are how the turn ran: steps taken, how it ended, tokens.
	Settings  Settings    `json:"settings"`
	Searches  []Search    `json:"searches"`
	Papers    []PaperUse  `json:"papers"`
	Citations []Citation  `json:"citations"`
	Errors    []ToolError `json:"tool_errors"`
	Answer    string      `json:"answer"`
	Agents    []string    `json:"agents,omitempty"` // sub-agents and workers that took part
	rag       map[int64]passage
}

// Settings are the run's parameters as the events recorded them.
type Settings struct {
	Steps            int    `json:"steps"`
	EndReason        string `json:"end_reason"`
	ModelCalls       int    `json:"model_calls"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	// Thinking reports that the model's reasoning was streamed (thought
	// events), Coordinator that the turn ran in coordinator mode (workers).
	Thinking    bool `json:"thinking"`
	Coordinator bool `json:"coordinator"`
}

// Search is one literature or library search.
type Search struct {
	// Tool is search_papers (ADS and arXiv) or rag_search (the library's
	// full text).
	Tool string `json:"tool"`
	// Source names where it searched ("ADS and arXiv", "arXiv", "library").
	Source  string    `json:"source"`
	Query   string    `json:"query"`
	Sort    string    `json:"sort,omitempty"`
	Rows    int       `json:"rows,omitempty"`
	At      time.Time `json:"at"`
	Results int       `json:"results"`
	Notes   []string  `json:"notes,omitempty"`
	Agent   string    `json:"agent"`
	// Found are the identifiers of what it found (search_papers), so that
	// a rerun can tell what is new.
	Found []Found `json:"found,omitempty"`
}

// Found identifies one search hit.
type Found struct {
	Title   string `json:"title"`
	ArxivID string `json:"arxiv_id,omitempty"`
	Bibcode string `json:"bibcode,omitempty"`
	DOI     string `json:"doi,omitempty"`
}

// PaperUse is a paper the session downloaded, parsed, read or looked up.
type PaperUse struct {
	Action  string    `json:"action"` // downloaded, parsed, read, looked up
	PaperID int64     `json:"paper_id"`
	Title   string    `json:"title"`
	ArxivID string    `json:"arxiv_id,omitempty"`
	Bibcode string    `json:"bibcode,omitempty"`
	DOI     string    `json:"doi,omitempty"`
	Key     string    `json:"bibtex_key,omitempty"`
	At      time.Time `json:"at"`
}

// Citation is something the answer cites: a library passage (paper,
// section, the sentence quoting it) or a work named by its identifier.
type Citation struct {
	PaperID int64  `json:"paper_id,omitempty"`
	Title   string `json:"title"`
	Key     string `json:"bibtex_key,omitempty"`
	// Identifier is the arXiv id, bibcode or DOI as the answer wrote it
	// (identifier citations).
	Identifier string `json:"identifier,omitempty"`
	PassageID  int64  `json:"passage_id,omitempty"`
	Section    string `json:"section,omitempty"`
	// Sentence is the answer's sentence that cites it.
	Sentence string `json:"sentence"`
	// Quote is the start of the cited passage.
	Quote string `json:"quote,omitempty"`
}

// ToolError is a tool call that failed.
type ToolError struct {
	Tool    string    `json:"tool"`
	Status  string    `json:"status,omitempty"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
	Agent   string    `json:"agent"`
}

// Work is a library paper the session read or cited.
type Work struct {
	PaperID int64  `json:"paper_id"`
	Title   string `json:"title"`
	Authors string `json:"authors"`
	Year    int    `json:"year,omitempty"`
	ArxivID string `json:"arxiv_id,omitempty"`
	Bibcode string `json:"bibcode,omitempty"`
	DOI     string `json:"doi,omitempty"`
	Key     string `json:"bibtex_key"`
	Cited   bool   `json:"cited"`
	Read    bool   `json:"read"`
}

// passage is a library passage a rag_search returned.
type passage struct {
	paperID int64
	title   string
	section string
	text    string
}
