package arxiv

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// looksLikeURL reports whether s is a URL (with a scheme) or starts with one
// of the arXiv host names ParseID knows.
func looksLikeURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	host, _, _ := strings.Cut(s, "/")
	return arxivHost(strings.ToLower(host))
}

// arxivHost reports whether host serves arXiv abstract, PDF or HTML pages.
func arxivHost(host string) bool {
	switch host {
	case "arxiv.org", "www.arxiv.org", "export.arxiv.org", "browse.arxiv.org",
		"ar5iv.labs.arxiv.org", "ar5iv.org", "www.ar5iv.org":
		return true
	}
	return false
}

// pathFromURL returns the identifier part of an arXiv URL: the path after
// /abs/, /pdf/ or /html/, without a trailing slash or ".pdf". Query and
// fragment are ignored.
func pathFromURL(s string) (string, error) {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", errors.New("not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("URL scheme %q is not http or https", u.Scheme)
	}
	if host := strings.ToLower(u.Hostname()); !arxivHost(host) {
		return "", fmt.Errorf("host %q is not arXiv", host)
	}
	p := strings.TrimSuffix(u.Path, "/")
	for _, prefix := range []string{"/abs/", "/pdf/", "/html/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			rest = strings.TrimSuffix(rest, ".pdf")
			if rest == "" {
				break
			}
			return rest, nil
		}
	}
	return "", errors.New("URL path is not /abs/, /pdf/ or /html/ followed by an identifier")
}
