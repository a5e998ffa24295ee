package views

import "strings"

// TriagePage is the daily arXiv digest (/triage).
type TriagePage struct {
	Chrome
	// Date is the day shown (YYYY-MM-DD, "" before anything was fetched).
	Date string
	// Days are the days with a digest, newest first.
	Days  []string
	Items []TriageItem
	// Problems are fetches that failed and will be tried again.
	Problems []TriageProblem
	// Waiting reports that some followed days are not fetched yet.
	Waiting bool
	// LastRun is when the scheduler last ran ("" before its first run).
	LastRun  string
	Settings TriageSettingsForm
	// FeedURL is the user's Atom feed URL ("" until made).
	FeedURL string
}

// TriageItem is one ranked paper.
type TriageItem struct {
	ArxivID    string
	Title      string
	Authors    string
	Categories string
	Score      string
	Reasons    []string
	Summary    string
	Abstract   string
	AbsURL     string
	// LibraryURL is the paper's library page when it is in the library.
	LibraryURL string
}

// TriageProblem is a category-day that could not be fetched.
type TriageProblem struct {
	Category, Day, Error, Retry string
}

// TriageSettingsForm is the settings form: lists one per line (categories
// may also be separated by commas or spaces).
type TriageSettingsForm struct {
	Categories, Keywords, Objects, Authors string
	// Suggested are the categories offered as examples.
	Suggested []string
	Error     string
	// Objects as resolved, for display ("NGC 4258 → M 106").
	Resolved []string
}

// joinComma joins items with ", ".
func joinComma(items []string) string { return strings.Join(items, ", ") }
