// Package static embeds the web assets served under /static: the
// hand-written stylesheet and scripts, and vendor/ (htmx and its SSE
// extension), which `make vendor` copies from node_modules.
package static

import "embed"

// FS holds the assets. Only files with an asset extension are served.
//
//go:embed *
var FS embed.FS
