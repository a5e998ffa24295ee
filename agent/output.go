package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"unicode/utf8"

	"github.com/astroresearch/astroresearch/agent/textcut"
	fstools "github.com/astroresearch/astroresearch/agent/tools/fs"
)

// persistedPreviewChars is how much of a large output the model sees inline.
const persistedPreviewChars = 2000

var safeIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// outputFileName maps a tool call id to a file name; ids that are not plain
// (they come from the model) are hashed so they can never escape the dir.
func outputFileName(toolCallID string) string {
	if safeIDRE.MatchString(toolCallID) {
		return toolCallID + ".txt"
	}
	sum := sha256.Sum256([]byte(toolCallID))
	return hex.EncodeToString(sum[:12]) + ".txt"
}

// persistLargeOutput writes output over limit characters to
// {dataDir}/tool-results/{session}/{id}.txt once (create-new; an existing
// file is kept, so a retry is idempotent) and returns the stub the model
// gets instead, plus the file's path relative to the data dir (docs/features.md R14).
// The session directory keeps providers' repeated ids (call_0, ...) of
// different sessions and users apart. Output within the limit is returned
// unchanged with an empty path.
func persistLargeOutput(dataDir, session, toolCallID, output string, limit int) (string, string, error) {
	n := utf8.RuneCountInString(output)
	if n <= limit {
		return output, "", nil
	}
	rel := filepath.Join("tool-results", fstools.SessionDirName(session), outputFileName(toolCallID))
	full := filepath.Join(dataDir, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o750); err != nil {
		return "", "", fmt.Errorf("agent: tool-results dir: %w", err)
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	switch {
	case errors.Is(err, fs.ErrExist):
	case err != nil:
		return "", "", fmt.Errorf("agent: persist output: %w", err)
	default:
		_, werr := f.WriteString(output)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(full)
			return "", "", fmt.Errorf("agent: persist output: %w", werr)
		}
	}
	preview := textcut.Prefix(output, persistedPreviewChars)
	stub := fmt.Sprintf("<persisted-output path=%q chars=\"%d\">\n"+
		"The output was too long to show (%d characters). The full text is saved at %s; "+
		"read it with read_file using offset and limit.\nPreview:\n%s\n</persisted-output>",
		filepath.ToSlash(rel), n, n, filepath.ToSlash(rel), preview)
	return stub, filepath.ToSlash(rel), nil
}
