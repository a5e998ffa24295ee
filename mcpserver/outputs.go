package mcpserver

import (
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
)

// The structured outputs of the exposed tools. Each is decoded from the
// agent tool's Result.Metadata (same keys) plus "text", the tool's text
// output, so a tool needs no MCP-specific code; the output schema is
// derived from the type.

// SearchPapersOutput is search_papers' structured output.
type SearchPapersOutput struct {
	Papers  []literature.Paper `json:"papers" jsonschema:"the merged ADS and arXiv hits, best first"`
	Notes   []string           `json:"notes,omitempty" jsonschema:"what went wrong with a source, if anything"`
	Library map[string]string  `json:"library,omitempty" jsonschema:"for hits already in the library: hit index (0-based) to library number and PDF status"`
}

// PaperMetadataOutput is get_paper_metadata's structured output.
type PaperMetadataOutput struct {
	Paper     store.Paper `json:"paper"`
	InLibrary bool        `json:"in_library" jsonschema:"whether the paper is in the user's library (then paper.id is its library number)"`
}

// LibrarySearchOutput is library_search's structured output.
type LibrarySearchOutput struct {
	Papers []store.Paper `json:"papers" jsonschema:"this page of the library, id is the library number"`
	Total  int           `json:"total" jsonschema:"how many papers match in all"`
	Offset int           `json:"offset"`
	Limit  int           `json:"limit"`
}

// RagSearchOutput is rag_search's structured output.
type RagSearchOutput struct {
	Answer rag.Answer `json:"answer" jsonschema:"the passages found (numbered from 1) and the answer's sentences citing them"`
	Text   string     `json:"text" jsonschema:"the answer and passages as text, with reader links"`
}

// PaperContentOutput is get_paper_content's structured output.
type PaperContentOutput struct {
	PaperID int64  `json:"paper_id" jsonschema:"the library number"`
	Engine  string `json:"engine" jsonschema:"the engine that made the Markdown"`
	Text    string `json:"text" jsonschema:"the requested part of the paper as Markdown, with a hint on how to continue"`
}

// TargetOutput is query_target's structured output.
type TargetOutput struct {
	Object sesame.Object `json:"object"`
}

// NoteOutput is save_note's structured output.
type NoteOutput struct {
	Note store.PaperNote `json:"note"`
}

// ImportOutput is import_paper's structured output.
type ImportOutput struct {
	Paper   store.Paper `json:"paper" jsonschema:"the library entry; id is its library number"`
	Created bool        `json:"created" jsonschema:"false when the paper was already in the library"`
}

// ObjectLiteratureOutput is object_literature's structured output.
type ObjectLiteratureOutput struct {
	Object sesame.Object `json:"object" jsonschema:"the merged resolution (SIMBAD, NED, VizieR)"`
	Text   string        `json:"text" jsonschema:"the literature, library passages and notes about the object, with reader links"`
}

// CompareOutput is compare_measurements' structured output.
type CompareOutput struct {
	Rows int    `json:"rows" jsonschema:"how many reported values the library holds"`
	Unit string `json:"unit" jsonschema:"the unit most values share"`
	Text string `json:"text" jsonschema:"the values with their uncertainties, papers and links to the sentences"`
}
