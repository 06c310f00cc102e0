package main

import (
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// contentTypes fixes the MIME type of every file the app ships, so serving
// does not depend on the machine's /etc/mime.types. WebAssembly streaming
// compilation requires exactly application/wasm.
var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".json":  "application/json",
	".wasm":  "application/wasm",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".ico":   "image/x-icon",
	".txt":   "text/plain; charset=utf-8",
	".yaml":  "text/yaml; charset=utf-8",
	".woff2": "font/woff2",
}

// securityHeaders go on every response, as web/public/_headers gives them to
// Cloudflare's asset server (TestSecurityHeadersMatchAssetServer checks that
// both say the same). The CSP allows only the app's own scripts, workers and
// wasm; frame-ancestors is open because embedding is a feature.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors *",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "strict-origin-when-cross-origin",
}

// staticHandler serves the files under dir.
//
//   - "/" and any path ending in "/" serve that directory's index.html; a
//     path without an extension serves name.html when it exists ("/embed").
//   - When the client accepts br and name.br exists next to name, the .br
//     file is sent with Content-Encoding: br and name's Content-Type.
//   - Files under /assets/ carry a content hash in their names (Vite), so
//     they are cached for a year; everything else is revalidated.
//   - Only GET and HEAD are allowed; dot-files, the asset server's _headers
//     file and paths leaving dir are 404.
//   - Every response carries the security headers of web/public/_headers
//     (securityHeaders); hashed assets and /embed.js allow cross-origin reads
//     (the embed script is a module script).
type staticHandler struct {
	// root is the served directory; nothing outside it is ever opened.
	root *os.Root
}

func newStaticHandler(dir string) http.Handler {
	return staticHandler{root: openRoot(dir)}
}

// openRoot opens dir, or returns nil (the handler then answers 404) when it
// cannot be opened.
func openRoot(dir string) *os.Root {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	return r
}

func (h staticHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	rel := strings.TrimPrefix(name, "/")
	hdr := w.Header()
	for k, v := range securityHeaders {
		hdr.Set(k, v)
	}
	if h.root == nil || hasDotSegment(rel) || rel == "_headers" {
		http.NotFound(w, r)
		return
	}

	br := acceptsBrotli(r.Header.Get("Accept-Encoding"))
	f, info, encoded := h.open(rel, br)
	if f == nil && rel != "" && path.Ext(rel) == "" {
		rel += ".html"
		f, info, encoded = h.open(rel, br)
	}
	if f == nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()

	if ct, ok := contentTypes[path.Ext(rel)]; ok {
		hdr.Set("Content-Type", ct)
	} else if ct := mime.TypeByExtension(path.Ext(rel)); ct != "" {
		hdr.Set("Content-Type", ct)
	} else {
		hdr.Set("Content-Type", "application/octet-stream")
	}
	hdr.Add("Vary", "Accept-Encoding")
	if encoded {
		hdr.Set("Content-Encoding", "br")
	}
	if strings.HasPrefix(rel, "assets/") {
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hdr.Set("Cache-Control", "no-cache")
	}
	if strings.HasPrefix(rel, "assets/") || rel == "embed.js" {
		hdr.Set("Access-Control-Allow-Origin", "*")
	}
	// ServeContent adds Content-Length, Last-Modified and handles
	// If-Modified-Since and ranges (over the bytes actually sent).
	http.ServeContent(w, r, "", info.ModTime(), f)
}

// open returns the file to send for rel: its .br sibling when wanted and
// present, else rel itself. Directories and missing files yield nil.
func (h staticHandler) open(rel string, wantBrotli bool) (*os.File, fs.FileInfo, bool) {
	if wantBrotli {
		if f, info := h.openFile(rel + ".br"); f != nil {
			return f, info, true
		}
	}
	f, info := h.openFile(rel)
	return f, info, false
}

func (h staticHandler) openFile(rel string) (*os.File, fs.FileInfo) {
	f, err := h.root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, nil
	}
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		f.Close()
		return nil, nil
	}
	return f, info
}

// hasDotSegment reports whether any path segment starts with ".", which
// keeps dot-files (and "..", though path.Clean already removed it) private.
func hasDotSegment(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// acceptsBrotli reports whether an Accept-Encoding header value allows br,
// honouring q=0 (explicit refusal) and the "*" wildcard.
//
//	"gzip, deflate, br" → true
//	"br;q=0, gzip"      → false
//	"*"                 → true
//	""                  → false
func acceptsBrotli(header string) bool {
	wildcard := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "br" && coding != "*" {
			continue
		}
		ok := qualityPositive(params)
		if coding == "br" {
			return ok
		}
		wildcard = ok
	}
	return wildcard
}

// qualityPositive reports whether the parameters of one Accept-Encoding entry
// leave it acceptable: no q, or q > 0.
func qualityPositive(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q > 0
		}
	}
	return true
}
