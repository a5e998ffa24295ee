# syntax=docker/dockerfile:1
#
# AstroResearch container images. Two targets:
#   docker build --target alpine     -t astroresearch:alpine .      (default: musl, fully static)
#   docker build --target distroless -t astroresearch:distroless .  (glibc, dynamic)
# See the Docker section of README.md for the build arguments.

ARG GO_VERSION=1.26
ARG NODE_VERSION=22
ARG ALPINE_VERSION=3.22
# 1 = do not run npm; use the static/vendor/ already in the build context.
ARG SKIP_NPM=0
ARG NPM_REGISTRY=https://registry.npmjs.org/
ARG GOPROXY=https://proxy.golang.org,direct
# Empty = the image's default. Otherwise a base URL that replaces the scheme and
# host of dl-cdn.alpinelinux.org / deb.debian.org (same paths below it).
ARG ALPINE_MIRROR=
ARG DEBIAN_MIRROR=

# ---------------------------------------------------------------------------
# Front-end assets. "frontend" resolves to frontend-0 (npm) or frontend-1
# (nothing); BuildKit skips the unused stage, so SKIP_NPM=1 never pulls node.
FROM node:${NODE_VERSION}-alpine AS frontend-0
ARG NPM_REGISTRY
WORKDIR /src
COPY package.json package-lock.json ./
# npm rewrites registry.npmjs.org URLs in package-lock.json to --registry.
# --omit=dev: axe-core is for the browser tests only.
RUN npm ci --omit=dev --registry="$NPM_REGISTRY" --ignore-scripts --no-audit --no-fund \
 && mkdir -p /vendor/katex/fonts \
 && cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx-ext-sse/dist/sse.min.js /vendor/ \
 && cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css /vendor/katex/ \
 && cp node_modules/katex/dist/fonts/*.woff2 /vendor/katex/fonts/

FROM scratch AS frontend-1
# Empty: the build stages keep static/vendor/ from the build context.
WORKDIR /vendor

FROM frontend-${SKIP_NPM} AS frontend

# ---------------------------------------------------------------------------
# musl build: fully static binary.
FROM golang:${GO_VERSION}-alpine AS build-alpine
ARG ALPINE_MIRROR
ARG GOPROXY
# sqlite-dev only provides sqlite3.h, which sqlite-vec's cgo code includes; the
# SQLite library itself is the amalgamation compiled by mattn/go-sqlite3.
RUN if [ -n "$ALPINE_MIRROR" ]; then \
      sed -i "s#https*://dl-cdn.alpinelinux.org#${ALPINE_MIRROR%/}#g" /etc/apk/repositories; \
    fi \
 && apk add --no-cache build-base sqlite-dev
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# After the context so that fresh npm output wins over a stale static/vendor/.
COPY --from=frontend /vendor/ static/vendor/
RUN for f in htmx.min.js sse.min.js katex/katex.min.js katex/katex.min.css; do \
      [ -s "static/vendor/$f" ] || { echo "ERROR: static/vendor/$f is missing. Run 'npm ci && make vendor' before building with SKIP_NPM=1, or build with SKIP_NPM=0." >&2; exit 1; }; \
    done
# The -D flags work around sqlite-vec <= 0.1.9 typedef'ing the BSD u_int*_t
# types, which musl does not declare here (asg017/sqlite-vec#314); they are
# harmless once the bindings are upgraded past that.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 CGO_CFLAGS="-O2 -Du_int8_t=uint8_t -Du_int16_t=uint16_t -Du_int64_t=uint64_t" \
    go build -tags sqlite_fts5,osusergo,netgo -trimpath \
      -ldflags "-s -w -linkmode external -extldflags '-static'" \
      -o /out/astroresearch .

# ---------------------------------------------------------------------------
# glibc build. Must be bookworm: the binary links against the builder's glibc,
# and distroless/base-debian12 ships bookworm's (a trixie build would not run).
FROM golang:${GO_VERSION}-bookworm AS build-debian
ARG DEBIAN_MIRROR
ARG GOPROXY
RUN if [ -n "$DEBIAN_MIRROR" ]; then \
      sed -i "s#https*://deb.debian.org#${DEBIAN_MIRROR%/}#g" /etc/apt/sources.list.d/debian.sources; \
    fi \
 && apt-get update \
 && apt-get install -y --no-install-recommends libsqlite3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=frontend /vendor/ static/vendor/
RUN for f in htmx.min.js sse.min.js katex/katex.min.js katex/katex.min.css; do \
      [ -s "static/vendor/$f" ] || { echo "ERROR: static/vendor/$f is missing. Run 'npm ci && make vendor' before building with SKIP_NPM=1, or build with SKIP_NPM=0." >&2; exit 1; }; \
    done
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -tags sqlite_fts5 -trimpath -ldflags "-s -w" -o /out/astroresearch . \
 && mkdir -p /out/data

# ---------------------------------------------------------------------------
# glibc runtime. No shell, no wget, no pdftotext: no HEALTHCHECK here.
FROM gcr.io/distroless/base-debian12:nonroot AS distroless
COPY --from=build-debian /out/astroresearch /usr/local/bin/astroresearch
# An empty /data owned by nonroot (65532); a new named volume inherits it.
COPY --from=build-debian --chown=65532:65532 /out/data /data
ENV DATA_DIR=/data ADDR=:8080
VOLUME /data
EXPOSE 8080
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/astroresearch"]

# ---------------------------------------------------------------------------
# musl runtime. Last stage, so it is also what a plain `docker build .` gives.
FROM alpine:${ALPINE_VERSION} AS alpine
ARG ALPINE_MIRROR
# Same UID/GID as distroless's nonroot, so one volume works with both targets.
RUN if [ -n "$ALPINE_MIRROR" ]; then \
      sed -i "s#https*://dl-cdn.alpinelinux.org#${ALPINE_MIRROR%/}#g" /etc/apk/repositories; \
    fi \
 && apk add --no-cache ca-certificates tzdata poppler-utils bubblewrap bash \
 && addgroup -S -g 65532 nonroot \
 && adduser -S -D -H -u 65532 -G nonroot -h /data -s /sbin/nologin nonroot \
 && mkdir -p /data && chown 65532:65532 /data
COPY --from=build-alpine /out/astroresearch /usr/local/bin/astroresearch
ENV DATA_DIR=/data ADDR=:8080
VOLUME /data
EXPOSE 8080
USER 65532:65532
# Port taken from ADDR (":8080" -> 8080) in case it is overridden.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD wget -q -O /dev/null "http://127.0.0.1:${ADDR##*:}/healthz" || exit 1
ENTRYPOINT ["/usr/local/bin/astroresearch"]
