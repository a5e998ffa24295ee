package ads

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrMalformedID means a bibcode, DOI or arXiv identifier is not well formed.
// It is returned before any request is made.
var ErrMalformedID = errors.New("malformed identifier")

// maxDOILen bounds NormalizeDOI's output; real DOIs are far shorter.
const maxDOILen = 300

// ValidBibcode reports whether s looks like an ADS bibcode: 19 ASCII
// characters YYYYJJJJJVVVVMPPPPA — a four-digit year, then journal, volume,
// qualifier, page and first-author initial, padded with dots. It is
// permissive about the middle (ADS has many odd journal abbreviations, "A&A",
// "arXiv", "yCat"): letters, digits and ". & : + -" are allowed. It
// rejects garbage: wrong length, non-ASCII, spaces, quotes, slashes and
// other punctuation, a journal starting with a dot, or a last character
// that is neither a letter nor a dot. A valid bibcode is therefore safe as
// a URL path segment.
func ValidBibcode(s string) bool {
	if len(s) != 19 {
		return false
	}
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	if !isASCIIAlnum(s[4]) && s[4] != '&' {
		return false
	}
	for i := 4; i < 19; i++ {
		c := s[i]
		if !isASCIIAlnum(c) && !strings.ContainsRune(".&:+-", rune(c)) {
			return false
		}
	}
	last := s[18]
	return isASCIILetter(last) || last == '.'
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIAlnum(c byte) bool  { return isASCIILetter(c) || c >= '0' && c <= '9' }

// doiPrefixes returns the forms in which people paste DOIs, matched case-
// insensitively and removed, longest first.
func doiPrefixes() []string {
	return []string{
		"https://dx.doi.org/", "http://dx.doi.org/",
		"https://doi.org/", "http://doi.org/",
		"dx.doi.org/", "doi.org/", "doi:",
	}
}

// doiRe is the shape of a DOI after prefix removal: "10.", a registrant
// code of 4–9 digits with optional ".digits" subdivisions, "/", a suffix.
var doiRe = regexp.MustCompile(`^10\.[0-9]{4,9}(\.[0-9]+)*/.+$`)

// NormalizeDOI returns the bare DOI ("10.3847/2041-8213/ab0ec7") for s,
// which may be a bare DOI, "doi:10.…", or a doi.org / dx.doi.org URL
// (percent-encoding in a URL is decoded). Surrounding space is trimmed and
// the "10.NNNN" prefix part is lower-cased; the suffix keeps its case
// (DOIs compare case-insensitively: use strings.EqualFold). It fails with
// an error wrapping ErrMalformedID when the result is not 10.<registrant>/
// <suffix>, is longer than 300 bytes, is not valid UTF-8, or contains
// spaces or control characters. The result is a fixed point:
// NormalizeDOI(out) == out.
func NormalizeDOI(s string) (string, error) {
	d := strings.TrimSpace(s)
	prefixes := doiPrefixes()
	for {
		stripped := false
		for _, p := range prefixes {
			if len(d) >= len(p) && strings.EqualFold(d[:len(p)], p) {
				isURL := strings.Contains(p, "/")
				d = strings.TrimSpace(d[len(p):])
				if isURL {
					u, err := url.PathUnescape(d)
					if err != nil {
						return "", fmt.Errorf("ads: DOI %q: bad URL escape: %w", s, ErrMalformedID)
					}
					d = u
				}
				stripped = true
				break
			}
		}
		if !stripped {
			break
		}
	}
	if err := checkDOI(d); err != nil {
		return "", fmt.Errorf("ads: DOI %q: %w", s, err)
	}
	slash := strings.IndexByte(d, '/')
	return strings.ToLower(d[:slash]) + d[slash:], nil
}

// checkDOI applies the shape and character rules to a prefix-free DOI.
func checkDOI(d string) error {
	switch {
	case len(d) > maxDOILen:
		return fmt.Errorf("longer than %d bytes: %w", maxDOILen, ErrMalformedID)
	case !utf8.ValidString(d):
		return fmt.Errorf("not valid UTF-8: %w", ErrMalformedID)
	case strings.ContainsFunc(d, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Errorf("contains space or control characters: %w", ErrMalformedID)
	case !doiRe.MatchString(d):
		return fmt.Errorf("not of the form 10.NNNN/suffix: %w", ErrMalformedID)
	}
	return nil
}

var (
	// arxivNewRe: 0704.0001 onwards, 4-digit numbers until 1412, 5 after.
	arxivNewRe = regexp.MustCompile(`^[0-9]{4}\.[0-9]{4,5}$`)
	// arxivOldRe: archive(.SUBJ)/YYMMNNN, e.g. astro-ph/0601001, math.GT/0309136.
	arxivOldRe = regexp.MustCompile(`^[a-z]+(-[a-z]+)?(\.[A-Z]{2})?/[0-9]{7}$`)
	versionRe  = regexp.MustCompile(`v[0-9]+$`)
)

// normalizeArxiv returns the version-less arXiv id for s ("arXiv:1906.11238v2"
// → "1906.11238"), or an error wrapping ErrMalformedID.
func normalizeArxiv(s string) (string, error) {
	id := strings.TrimSpace(s)
	if len(id) >= 6 && strings.EqualFold(id[:6], "arxiv:") {
		id = strings.TrimSpace(id[6:])
	}
	id = versionRe.ReplaceAllString(id, "")
	if arxivNewRe.MatchString(id) || arxivOldRe.MatchString(id) {
		return id, nil
	}
	return "", fmt.Errorf("ads: arXiv id %q: %w", s, ErrMalformedID)
}
