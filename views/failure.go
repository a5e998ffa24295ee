package views

import (
	"regexp"
	"strings"
)

// Failure is a stored failure as a person reads it: one sentence saying
// what happened and what to do, and the technical detail (shown folded
// away), with internal addresses removed and repeated parts said once.
type Failure struct {
	Summary string
	Detail  string
}

// internalAddress matches IP addresses with an optional port (a DNS
// resolver's "on 10.0.0.2:53", a proxy's address): nothing a user needs,
// and nothing the server should reveal.
var internalAddress = regexp.MustCompile(`\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`)

// failureDetail cleans a stored error for the technical detail: internal
// addresses become "[address]" and a part repeated in an error chain
// ("parse failed: …: parse failed") is kept once.
func failureDetail(raw string) string {
	raw = internalAddress.ReplaceAllString(strings.TrimSpace(raw), "[address]")
	seen := map[string]bool{}
	var kept []string
	for _, part := range strings.Split(raw, ": ") {
		key := strings.ToLower(strings.TrimSpace(part))
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		kept = append(kept, part)
	}
	return strings.Join(kept, ": ")
}

// answered matches a source's HTTP status in an error chain: a source was
// reached and had no PDF, whatever the others did.
var answered = regexp.MustCompile(`\bhttp [1-5]\d\d\b`)

// unreachable reports whether a stored error says a server could not be
// reached at all.
func unreachable(lower string) bool {
	for _, s := range []string{"no such host", "connection refused", "network is unreachable", "dial tcp", "i/o timeout", "tls handshake"} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// DownloadFailure explains a failed PDF download.
func DownloadFailure(raw string) Failure {
	lower := strings.ToLower(raw)
	f := Failure{Detail: failureDetail(raw)}
	switch {
	case strings.Contains(lower, "cancel"):
		f.Summary = "The download was stopped before it finished; start it again when you need the PDF."
	case unreachable(lower) && !answered.MatchString(lower):
		f.Summary = "The PDF could not be downloaded because its sources could not be reached; check the server's internet connection and try again."
	case strings.Contains(lower, "deadline") || strings.Contains(lower, "timed out") || strings.Contains(lower, "timeout"):
		f.Summary = "The download took too long and was stopped; try again later."
	default:
		f.Summary = "No source (arXiv, ADS or the publisher) offered a PDF of this paper; it may not be open access — try again later or read it on the publisher's site."
	}
	return f
}

// ParseFailure explains a failed parse.
func ParseFailure(raw string) Failure {
	lower := strings.ToLower(raw)
	f := Failure{Detail: failureDetail(strings.TrimPrefix(raw, "parse failed: "))}
	switch {
	case strings.Contains(lower, "download the pdf first"):
		f.Summary = "There was nothing to convert: download the PDF first, then parse the paper."
	case strings.Contains(lower, "cancel"):
		f.Summary = "The conversion was stopped before it finished; start it again when you want to read the paper here."
	case unreachable(lower):
		f.Summary = "The paper's HTML version could not be reached; check the server's internet connection, or download the PDF and parse again."
	default:
		f.Summary = "The paper could not be converted for reading; try again later, or download the PDF and parse again."
	}
	return f
}
