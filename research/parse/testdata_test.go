package parse

import (
	"os"
	"testing"
)

// readTestdata returns a fixture's bytes; a missing or unreadable one
// fails the test at once, not later as an empty page served by a fake.
func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
