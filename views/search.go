package views

import "time"

// SearchPage is /search: full-text search over the user's past sessions
// (docs/features.md L6).
type SearchPage struct {
	Chrome
	Query string
	// SessionID is the session the search came from ("" for none); Only
	// restricts the results to it.
	SessionID    string
	SessionTitle string
	Only         bool
	Results      SearchResults
}

// SearchResults is the result list: the page's and the htmx fragment's.
type SearchResults struct {
	BasePath string
	Query    string // "" before anything was searched
	Hits     []SearchHit
	Error    string
}

// SearchHit is one result: a snippet of a message or a session's title.
type SearchHit struct {
	SessionID    string
	SessionTitle string
	Turn         int    // 0 for a session title/summary hit
	Role         string // "" for a session hit
	Parts        []SnippetPart
	When         time.Time
}

// SnippetPart is a run of a snippet's plain text; Mark runs matched the
// query. Text is escaped on output like any other text.
type SnippetPart struct {
	Text string
	Mark bool
}

// URL is where the hit leads: the session page, at the turn when known.
func (h SearchHit) URL(base string) string {
	u := base + "/research/" + h.SessionID
	if h.Turn > 0 {
		u += "#" + (&TurnHeader{Turn: h.Turn}).DOMID()
	}
	return u
}

// roleLabel names who wrote a message hit.
func roleLabel(role string) string {
	switch role {
	case "":
		return "Session"
	case "user":
		return "Question"
	case "assistant":
		return "Answer"
	case "tool":
		return "Tool result"
	}
	return role
}

// hitMeta says what kind of text matched, in which turn, and when.
func hitMeta(h SearchHit) string {
	s := roleLabel(h.Role)
	if h.Turn > 0 {
		s += ", turn " + itoa(h.Turn)
	}
	return s + " · " + formatTime(h.When)
}
