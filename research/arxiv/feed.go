package arxiv

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// XML namespaces of the arXiv API response.
const (
	nsAtom       = "http://www.w3.org/2005/Atom"
	nsArxiv      = "http://arxiv.org/schemas/atom"
	nsOpenSearch = "http://a9.com/-/spec/opensearch/1.1/"
)

// xmlFeed mirrors the parts of the feed we read. Numbers and times stay
// strings so that their parsing is ours (with our errors), not the decoder's.
type xmlFeed struct {
	Total   string     `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	Start   string     `xml:"http://a9.com/-/spec/opensearch/1.1/ startIndex"`
	PerPage string     `xml:"http://a9.com/-/spec/opensearch/1.1/ itemsPerPage"`
	Entries []xmlEntry `xml:"http://www.w3.org/2005/Atom entry"`
}

type xmlEntry struct {
	ID         string        `xml:"http://www.w3.org/2005/Atom id"`
	Title      string        `xml:"http://www.w3.org/2005/Atom title"`
	Summary    string        `xml:"http://www.w3.org/2005/Atom summary"`
	Published  string        `xml:"http://www.w3.org/2005/Atom published"`
	Updated    string        `xml:"http://www.w3.org/2005/Atom updated"`
	Authors    []xmlAuthor   `xml:"http://www.w3.org/2005/Atom author"`
	Links      []xmlLink     `xml:"http://www.w3.org/2005/Atom link"`
	Categories []xmlCategory `xml:"http://www.w3.org/2005/Atom category"`
	Primary    xmlCategory   `xml:"http://arxiv.org/schemas/atom primary_category"`
	DOI        string        `xml:"http://arxiv.org/schemas/atom doi"`
	JournalRef string        `xml:"http://arxiv.org/schemas/atom journal_ref"`
	Comment    string        `xml:"http://arxiv.org/schemas/atom comment"`
}

type xmlAuthor struct {
	Name         string   `xml:"http://www.w3.org/2005/Atom name"`
	Affiliations []string `xml:"http://arxiv.org/schemas/atom affiliation"`
}

type xmlLink struct {
	Href  string `xml:"href,attr"`
	Rel   string `xml:"rel,attr"`
	Type  string `xml:"type,attr"`
	Title string `xml:"title,attr"`
}

type xmlCategory struct {
	Term string `xml:"term,attr"`
}

// ParseFeed parses an arXiv API response body. An empty feed is a Result
// with no entries. It returns an *APIError when the feed is the API's error
// report, an error wrapping ErrNotAtom when data is not an Atom feed (HTML,
// plain text, another XML document), and an error for malformed XML or
// OpenSearch numbers. Entries whose id is not an arXiv identifier are
// skipped; unparsable dates are left zero. It never panics.
func ParseFeed(data []byte) (Result, error) {
	res, err := parseFeed(data)
	if err != nil {
		return Result{}, fmt.Errorf("arxiv: parse feed: %w", err)
	}
	return res, nil
}

func parseFeed(data []byte) (Result, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	start, err := rootElement(dec, data)
	if err != nil {
		return Result{}, err
	}
	var f xmlFeed
	if err := dec.DecodeElement(&f, &start); err != nil {
		return Result{}, fmt.Errorf("malformed feed: %w", err)
	}
	for _, e := range f.Entries {
		if apiErr := asAPIError(e); apiErr != nil {
			return Result{}, apiErr
		}
	}
	var res Result
	for _, n := range []struct {
		name string
		text string
		dst  *int
	}{{"totalResults", f.Total, &res.Total}, {"startIndex", f.Start, &res.Start}, {"itemsPerPage", f.PerPage, &res.PerPage}} {
		if *n.dst, err = feedInt(n.text); err != nil {
			return Result{}, fmt.Errorf("opensearch:%s: %w", n.name, err)
		}
	}
	for i, xe := range f.Entries {
		if e, why := convertEntry(xe); why == "" {
			res.Entries = append(res.Entries, e)
		} else {
			res.Skipped = append(res.Skipped, fmt.Sprintf("entry %d (id %s): %s", i+1, strconv.Quote(clip(collapse(xe.ID), 100)), why))
		}
	}
	return res, nil
}

// rootElement returns the first element of the document, which must be an
// Atom <feed>.
func rootElement(dec *xml.Decoder, data []byte) (xml.StartElement, error) {
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return xml.StartElement{}, fmt.Errorf("%w: no XML element in %s", ErrNotAtom, snippet(data))
		}
		if err != nil {
			if looksLikeHTML(data) {
				return xml.StartElement{}, fmt.Errorf("%w: got an HTML page (a proxy or error page?)", ErrNotAtom)
			}
			return xml.StartElement{}, fmt.Errorf("%w: %s: %w", ErrNotAtom, snippet(data), err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch {
			case strings.EqualFold(se.Name.Local, "html"):
				return se, fmt.Errorf("%w: got an HTML page (a proxy or error page?)", ErrNotAtom)
			case se.Name.Local != "feed" || se.Name.Space != nsAtom:
				return se, fmt.Errorf("%w: root element is <%s> in namespace %q", ErrNotAtom, se.Name.Local, se.Name.Space)
			}
			return se, nil
		}
	}
}

// looksLikeHTML reports whether data starts like an HTML document.
func looksLikeHTML(data []byte) bool {
	head := strings.ToLower(strings.TrimSpace(string(data[:min(len(data), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// snippet quotes the start of data for an error message.
func snippet(data []byte) string {
	s := strings.TrimSpace(string(data[:min(len(data), 60)]))
	if s == "" {
		return "an empty body"
	}
	return strconv.Quote(s)
}

// asAPIError returns the error an error entry reports, or nil.
func asAPIError(e xmlEntry) *APIError {
	id := strings.TrimSpace(e.ID)
	_, code, ok := strings.Cut(id, "arxiv.org/api/errors")
	if !ok {
		return nil
	}
	msg := collapse(e.Summary)
	if msg == "" {
		msg = collapse(e.Title)
	}
	if msg == "" {
		msg = "unspecified error"
	}
	return &APIError{Message: msg, Code: strings.TrimPrefix(code, "#")}
}

// feedInt parses an OpenSearch number; absent means 0.
func feedInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a count: %q", s)
	}
	return n, nil
}

// convertEntry turns a decoded entry into an Entry; why says what makes it
// unusable (its id is not an arXiv identifier), "" when it is fine.
func convertEntry(x xmlEntry) (e Entry, why string) {
	id, err := ParseID(x.ID)
	if err != nil {
		return Entry{}, "the id is not an arXiv identifier"
	}
	e = Entry{
		ID:         id,
		Title:      collapse(x.Title),
		Summary:    collapse(x.Summary),
		Published:  feedTime(x.Published),
		Updated:    feedTime(x.Updated),
		DOI:        collapse(x.DOI),
		JournalRef: collapse(x.JournalRef),
		Comment:    collapse(x.Comment),
	}
	for _, a := range x.Authors {
		if au, ok := convertAuthor(a); ok {
			e.Authors = append(e.Authors, au)
		}
	}
	e.PrimaryCategory, e.Categories = categories(x.Primary.Term, x.Categories)
	e.AbsURL, e.PDFURL, e.DOIURL = links(x.Links)
	if e.AbsURL == "" {
		e.AbsURL = strings.TrimSpace(x.ID)
	}
	return e, ""
}

// clip shortens s to at most n bytes (on a rune boundary) for messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func convertAuthor(a xmlAuthor) (Author, bool) {
	au := Author{Name: collapse(a.Name)}
	if au.Name == "" {
		return au, false
	}
	for _, aff := range a.Affiliations {
		if aff = collapse(aff); aff != "" {
			au.Affiliations = append(au.Affiliations, aff)
		}
	}
	return au, true
}

// categories returns the primary category (the first one when none is
// marked) and the de-duplicated list of all of them.
func categories(primary string, cats []xmlCategory) (string, []string) {
	primary = strings.TrimSpace(primary)
	var out []string
	seen := map[string]bool{}
	for _, c := range cats {
		t := strings.TrimSpace(c.Term)
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if primary == "" && len(out) > 0 {
		primary = out[0]
	}
	if primary != "" && !seen[primary] {
		out = append([]string{primary}, out...)
	}
	return primary, out
}

// links picks the abstract page, PDF and DOI links out of an entry's links.
func links(ls []xmlLink) (abs, pdf, doi string) {
	for _, l := range ls {
		href := strings.TrimSpace(l.Href)
		switch {
		case href == "":
		case l.Title == "pdf" || l.Type == "application/pdf":
			pdf = first(pdf, href)
		case l.Title == "doi":
			doi = first(doi, href)
		case l.Rel == "alternate" || l.Rel == "":
			abs = first(abs, href)
		}
	}
	return abs, pdf, doi
}

func first(have, v string) string {
	if have != "" {
		return have
	}
	return v
}

// feedTime parses an RFC 3339 time; zero when absent or malformed, so one
// odd date does not cost the whole page.
func feedTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

// collapse trims s and replaces every run of white space with one space.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
