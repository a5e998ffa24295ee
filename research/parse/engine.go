package parse

import (
	"context"
	"errors"
	"time"
)

// Engine converts one paper into Markdown.
type Engine interface {
	// Name is recorded with the document ("pdf", "arxiv-html", ...).
	Name() string
	// Parse converts in. It returns an error wrapping ErrNotApplicable when
	// the engine cannot handle this paper (no arXiv id, no PDF, ...), so the
	// caller tries the next engine.
	Parse(ctx context.Context, in Input, progress Progress) (Document, error)
}

// Input is what engines may use: identifiers and a local PDF.
type Input struct {
	ArxivID      string // version-less; "" when none
	ArxivVersion int    // 0 when unknown
	DOI          string // "" when none
	PDFPath      string // absolute path of a stored PDF; "" when none
}

// Document is an engine's result.
type Document struct {
	Markdown string
	Engine   string
	Pages    int    // PDF pages; 0 for HTML
	Source   string // URL or file the text came from
}

// Progress reports a step of a parse ("fetching arXiv HTML", "page 3 of 10").
// It may be nil.
type Progress func(step string)

func (p Progress) report(step string) {
	if p != nil {
		p(step)
	}
}

// Limits bound one parse. Zero fields take the defaults of DefaultLimits.
type Limits struct {
	MaxFileBytes int64         // PDF or HTML size
	MaxPages     int           // PDF pages
	MaxTextBytes int64         // extracted (decompressed) text layer
	Timeout      time.Duration // one engine run
}

// DefaultLimits are used for zero fields.
var DefaultLimits = Limits{MaxFileBytes: 100 << 20, MaxPages: 400, MaxTextBytes: 64 << 20, Timeout: 2 * time.Minute}

func (l Limits) withDefaults() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultLimits.MaxFileBytes
	}
	if l.MaxPages <= 0 {
		l.MaxPages = DefaultLimits.MaxPages
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultLimits.MaxTextBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultLimits.Timeout
	}
	return l
}

var (
	// ErrNotApplicable means an engine cannot handle the paper.
	ErrNotApplicable = errors.New("parse: engine not applicable")
	// ErrLimit means a file exceeded one of the Limits.
	ErrLimit = errors.New("parse: limit exceeded")
	// ErrNotParsed means a paper has no parsed document.
	ErrNotParsed = errors.New("parse: paper not parsed")
	// ErrEmpty means an engine produced no text (a scanned PDF, an empty page).
	ErrEmpty = errors.New("parse: no text found")
)
