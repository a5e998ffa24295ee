package memory

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// writeFile stores a memory as a Markdown file with front matter under
// memories/u{userID}/ and returns its path relative to the data directory.
// The name is random, so two saves never collide.
func (s *Service) writeFile(userID int64, kind, content string) (string, error) {
	dir := filepath.Join("memories", fmt.Sprintf("u%d", userID))
	if err := os.MkdirAll(filepath.Join(s.dataDir, dir), 0o750); err != nil {
		return "", fmt.Errorf("memory: create directory: %w", err)
	}
	suffix := make([]byte, 6)
	if _, err := rand.Read(suffix); err != nil {
		return "", err
	}
	rel := filepath.Join(dir, time.Now().UTC().Format("20060102-150405")+"-"+hex.EncodeToString(suffix)+".md")
	if err := os.WriteFile(filepath.Join(s.dataDir, rel), []byte(fileBody(kind, content)), 0o640); err != nil {
		return "", fmt.Errorf("memory: write file: %w", err)
	}
	return rel, nil
}

func fileBody(kind, content string) string {
	return "---\nkind: " + kind + "\n---\n" + content + "\n"
}
