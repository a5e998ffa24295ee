package views

// RecordPage is a session's research record (/research/{id}/record).
type RecordPage struct {
	Chrome
	SessionID string
	Title     string
	// HTML is the record rendered from its Markdown (sanitised).
	HTML string
	// Downloads are the record's formats: label and URL.
	Downloads []Link
	// NewURL is the "what is new since" page.
	NewURL string
}

// RecordNewPage lists what appeared since a session's searches.
type RecordNewPage struct {
	Chrome
	SessionID string
	Title     string
	RecordURL string
	// AddURL is where the "Add to library" forms post (field ref).
	AddURL  string
	Reruns  []RecordRerun
	Message string // when the session ran no literature search
}

// RecordRerun is one search run again.
type RecordRerun struct {
	Query, RanAt, Error string
	Notes               []string
	New                 []RecordNewPaper
}

// RecordNewPaper is a paper that appeared since.
type RecordNewPaper struct {
	Title, Authors, Date, Ref, IDs string
	// LibraryURL is set when the library already holds it.
	LibraryURL string
}
