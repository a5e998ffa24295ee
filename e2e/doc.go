// Package e2e holds the end-to-end tests and benchmarks of AstroResearch.
//
// Everything here runs against the real server binary, which TestMain builds
// once per `go test` run: browser tests drive Debian's Chromium through
// chromedp, and the benchmarks measure start-up time, idle memory, binary
// size and throughput under load. Nothing reaches the internet.
//
//	go test -tags sqlite_fts5 ./e2e/ -run Browser -v
//	go test -tags sqlite_fts5 ./e2e/ -run '^$' -bench . -benchtime 1x
//
// The package has no code outside its tests; this file only documents it.
package e2e
