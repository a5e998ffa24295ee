package views

import (
	"strings"
	"time"
)

// PaperLinks is the citations-and-references block of a paper page (docs/features.md
// L5), also the htmx fragment that loads or refreshes it.
type PaperLinks struct {
	BasePath string
	PaperID  int64
	// State is "unavailable" (Message says why: no ADS token, no bibcode),
	// "pending" (never fetched: the block loads itself, or offers a button
	// without JavaScript), "error" (Message says what ADS answered) or
	// "ready".
	State      string
	Message    string
	FetchedAt  time.Time
	Citations  LinkListView
	References LinkListView
}

// LinkListView is one of the two lists.
type LinkListView struct {
	Kind   string // "citations" or "references"
	Total  int    // ADS's count (Rows may hold fewer: the newest)
	Rows   []LinkRow
	ADSURL string // the full list on ADS's site
}

// LinkRow is a linked paper with its library status.
type LinkRow struct {
	Title, Authors, Year, Journal string
	Citations                     *int
	Bibcode                       string
	ADSURL                        string // its ADS abstract page
	LibraryURL                    string // its library page; "" when not in the library
	Status                        string // its PDF status when in the library
}

// Base is the paper's page.
func (l PaperLinks) Base() string { return l.BasePath + "/library/" + itoa(l.PaperID) }

// ImportURL is the import form's action.
func (l PaperLinks) ImportURL() string { return l.BasePath + "/library/import" }

// ReturnTo is where a one-click add comes back to (without the base path,
// which the redirect adds).
func (l PaperLinks) ReturnTo() string { return "/library/" + itoa(l.PaperID) + "#paper-links" }

// Summary is the list's heading, e.g. "Citations (200 of 4637, newest first)".
func (v LinkListView) Summary() string {
	name := "References"
	if v.Kind == "citations" {
		name = "Citations"
	}
	switch {
	case v.Total == len(v.Rows):
		return name + " (" + itoa(v.Total) + ")"
	default:
		return name + " (" + itoa(len(v.Rows)) + " of " + itoa(v.Total) + ", newest first)"
	}
}

// Meta is the row's byline: authors · year · journal · citations.
func (r LinkRow) Meta() string {
	var parts []string
	for _, s := range []string{r.Authors, r.Year, r.Journal} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if r.Citations != nil {
		if *r.Citations == 1 {
			parts = append(parts, "1 citation")
		} else {
			parts = append(parts, itoa(*r.Citations)+" citations")
		}
	}
	return strings.Join(parts, " · ")
}
