package triage

import (
	"context"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// Feed limits: the newest feedDays digests, at most feedPerDay papers of
// each (the best).
const (
	feedDays   = 3
	feedPerDay = 40
)

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomEntry struct {
	ID         string         `xml:"id"`
	Title      string         `xml:"title"`
	Updated    string         `xml:"updated"`
	Published  string         `xml:"published,omitempty"`
	Links      []atomLink     `xml:"link"`
	Authors    []atomAuthor   `xml:"author"`
	Categories []atomCategory `xml:"category"`
	Summary    atomText       `xml:"summary"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

// Feed renders the user's newest digests as an Atom feed. selfURL is the
// feed's own URL and pageURL the digest page's, both absolute.
func (s *Service) Feed(ctx context.Context, userID int64, selfURL, pageURL string) ([]byte, error) {
	days, err := s.st.TriageRankedDays(ctx, userID, feedDays)
	if err != nil {
		return nil, err
	}
	f := atomFeed{ID: pageURL, Title: "AstroResearch arXiv triage",
		Links: []atomLink{{Href: selfURL, Rel: "self", Type: "application/atom+xml"}, {Href: pageURL, Rel: "alternate", Type: "text/html"}}}
	var newest time.Time
	for _, day := range days {
		items, err := s.st.TriageItems(ctx, userID, day)
		if err != nil {
			return nil, err
		}
		for _, it := range items[:min(len(items), feedPerDay)] {
			e := feedEntry(it)
			f.Entries = append(f.Entries, e)
			if it.FetchedAt.After(newest) {
				newest = it.FetchedAt
			}
		}
	}
	if newest.IsZero() {
		newest = s.opt.Now()
	}
	f.Updated = newest.UTC().Format(time.RFC3339)
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("triage: feed: %w", err)
	}
	return append([]byte(xml.Header), out...), nil
}

func feedEntry(it store.TriageItem) atomEntry {
	abs := "https://arxiv.org/abs/" + it.ArxivID
	e := atomEntry{ID: abs, Title: it.Title, Updated: it.FetchedAt.UTC().Format(time.RFC3339),
		Links: []atomLink{{Href: abs, Rel: "alternate", Type: "text/html"}}}
	if it.Published != nil {
		e.Published = it.Published.UTC().Format(time.RFC3339)
	}
	for _, a := range it.Authors {
		e.Authors = append(e.Authors, atomAuthor{Name: a})
	}
	for _, c := range it.Categories {
		e.Categories = append(e.Categories, atomCategory{Term: c})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Score %.2f", it.Score)
	if len(it.Reasons) > 0 {
		b.WriteString(" — " + strings.Join(it.Reasons, "; "))
	}
	b.WriteString("\n\n")
	if it.Summary != "" {
		b.WriteString(it.Summary + "\n\n")
	}
	b.WriteString(it.Abstract)
	e.Summary = atomText{Type: "text", Text: b.String()}
	return e
}
