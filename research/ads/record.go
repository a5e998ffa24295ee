package ads

import (
	"bytes"
	"encoding/json"
	"html"
	"slices"
	"strconv"
	"strings"
)

// Doc is one ADS record, cleaned up from ADS's Solr document.
type Doc struct {
	// Bibcode is the ADS bibcode, e.g. "2019ApJ...875L...1E".
	Bibcode string
	// Title is the first title, entities decoded and whitespace collapsed.
	Title string
	// Authors are "Last, First" names in author order.
	Authors []string
	// Affiliations parallel Authors (ADS uses "-" for unknown) and are
	// only filled when Query.Affiliations was set.
	Affiliations []string
	// Journal is the publication name ("The Astrophysical Journal").
	Journal string
	// PubDate is ADS's date, "YYYY-MM-00" when the day is unknown.
	PubDate string
	// Year is the publication year, 0 when unknown.
	Year int
	// Volume and Page are as ADS gives them (Page is the first page or
	// article id, e.g. "L1").
	Volume, Page string
	// DOI is the first DOI, "" when the record has none; DOIs holds all.
	DOI  string
	DOIs []string
	// ArxivID is the version-less arXiv id ("1906.11238",
	// "astro-ph/0601001"), "" when the record has none.
	ArxivID string
	// Identifiers are every identifier ADS knows (bibcodes, DOIs, arXiv).
	Identifiers []string
	// Abstract is the abstract, entities decoded.
	Abstract string
	// Keywords are the keywords in ADS's order.
	Keywords []string
	// CitationCount is how many ADS records cite this one; nil when the
	// record came without a count (the field was not requested or empty).
	CitationCount *int
	// DocType is ADS's document type ("article", "eprint", "inproceedings").
	DocType string
	// Properties are ADS's flags ("REFEREED", "OPENACCESS", "EPRINT_OPENACCESS", ...).
	Properties []string
	// Refereed and OpenAccess are derived from Properties.
	Refereed, OpenAccess bool
	// ESources lists the full-text sources the link gateway can serve for
	// this record ("EPRINT_PDF", "PUB_PDF", "PUB_HTML", ...).
	ESources []string
}

// rawDoc is a document as ADS sends it. Fields that ADS sends as lists are
// lists; textOrList and text also accept the other shape, since old
// records and mirrors are not always consistent.
type rawDoc struct {
	Bibcode       text       `json:"bibcode"`
	Title         textOrList `json:"title"`
	Author        textOrList `json:"author"`
	Aff           textOrList `json:"aff"`
	Pub           text       `json:"pub"`
	PubDate       text       `json:"pubdate"`
	Year          text       `json:"year"`
	Volume        text       `json:"volume"`
	Page          textOrList `json:"page"`
	DOI           textOrList `json:"doi"`
	Identifier    textOrList `json:"identifier"`
	Abstract      text       `json:"abstract"`
	Keyword       textOrList `json:"keyword"`
	CitationCount text       `json:"citation_count"`
	DocType       text       `json:"doctype"`
	Property      textOrList `json:"property"`
	ESources      textOrList `json:"esources"`
}

// text is a JSON string, number or null, kept as a trimmed string.
type text string

// UnmarshalJSON implements json.Unmarshaler.
func (t *text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = text(strings.TrimSpace(s))
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		*t = text(n.String())
	}
	return nil
}

// textOrList is a JSON list of strings, a single string, or null.
type textOrList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *textOrList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var items []text
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		out := make([]string, len(items))
		for i, s := range items {
			out[i] = string(s)
		}
		*l = out
		return nil
	}
	var s text
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*l = nil
	if s != "" {
		*l = []string{string(s)}
	}
	return nil
}

// doc converts a raw document.
func (r rawDoc) doc() Doc {
	d := Doc{
		Bibcode:       string(r.Bibcode),
		Title:         cleanText(first(r.Title)),
		Authors:       cleanList(r.Author),
		Affiliations:  cleanParallel(r.Aff),
		Journal:       cleanText(string(r.Pub)),
		PubDate:       string(r.PubDate),
		Volume:        string(r.Volume),
		Page:          first(r.Page),
		DOIs:          cleanList(r.DOI),
		Identifiers:   cleanList(r.Identifier),
		Abstract:      cleanText(string(r.Abstract)),
		Keywords:      cleanList(r.Keyword),
		DocType:       string(r.DocType),
		Properties:    cleanList(r.Property),
		ESources:      cleanList(r.ESources),
		Year:          yearOf(string(r.Year), string(r.PubDate)),
		ArxivID:       arxivFromIdentifiers(r.Identifier),
		CitationCount: optInt(string(r.CitationCount)),
	}
	d.DOI = first(d.DOIs)
	d.Refereed = slices.Contains(d.Properties, "REFEREED")
	d.OpenAccess = slices.Contains(d.Properties, "OPENACCESS")
	return d
}

// yearOf takes the year field, falling back to the pubdate's first four
// characters.
func yearOf(year, pubdate string) int {
	if y := atoi(year); y > 0 {
		return y
	}
	if len(pubdate) >= 4 {
		return atoi(pubdate[:4])
	}
	return 0
}

// arxivFromIdentifiers finds the arXiv id, preferring the explicit
// "arXiv:1906.11238" form, then an arXiv bibcode ("2019arXiv190611238L"),
// then arXiv's own DOI ("10.48550/arXiv.1906.11238").
func arxivFromIdentifiers(ids []string) string {
	for _, id := range ids {
		if len(id) > 6 && strings.EqualFold(id[:6], "arxiv:") {
			if n, err := normalizeArxiv(id); err == nil {
				return n
			}
		}
	}
	for _, id := range ids {
		if n := arxivFromBibcode(id); n != "" {
			return n
		}
	}
	for _, id := range ids {
		const p = "10.48550/arxiv."
		if len(id) > len(p) && strings.EqualFold(id[:len(p)], p) {
			if n, err := normalizeArxiv(id[len(p):]); err == nil {
				return n
			}
		}
	}
	return ""
}

// arxivFromBibcode decodes new-style arXiv bibcodes: "2019arXiv190611238L"
// (five-digit numbers, dot dropped) and "2012arXiv1201.1234X" (four-digit
// numbers, dot kept). Old-style "astro.ph" bibcodes are not decoded.
func arxivFromBibcode(b string) string {
	if len(b) != 19 || b[4:9] != "arXiv" {
		return ""
	}
	num := b[9:18]
	if !strings.Contains(num, ".") {
		num = num[:4] + "." + num[4:]
	}
	if n, err := normalizeArxiv(num); err == nil {
		return n
	}
	return ""
}

func first(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return strings.TrimSpace(l[0])
}

// cleanText decodes HTML entities (ADS titles and abstracts carry "&amp;",
// "&lt;") and collapses runs of whitespace.
func cleanText(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// cleanList applies cleanText to each item and drops empty ones.
func cleanList(l []string) []string {
	var out []string
	for _, s := range l {
		if s = cleanText(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cleanParallel applies cleanText to each item, keeping positions (an
// empty item becomes "-", ADS's own marker for unknown).
func cleanParallel(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	out := make([]string, len(l))
	for i, s := range l {
		if out[i] = cleanText(s); out[i] == "" {
			out[i] = "-"
		}
	}
	return out
}

// optInt parses a count that may be missing: nil for "" (or anything not
// a number).
func optInt(s string) *int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &n
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return n
}
