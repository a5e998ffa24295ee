package views

import "net/url"

// ObjectPath is the object page of name (without BASE_PATH): every place
// that shows an object name links there.
func ObjectPath(name string) string { return "/objects/" + url.PathEscape(name) }

// degText is a coordinate as its source wrote it (its digits are its
// precision), or v with six decimals when the source text is unknown.
func degText(text string, v float64) string {
	if text != "" {
		return text
	}
	return fmtDeg(v)
}

// joinNames lists names for a sentence.
func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
