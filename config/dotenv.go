package config

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/joho/godotenv"
)

// WithDotenv returns a getenv that answers from lookup (the process
// environment) first and falls back to the variables in the dotenv file at
// path. A missing file is not an error: the file is optional (docs/features.md O2).
// The process environment is never modified.
func WithDotenv(lookup func(string) (string, bool), path string) (func(string) string, error) {
	file, err := godotenv.Read(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("config: read %s: %w", path, err)
	}
	return func(name string) string {
		if v, ok := lookup(name); ok {
			return v
		}
		return file[name]
	}, nil
}
