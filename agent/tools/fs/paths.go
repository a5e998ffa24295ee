package fs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxPathLen bounds a path argument.
const MaxPathLen = 4096

// Root names of the addressing scheme.
const (
	RootWorkspace   = "workspace"
	RootLibrary     = "library"
	RootSkills      = "skills"
	RootToolResults = "tool-results"
)

// rootOrder is the order roots are listed in messages and descriptions.
var rootOrder = [...]string{RootWorkspace, RootLibrary, RootSkills, RootToolResults}

// ErrBadPath is wrapped by every CleanPath error.
var ErrBadPath = errors.New("path refused")

// CleanPath checks a path given by the model and returns it in canonical
// form: slash-separated, relative, without "." or empty components, "."
// for the empty path. It refuses, with a message the model can act on,
// NUL and other control characters, backslashes, invalid UTF-8, a leading
// "~", absolute paths (including Windows volume names) and any ".."
// component. A returned path is always local (filepath.IsLocal) or ".".
// It does not know the roots; Roots.resolve splits off the root name.
func CleanPath(p string) (string, error) {
	p = strings.TrimSpace(p)
	switch {
	case len(p) > MaxPathLen:
		return "", fmt.Errorf("%w: longer than %d bytes", ErrBadPath, MaxPathLen)
	case !utf8.ValidString(p):
		return "", fmt.Errorf("%w: not valid UTF-8", ErrBadPath)
	case strings.IndexByte(p, 0) >= 0:
		return "", fmt.Errorf("%w: it contains a NUL byte", ErrBadPath)
	case strings.ContainsFunc(p, isControl):
		return "", fmt.Errorf("%w: it contains a control character", ErrBadPath)
	case strings.Contains(p, `\`):
		return "", fmt.Errorf("%w: use forward slashes (/), not backslashes", ErrBadPath)
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("%w: there is no home directory (~); paths are relative to a root, e.g. workspace/notes.md", ErrBadPath)
	case strings.HasPrefix(p, "/") || hasVolume(p):
		return "", fmt.Errorf("%w: absolute paths are not allowed; use a root-relative path such as workspace/notes.md", ErrBadPath)
	}
	for part := range strings.SplitSeq(p, "/") {
		if part == ".." {
			return "", fmt.Errorf("%w: '..' is not allowed; name the file from its root, e.g. library/2401.01234.md", ErrBadPath)
		}
	}
	clean := path.Clean(p)
	if clean == "" {
		clean = "."
	}
	// Defence in depth: the checks above already guarantee this.
	if clean != "." && !filepath.IsLocal(filepath.FromSlash(clean)) {
		return "", fmt.Errorf("%w: not a local path", ErrBadPath)
	}
	return clean, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// hasVolume reports whether p starts with a Windows drive ("C:").
func hasVolume(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// splitRoot splits a cleaned path into its root name and the rest ("."
// for the root itself). A first component that is not a root name means
// the workspace.
func splitRoot(clean string) (root, rest string) {
	first, after, _ := strings.Cut(clean, "/")
	for _, name := range rootOrder {
		if first == name {
			if after == "" {
				after = "."
			}
			return name, after
		}
	}
	return RootWorkspace, clean
}

// joinDisplay joins a display prefix ("library") and a slash path inside
// it ("." for the prefix itself).
func joinDisplay(prefix, rel string) string {
	if rel == "." || rel == "" {
		return prefix
	}
	return prefix + "/" + rel
}

var safeSessionRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// SessionDirName is the directory under {data}/tool-results that holds a
// session's persisted outputs: the id itself when it is plain, otherwise a
// hash of it. It must agree with the runtime's persistLargeOutput (package
// agent), which names the directory the same way.
func SessionDirName(sessionID string) string {
	if safeSessionRE.MatchString(sessionID) {
		return sessionID
	}
	sum := sha256.Sum256([]byte(sessionID))
	return hex.EncodeToString(sum[:12])
}

// UserWorkspace is the directory, relative to the workspace root, that
// holds one user's files (the workspace the file tools and run_bash share
// for that user).
func UserWorkspace(uid int64) string { return fmt.Sprintf("u%d", uid) }
