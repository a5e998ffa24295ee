// Package parse turns papers into clean Markdown (docs/features.md T10): one Engine
// interface and several engines — arXiv HTML (LaTeXML, arxiv.org/html then
// ar5iv), IOPscience full-text pages for papers with an IOP DOI, A&A
// full-text pages (aanda.org) for papers with an A&A DOI, MinerU (its /file_parse Markdown, normalised) and GROBID (TEI)
// when those services are configured, and a local PDF engine built on poppler's `pdftotext -bbox-layout`
// whose words, lines and blocks are reassembled here (reading order across
// two columns, headings, de-hyphenation, running headers and footers and page
// numbers removed, the reference list detected).
//
// The Service picks the engine for a paper, enforces the limits (file size,
// page count, time, extracted-text size) and stores the result atomically:
// a paper has at most one current Markdown document, replaced in one
// transaction, never half-written. A failure leaves the paper's parse_status
// "failed" with the reason.
//
// Other packages read the parsed text through
//
//	func (s *Service) Markdown(ctx context.Context, paperID int64) (md string, engine string, err error)
//
// which returns an error wrapping ErrNotParsed when the paper has no parsed
// document. After a successful parse the Service calls its OnParsed hook
// (when set) with the paper id.
package parse
