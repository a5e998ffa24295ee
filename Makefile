# AstroResearch — every target installs what it needs on a fresh Debian machine
# (Go 1.26, node/npm; Debian packages are installed only when running as root).

SHELL   := /bin/bash
GO      ?= go
TAGS    := sqlite_fts5
BIN     := bin/astroresearch
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
TEMPL   := $(GO) run github.com/a-h/templ/cmd/templ@v0.3.1100
# The linter, pinned: go run builds it once into the Go build cache.
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
LDFLAGS := -s -w -X main.version=$(VERSION)
# Packages whose tests exercise concurrency; CI runs them with -race.
RACE_PKGS := ./store/... ./auth/... ./handlers/... ./agent/... ./research/... ./internal/...

.PHONY: all run build test race lint bench docker vendor generate deps-c deps-browser deps-pdf deps-parse deps-tex clean

all: build

## run: build and start the server on :8080 with SQLite in ./data
run: build
	./$(BIN)

## build: the single binary in bin/
build: deps-c deps-pdf vendor generate
	$(GO) build -tags $(TAGS) -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) .

## test: every test, browser tests included (e2e always re-runs: it builds
## the binary itself, which Go's test cache cannot see)
test: deps-c deps-browser deps-parse deps-tex vendor generate
	$(GO) test -tags $(TAGS) $$($(GO) list ./... | grep -v /e2e)
	$(GO) test -count=1 -tags $(TAGS) ./e2e/

## race: the concurrent packages under the race detector
race: deps-c vendor generate
	$(GO) test -race -tags $(TAGS) $(RACE_PKGS)

## lint: staticcheck (pinned) over every package, browser tests included;
## a finding that is deliberate carries a //lint:ignore CHECK reason line
lint: deps-c vendor generate
	$(STATICCHECK) -tags $(TAGS) ./...

## bench: benchmarks (figures are printed, nothing is asserted)
bench: deps-c deps-browser deps-parse deps-tex vendor generate
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem -benchtime 1x ./...

## docker: both image targets (needs a Docker engine)
docker:
	docker build --target alpine -t astroresearch:alpine .
	docker build --target distroless -t astroresearch:distroless .

## generate: templ components → *_templ.go (committed)
generate:
	$(TEMPL) generate -log-level warn

## vendor: htmx, its SSE extension and KaTeX (script, stylesheet, woff2
## fonts) from npm into static/vendor. axe-core (devDependencies) stays in
## node_modules: only the browser tests inject it, it is never served.
vendor: static/vendor/htmx.min.js static/vendor/sse.min.js static/vendor/katex/katex.min.js

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

static/vendor/htmx.min.js: node_modules/.package-lock.json
	cp node_modules/htmx.org/dist/htmx.min.js $@

static/vendor/sse.min.js: node_modules/.package-lock.json
	cp node_modules/htmx-ext-sse/dist/sse.min.js $@

# The stylesheet lists woff2 first; every browser we support takes it, so
# the woff/ttf fallbacks are not copied.
static/vendor/katex/katex.min.js: node_modules/.package-lock.json
	mkdir -p static/vendor/katex/fonts
	cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css static/vendor/katex/
	cp node_modules/katex/dist/fonts/*.woff2 static/vendor/katex/fonts/

# cgo needs a C compiler and sqlite3.h (sqlite-vec's bindings include it);
# the diff tests apply patches with patch(1).
deps-c:
	@if ! command -v gcc >/dev/null || [ ! -f /usr/include/sqlite3.h ] || ! command -v patch >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev libsqlite3-dev patch; \
	  else echo "install gcc and libsqlite3-dev (Debian) first" >&2; exit 1; fi; \
	fi

# Browser tests drive Debian's Chromium through chromedp; run_bash's
# sandbox tests need bubblewrap.
deps-browser:
	@if [ ! -x /usr/bin/chromium ] || ! command -v bwrap >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver bubblewrap; \
	  else echo "install chromium, chromium-driver and bubblewrap (Debian) for the tests" >&2; exit 1; fi; \
	fi

# The PDF engine runs poppler's pdftotext (a missing pdftotext is not fatal
# for building: only parsing PDFs needs it, and says so).
deps-pdf:
	@if ! command -v pdftotext >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils; \
	  else echo "install poppler-utils (Debian) to parse PDFs" >&2; fi; \
	fi

# The PDF engine's quality tests compare against the journal samples (PDF +
# LaTeX source) in texlive-publishers-doc.
deps-parse: deps-pdf
	@if ! command -v pdftotext >/dev/null || [ ! -f /usr/share/doc/texlive-doc/latex/mnras/mnras_guide.pdf ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils texlive-publishers-doc; \
	  else echo "install poppler-utils and texlive-publishers-doc (Debian) first" >&2; exit 1; fi; \
	fi

# The research record's methods appendix is checked by compiling it with
# pdflatex and the AASTeX class (Debian's TeX Live).
deps-tex:
	@if ! command -v pdflatex >/dev/null || ! kpsewhich aastex631.cls >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq texlive-latex-base texlive-latex-recommended texlive-plain-generic texlive-fonts-recommended texlive-publishers; \
	  else echo "install texlive-latex-base and texlive-publishers (Debian) to compile the record's TeX in the tests" >&2; fi; \
	fi

clean:
	rm -rf bin node_modules static/vendor/*.js static/vendor/katex
