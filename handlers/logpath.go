package handlers

import "strings"

// feedPathMarker starts the path of the triage's Atom feed, whose last
// segment is the user's feed token.
const feedPathMarker = "/triage/feed/"

// logPath is a request path as it may be logged: the personal token of a
// triage feed URL (the only credential of that URL) is replaced, so that
// access and error logs do not hand out readers' feeds.
func logPath(p string) string {
	if i := strings.Index(p, feedPathMarker); i >= 0 && len(p) > i+len(feedPathMarker) {
		return p[:i+len(feedPathMarker)] + "[token]"
	}
	return p
}
