package library

import (
	"bytes"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxLanding is how much of an HTML answer is kept to look for a PDF link:
// publishers put their meta tags in the head, well inside this.
const maxLanding = 512 << 10

// landingPDF returns the PDF URL a publisher's article landing page
// announces, resolved against the page's final URL, or "" when it
// announces none. It reads, in order of trust:
//   - Highwire Press tags, <meta name="citation_pdf_url" content="…"> (IOP,
//     A&A/EDP, AAS, OUP/MNRAS, Springer, Wiley and most others: Google
//     Scholar asks publishers for them);
//   - <link rel="alternate" type="application/pdf" href="…">.
//
// Only http and https URLs are returned; the fetch client still checks
// the address when the link is followed.
func landingPDF(page []byte, base *url.URL) string {
	var meta, alt string
	z := html.NewTokenizer(io.LimitReader(bytes.NewReader(page), maxLanding))
	for meta == "" {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.DataAtom {
		case atom.Meta:
			if strings.EqualFold(attr(tok, "name"), "citation_pdf_url") {
				meta = resolveHTTP(attr(tok, "content"), base)
			}
		case atom.Link:
			if alt == "" && strings.EqualFold(attr(tok, "type"), "application/pdf") && hasToken(attr(tok, "rel"), "alternate") {
				alt = resolveHTTP(attr(tok, "href"), base)
			}
		case atom.Body:
			if alt != "" {
				return alt // the head is over; meta tags live there
			}
		}
	}
	if meta != "" {
		return meta
	}
	return alt
}

func attr(t html.Token, name string) string {
	for _, a := range t.Attr {
		if strings.EqualFold(a.Key, name) {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

func hasToken(list, want string) bool {
	for _, f := range strings.Fields(list) {
		if strings.EqualFold(f, want) {
			return true
		}
	}
	return false
}

// resolveHTTP resolves ref against base and returns it when it is an
// absolute http(s) URL, "" otherwise.
func resolveHTTP(ref string, base *url.URL) string {
	if ref == "" || base == nil {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	u.Fragment = ""
	return u.String()
}

// looksHTML reports whether a response that is not a PDF is an HTML page
// worth reading for a PDF link.
func looksHTML(contentType string, head []byte) bool {
	if strings.Contains(contentType, "html") {
		return true
	}
	h := bytes.ToLower(bytes.TrimLeft(head[:min(len(head), 512)], "\xef\xbb\xbf\r\n\t "))
	return bytes.HasPrefix(h, []byte("<!doctype html")) || bytes.HasPrefix(h, []byte("<html"))
}
