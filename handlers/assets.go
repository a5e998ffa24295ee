package handlers

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// Static assets are read once at start-up: each file gets a content-hashed
// name (css/app.css → css/app.1a2b3c4d5e6f.css) that the pages link to and
// that may be cached for a year, since a changed file gets a new name.
// Files that compress are kept gzipped too, so they are compressed once
// rather than per request. The plain names keep answering (with a short
// cache) for links that cannot know the hash: fonts named inside KaTeX's
// stylesheet, bookmarks, older pages.

// assetTypes are the extensions served from the static tree; Go sources and
// anything else beside the assets are never served.
var assetTypes = map[string]bool{".css": true, ".js": true, ".svg": true, ".png": true, ".ico": true,
	".woff2": true, ".woff": true, ".ttf": true, ".map": true, ".txt": true}

// compressibleAssets are the asset types worth gzipping (fonts and images
// are compressed already).
var compressibleAssets = map[string]bool{".css": true, ".js": true, ".svg": true, ".map": true, ".txt": true}

const (
	// hashedMaxAge is the cache lifetime of content-hashed names.
	hashedMaxAge = "public, max-age=31536000, immutable"
	// plainMaxAge is the cache lifetime of plain names, which may change
	// content with a new release.
	plainMaxAge = "public, max-age=3600"
)

// asset is one static file as served.
type asset struct {
	name   string // plain name, "css/app.css"
	hashed string // content-hashed name, "css/app.1a2b3c4d5e6f.css"
	ctype  string
	etag   string // strong validator of the plain bytes
	data   []byte
	gz     []byte // gzipped data; nil when it would not be smaller
}

// assetTable is every static file by plain and by hashed name. It is built
// once and read-only afterwards, so safe for concurrent use.
type assetTable struct {
	byName map[string]*asset // plain and hashed names
	paths  map[string]string // plain name → hashed name (the views' AssetPaths)
}

// loadAssets reads every asset file of fsys, hashes and compresses it.
func loadAssets(fsys fs.FS) (*assetTable, error) {
	t := &assetTable{byName: map[string]*asset{}, paths: map[string]string{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !assetTypes[path.Ext(name)] {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		a, err := newAsset(name, data)
		if err != nil {
			return err
		}
		t.byName[a.name], t.byName[a.hashed], t.paths[a.name] = a, a, a.hashed
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("handlers: static assets: %w", err)
	}
	return t, nil
}

// newAsset hashes (and, when it pays, gzips) one file.
func newAsset(name string, data []byte) (*asset, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:6])
	ext := path.Ext(name)
	a := &asset{name: name, hashed: strings.TrimSuffix(name, ext) + "." + hash + ext, data: data,
		etag: `"` + hash + `"`, ctype: mime.TypeByExtension(ext)}
	if a.ctype == "" {
		a.ctype = "application/octet-stream"
	}
	if compressibleAssets[ext] {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(data); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		if buf.Len() < len(data) {
			a.gz = buf.Bytes()
		}
	}
	return a, nil
}

// serveStatic is GET and HEAD /static/*: one asset by plain or hashed
// name, gzipped when the client takes it, with an ETag and the cache
// lifetime its name allows.
func (s *Server) serveStatic(c echo.Context) error {
	name := strings.TrimPrefix(c.Param("*"), "/")
	if name != path.Clean(name) || !fs.ValidPath(name) {
		return echo.ErrNotFound
	}
	a, ok := s.assets.byName[name]
	if !ok {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", plainMaxAge)
	if name == a.hashed {
		h.Set("Cache-Control", hashedMaxAge)
	}
	h.Set("Content-Type", a.ctype)
	body, etag := a.data, a.etag
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(c.Request()) {
			body, etag = a.gz, `"`+strings.Trim(a.etag, `"`)+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		return c.NoContent(http.StatusNotModified)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.Response().WriteHeader(http.StatusOK)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	_, err := c.Response().Write(body)
	return err
}

// etagMatches reports whether an If-None-Match header names etag (or *).
func etagMatches(header, etag string) bool {
	for t := range strings.SplitSeq(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.TrimSpace(coding) != "*" {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
