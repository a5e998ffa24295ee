package arxiv

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidID is wrapped by every error ParseID returns.
var ErrInvalidID = errors.New("invalid arXiv identifier")

// maxIDInput bounds the text ParseID looks at; no identifier or arXiv URL
// comes anywhere near it.
const maxIDInput = 512

// ID is a normalised arXiv identifier.
//
// Base is the identifier without version: new style "2401.01234" (YYMM.NNNN
// before 2015, YYMM.NNNNN since) or old style "astro-ph/0601001" (archive in
// lower case, without the subject class, which is not part of the identifier:
// "math.GT/0309136" becomes "math/0309136"). Version is the version number,
// or 0 for "the latest version". The zero ID is no identifier.
type ID struct {
	Base    string
	Version int
}

// String returns the identifier as arXiv writes it: Base, followed by "vN"
// when Version > 0.
func (id ID) String() string {
	if id.Version > 0 {
		return id.Base + "v" + strconv.Itoa(id.Version)
	}
	return id.Base
}

// IsZero reports whether id is the zero ID.
func (id ID) IsZero() bool { return id == ID{} }

// OldStyle reports whether id is a pre-April-2007 "archive/YYMMNNN" identifier.
func (id ID) OldStyle() bool { return strings.Contains(id.Base, "/") }

// Unversioned returns id without its version, meaning the latest version.
func (id ID) Unversioned() ID { return ID{Base: id.Base} }

// MarshalText implements encoding.TextMarshaler with String.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseID, so it
// accepts every form ParseID does.
func (id *ID) UnmarshalText(b []byte) error {
	p, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*id = p
	return nil
}

// valid reports whether id is exactly what ParseID produces for its String,
// which guards hand-built IDs before they go into a URL or query.
func (id ID) valid() bool {
	p, err := ParseID(id.String())
	return err == nil && p == id
}

// ParseID parses an arXiv identifier in any form people paste: "2401.01234",
// "2401.01234v2", "arXiv:2401.01234v2", "arXiv:2401.01234 [astro-ph.GA]",
// "astro-ph/0601001v1", "math.GT/0309136", and URLs of arxiv.org,
// export.arxiv.org, ar5iv.labs.arxiv.org and ar5iv.org under /abs/, /pdf/
// (with or without ".pdf") and /html/, with or without scheme. Surrounding
// whitespace is ignored. The date part is checked (month 01–12; new style
// from 0704, with four-digit numbers before 1501 and five from 1501; old
// style from 1991 to 2007 with a known archive). Errors wrap ErrInvalidID
// and say what is wrong.
func ParseID(s string) (ID, error) {
	id, err := parseID(s)
	if err != nil {
		return ID{}, fmt.Errorf("arxiv: %w %s: %s", ErrInvalidID, quoteInput(s), err)
	}
	return id, nil
}

func parseID(s string) (ID, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return ID{}, errors.New("it is empty")
	case len(s) > maxIDInput:
		return ID{}, errors.New("it is too long")
	}
	if looksLikeURL(s) {
		var err error
		if s, err = pathFromURL(s); err != nil {
			return ID{}, err
		}
	} else {
		s = trimCategorySuffix(s)
	}
	s = trimArxivPrefix(s)
	base, version, err := splitVersion(s)
	if err != nil {
		return ID{}, err
	}
	if strings.Contains(base, "/") {
		base, err = parseOldBase(base)
	} else {
		err = checkNewBase(base)
	}
	if err != nil {
		return ID{}, err
	}
	return ID{Base: base, Version: version}, nil
}

// quoteInput quotes s for an error message, shortened.
func quoteInput(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

// trimArxivPrefix removes a leading "arXiv:" (any case, optional space after).
func trimArxivPrefix(s string) string {
	if len(s) >= 6 && strings.EqualFold(s[:6], "arxiv:") {
		return strings.TrimSpace(s[6:])
	}
	return s
}

// trimCategorySuffix removes the " [astro-ph.GA]" of the citation form
// "arXiv:2401.01234 [astro-ph.GA]".
func trimCategorySuffix(s string) string {
	if !strings.HasSuffix(s, "]") {
		return s
	}
	i := strings.LastIndexByte(s, '[')
	if i <= 0 || !ValidCategory(s[i+1:len(s)-1]) {
		return s
	}
	return strings.TrimSpace(s[:i])
}

// splitVersion splits "2401.01234v2" into "2401.01234" and 2. A version must
// be 1–9999 without leading zeros.
func splitVersion(s string) (string, int, error) {
	i := strings.LastIndexByte(s, 'v')
	if i <= 0 || !allDigits(s[i+1:]) {
		return s, 0, nil
	}
	digits := s[i+1:]
	if len(digits) > 4 || digits[0] == '0' {
		return "", 0, fmt.Errorf("bad version %q (versions are v1, v2, ... without leading zeros)", "v"+digits)
	}
	n, _ := strconv.Atoi(digits)
	return s[:i], n, nil
}

// checkNewBase accepts YYMM.NNNN (0704–1412) and YYMM.NNNNN (1501 on).
func checkNewBase(b string) error {
	dot := strings.IndexByte(b, '.')
	if dot != 4 || !allDigits(b[:4]) || !allDigits(b[5:]) {
		return errors.New("not of the form YYMM.NNNNN or archive/YYMMNNN")
	}
	yymm, num := b[:4], b[5:]
	if m := atoi(yymm[2:]); m < 1 || m > 12 {
		return fmt.Errorf("month %s is not 01–12", yymm[2:])
	}
	switch {
	case yymm < "0704":
		return errors.New("new-style identifiers start in April 2007 (0704)")
	case yymm < "1501" && len(num) != 4:
		return fmt.Errorf("identifiers from %s have a 4-digit number", yymm)
	case yymm >= "1501" && len(num) != 5:
		return fmt.Errorf("identifiers since 2015 have a 5-digit number, got %d digits", len(num))
	case atoi(num) == 0:
		return errors.New("the number is zero")
	}
	return nil
}

// parseOldBase checks "archive(.SC)/YYMMNNN" and returns it normalised to
// "archive/YYMMNNN".
func parseOldBase(b string) (string, error) {
	archive, num, _ := strings.Cut(b, "/")
	archive = strings.ToLower(archive)
	if a, class, ok := strings.Cut(archive, "."); ok {
		if !isSubjectClass(class) {
			return "", fmt.Errorf("bad subject class %q", class)
		}
		archive = a
	}
	if !oldArchive(archive) {
		return "", fmt.Errorf("unknown archive %q", archive)
	}
	if len(num) != 7 || !allDigits(num) {
		return "", errors.New("old-style identifiers are archive/YYMMNNN with 7 digits")
	}
	yy, mm := atoi(num[:2]), atoi(num[2:4])
	switch {
	case yy > 7 && yy < 91:
		return "", fmt.Errorf("old-style identifiers run from 1991 to 2007, not year %s", num[:2])
	case mm < 1 || mm > 12:
		return "", fmt.Errorf("month %s is not 01–12", num[2:4])
	case atoi(num[4:]) == 0:
		return "", errors.New("the number is zero")
	}
	return archive + "/" + num, nil
}

// isSubjectClass reports whether s looks like an old-style subject class
// ("gt", "co" after lower-casing), letters and inner hyphens only.
func isSubjectClass(s string) bool {
	if s == "" || len(s) > 20 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}

// oldArchive reports whether a is an archive that issued old-style
// identifiers.
func oldArchive(a string) bool {
	switch a {
	case "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph",
		"bayes-an", "chao-dyn", "chem-ph", "cmp-lg", "comp-gas", "cond-mat",
		"cs", "dg-ga", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph",
		"hep-th", "math", "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th",
		"patt-sol", "physics", "plasm-ph", "q-alg", "q-bio", "quant-ph",
		"solv-int", "supr-con":
		return true
	}
	return false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// atoi converts a string already checked by allDigits.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
