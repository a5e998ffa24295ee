// Package migrations holds the database schema as numbered SQL files
// (NNNN_name.sql), embedded into the binary and applied in order at start-up
// by store.Migrate. A migration is never edited once released: add a new file.
package migrations

import "embed"

// FS contains every migration file. It is read-only.
//
//go:embed *.sql
var FS embed.FS
