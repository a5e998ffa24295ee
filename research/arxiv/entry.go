package arxiv

import "time"

// Result is one page of search results.
type Result struct {
	// Total is how many entries match the query (opensearch:totalResults);
	// it can exceed what paging may reach (arXiv serves at most 30000).
	Total int
	// Start is the 0-based index of the first entry (opensearch:startIndex).
	Start int
	// PerPage is the page size the API used (opensearch:itemsPerPage).
	PerPage int
	// Entries are the papers on this page, in the API's order; empty (not an
	// error) when nothing matched or the page is past the end.
	Entries []Entry
	// Skipped describes the entries of the page that were left out because
	// they could not be used (an id that is not an arXiv identifier), one
	// line each, so that callers can log them; the rest of the
	// page is kept.
	Skipped []string
}

// Entry is one paper as the API describes it. Text fields have their
// whitespace collapsed (the API hard-wraps titles and abstracts); fields the
// API did not send are zero.
type Entry struct {
	// ID is the identifier with the version this entry describes.
	ID ID
	// Title is the title, possibly with TeX ($z\sim6$) as submitted.
	Title string
	// Summary is the abstract.
	Summary string
	// Authors in the order given, with affiliations when the submitter gave them.
	Authors []Author
	// Published is when version 1 was submitted; Updated when this version was.
	Published, Updated time.Time
	// PrimaryCategory is arxiv:primary_category (e.g. "astro-ph.GA"); when
	// the API omits it, the first category.
	PrimaryCategory string
	// Categories lists every category, primary included, without duplicates.
	Categories []string
	// DOI (arxiv:doi), JournalRef (arxiv:journal_ref) and Comment
	// (arxiv:comment, e.g. "12 pages, 5 figures, accepted by ApJ") as given.
	DOI, JournalRef, Comment string
	// AbsURL, PDFURL and DOIURL are the links the API gave (abstract page,
	// PDF, DOI resolver); AbsURL falls back to the entry's id URL. To link to
	// the configured mirrors instead, use the package functions PDFURL,
	// HTMLURL and Ar5ivURL with ID.
	AbsURL, PDFURL, DOIURL string
}

// Author is one author of an Entry.
type Author struct {
	Name         string
	Affiliations []string
}

// AuthorNames returns the authors' names in order.
func (e Entry) AuthorNames() []string {
	out := make([]string, len(e.Authors))
	for i, a := range e.Authors {
		out[i] = a.Name
	}
	return out
}
