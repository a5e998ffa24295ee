package views

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LibraryPage is /library: the import form, the filters and the list of
// papers (docs/features.md L2–L4).
type LibraryPage struct {
	Chrome
	Query, Tag, Year string // the filters as typed
	Status           string // the download-status filter ("" = any)
	Sort             string // the order ("" = best match when searching, newest added otherwise)
	Import           ImportForm
	// ResultsHTML is the rendered LibraryResultsList (rendered once and
	// cached by the handler for each query and library version).
	ResultsHTML string
	Ask         *AskBox // the "Ask my library" panel (nil: none)
}

// ImportForm is the import-by-reference form with what was typed and why
// it was refused.
type ImportForm struct {
	Ref   string
	Error string
}

// LibraryResults is one page of the list (the page's and the htmx
// fragment's).
type LibraryResults struct {
	BasePath string
	Query    string
	Filtered bool // any of q, tag, year was given
	Papers   []PaperRow
	Total    int
	Page     int
	PrevURL  string // "" on the first page
	NextURL  string // "" on the last page
	Error    string
}

// PaperRow is a paper as the list shows it.
type PaperRow struct {
	BasePath string
	ID       int64
	Title    string
	Authors  []string
	Year     *int
	Journal  string
	IDs      []Identifier
	Status   string // download status: none, downloading, downloaded, failed
	Tags     []string
}

// TagURL is the list filtered by tag.
func (r PaperRow) TagURL(tag string) string {
	return r.BasePath + "/library?tag=" + url.QueryEscape(tag)
}

// Identifier is one of a paper's identifiers with its canonical page.
type Identifier struct {
	Kind  string // bibcode, arxiv, doi
	Label string
	URL   string
}

// PaperPage is /library/{id}.
type PaperPage struct {
	Chrome
	Paper     PaperRow
	Volume    string
	PageNo    string
	Abstract  string
	Keywords  []string
	Tags      PaperTags
	Links     *PaperLinks // nil: no citations block (no link service)
	Citations *int
	Download  DownloadStatus
	Parse     *ParseStatus // nil: no parser on this server
}

// PaperFileRow is a stored file of a paper.
type PaperFileRow struct {
	Kind   string
	Bytes  int64
	Source string
	Added  time.Time
}

// DownloadStatus is the download block of a paper page (also the htmx
// fragment polled while a download runs).
type DownloadStatus struct {
	BasePath string
	PaperID  int64
	Status   string
	Error    string
	Running  bool           // a download runs in this process now
	Source   string         // while running: the source being read ("" before the first byte)
	Read     int64          // while running: bytes read from Source
	Total    int64          // while running: Source's announced size, -1 when unknown
	Stale    bool           // marked downloading, but no download runs (interrupted)
	CanStart bool           // the Download PDF button is offered
	Files    []PaperFileRow // the stored PDFs, newest first
	JobID    string         // while running: the job (for its Stop button)
}

// URL is the paper's page, or a path below it.
func (r PaperRow) URL(suffix string) string { return r.BasePath + "/library/" + itoa(r.ID) + suffix }

// BibTeXURL is the paper's BibTeX export.
func (r PaperRow) BibTeXURL() string { return r.BasePath + "/api/papers/" + itoa(r.ID) + "/bibtex" }

// ShortAuthors is the byline's authors: one or two in full, the first
// and "et al." for more ("Greiner, J. et al."); the paper's page lists
// them all.
func (r PaperRow) ShortAuthors() string { return ShortAuthorList(r.Authors) }

// ShortAuthorList shortens an author list as ShortAuthors does.
func ShortAuthorList(authors []string) string {
	switch n := len(authors); {
	case n == 0:
		return "Unknown authors"
	case n <= 2:
		return strings.Join(authors, "; ")
	default:
		return authors[0] + " et al."
	}
}

// Meta is the list's byline: first authors · year · journal.
func (r PaperRow) Meta() string {
	parts := []string{r.ShortAuthors()}
	for _, s := range []string{r.YearText(), r.Journal} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// YearText is the year, or "" when unknown.
func (r PaperRow) YearText() string {
	if r.Year == nil {
		return ""
	}
	return strconv.Itoa(*r.Year)
}

// Base is the paper's page.
func (d DownloadStatus) Base() string { return d.BasePath + "/library/" + itoa(d.PaperID) }

// ProgressText is how far a running download is, e.g. "from arXiv:
// 1.2 MiB of 3.4 MiB"; "" before the first byte.
func (d DownloadStatus) ProgressText() string {
	if d.Source == "" {
		return ""
	}
	if d.Total > 0 {
		return "from " + d.Source + ": " + formatBytes(d.Read) + " of " + formatBytes(d.Total)
	}
	return "from " + d.Source + ": " + formatBytes(d.Read) + " so far"
}

// statusLabel is the badge text of a download status.
func statusLabel(s string) string {
	switch s {
	case "downloaded":
		return "PDF"
	case "downloading":
		return "downloading…"
	case "failed":
		return "download failed"
	}
	return "no PDF"
}

// statusClass is the badge's class.
func statusClass(s string) string {
	switch s {
	case "downloaded":
		return "badge on"
	case "failed":
		return "badge off"
	}
	return "badge"
}

func paperCount(n int) string {
	if n == 1 {
		return "1 paper"
	}
	return itoa(n) + " papers"
}

// paperTitle is the title, or a placeholder for an untitled entry.
func paperTitle(t string) string {
	if t == "" {
		return "(untitled)"
	}
	return t
}

func joinAuthors(a []string) string { return strings.Join(a, "; ") }

func joinList(a []string) string { return strings.Join(a, ", ") }

// citation is "Journal, volume, page (year)" from the parts that are known.
func citation(p PaperPage) string {
	var parts []string
	for _, s := range []string{p.Paper.Journal, p.Volume, p.PageNo} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	out := strings.Join(parts, ", ")
	if y := p.Paper.YearText(); y != "" && !strings.Contains(out, y) { // arXiv journal refs carry the year
		if out != "" {
			out += " "
		}
		out += "(" + y + ")"
	}
	return out
}

// sortOption is one entry of the list's order menu.
type sortOption struct{ Value, Label string }

// sortOptions returns the list's orders (store.PaperSort values).
func sortOptions() []sortOption {
	return []sortOption{
		{"", "best match, else newest"},
		{"newest", "newest added"},
		{"year", "publication year"},
		{"title", "title A–Z"},
		{"cited", "most cited"},
		{"relevance", "best match"},
	}
}
