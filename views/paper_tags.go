package views

import "net/url"

// PaperTags is the tags block of a paper page (also the htmx fragment the
// tag forms swap in).
type PaperTags struct {
	BasePath string
	PaperID  int64
	Tags     []string
	Known    []string // tags used in the library, offered as suggestions
	Typed    string   // what was typed in the add field, kept after a refusal
	Error    string
}

// Base is the paper's page.
func (t PaperTags) Base() string { return t.BasePath + "/library/" + itoa(t.PaperID) }

// FilterURL is the library list filtered by tag.
func (t PaperTags) FilterURL(tag string) string {
	return t.BasePath + "/library?tag=" + url.QueryEscape(tag)
}
