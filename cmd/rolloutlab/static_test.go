package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site writes a tiny built app into a temp dir and returns the dir.
func site(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":             "<!doctype html><title>x</title>",
		"index.html.br":          "BR-INDEX",
		"rolloutlab.wasm":        "\x00asm-plain",
		"rolloutlab.wasm.br":     "BR-WASM",
		"wasm_exec.js":           "// go",
		"assets/index-abc123.js": "console.log(1)",
		"assets/style.css":       "body{}",
		"docs/index.html":        "<p>docs</p>",
		"embed.html":             "<p>player</p>",
		"embed.js":               "// embed",
		"_headers":               "/*",
		".secret":                "no",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestStaticHandler(t *testing.T) {
	h := newStaticHandler(site(t))
	tests := []struct {
		name           string
		method, path   string
		acceptEncoding string
		wantStatus     int
		wantType       string
		wantEncoding   string
		wantBody       string
		wantCache      string
	}{
		{"root is index", "GET", "/", "", 200, "text/html; charset=utf-8", "", "<!doctype html><title>x</title>", "no-cache"},
		{"root prefers br", "GET", "/", "gzip, deflate, br", 200, "text/html; charset=utf-8", "br", "BR-INDEX", "no-cache"},
		{"wasm mime", "GET", "/rolloutlab.wasm", "", 200, "application/wasm", "", "\x00asm-plain", "no-cache"},
		{"wasm br keeps wasm mime", "GET", "/rolloutlab.wasm", "br", 200, "application/wasm", "br", "BR-WASM", "no-cache"},
		{"br refused with q=0", "GET", "/rolloutlab.wasm", "br;q=0, gzip", 200, "application/wasm", "", "\x00asm-plain", "no-cache"},
		{"no br sibling", "GET", "/wasm_exec.js", "br", 200, "text/javascript; charset=utf-8", "", "// go", "no-cache"},
		{"hashed asset is immutable", "GET", "/assets/index-abc123.js", "", 200, "text/javascript; charset=utf-8", "", "console.log(1)", "public, max-age=31536000, immutable"},
		{"css", "GET", "/assets/style.css", "", 200, "text/css; charset=utf-8", "", "body{}", "public, max-age=31536000, immutable"},
		{"subdirectory index", "GET", "/docs/", "", 200, "text/html; charset=utf-8", "", "<p>docs</p>", "no-cache"},
		{"head", "HEAD", "/rolloutlab.wasm", "", 200, "application/wasm", "", "", "no-cache"},
		{"missing", "GET", "/nope.js", "", 404, "", "", "", ""},
		{"directory without slash", "GET", "/docs", "", 404, "", "", "", ""},
		{"dot file", "GET", "/.secret", "", 404, "", "", "", ""},
		{"extensionless page", "GET", "/embed", "", 200, "text/html; charset=utf-8", "", "<p>player</p>", "no-cache"},
		{"embed script", "GET", "/embed.js", "", 200, "text/javascript; charset=utf-8", "", "// embed", "no-cache"},
		{"asset server config is private", "GET", "/_headers", "", 404, "", "", "", ""},
		{"traversal", "GET", "/../../etc/passwd", "", 404, "", "", "", ""},
		{"post", "POST", "/", "", 405, "", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			if tc.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tc.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d", res.StatusCode, tc.wantStatus)
			}
			if tc.wantStatus != http.StatusOK {
				return
			}
			check := func(what, got, want string) {
				if got != want {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("Content-Type", res.Header.Get("Content-Type"), tc.wantType)
			check("Content-Encoding", res.Header.Get("Content-Encoding"), tc.wantEncoding)
			check("Cache-Control", res.Header.Get("Cache-Control"), tc.wantCache)
			check("Vary", res.Header.Get("Vary"), "Accept-Encoding")
			check("body", rec.Body.String(), tc.wantBody)
			for k, v := range securityHeaders {
				check(k, res.Header.Get(k), v)
			}
			cors := ""
			if strings.HasPrefix(tc.path, "/assets/") || tc.path == "/embed.js" {
				cors = "*"
			}
			check("Access-Control-Allow-Origin", res.Header.Get("Access-Control-Allow-Origin"), cors)
		})
	}
}

// The CLI and Cloudflare's asset server (web/public/_headers) must send the
// same security headers.
func TestSecurityHeadersMatchAssetServer(t *testing.T) {
	b, err := os.ReadFile("../../web/public/_headers")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range securityHeaders {
		if !strings.Contains(string(b), "\n  "+k+": "+v+"\n") {
			t.Errorf("web/public/_headers lacks %s: %s", k, v)
		}
	}
	if !strings.Contains(securityHeaders["Content-Security-Policy"], "'wasm-unsafe-eval'") || !strings.Contains(securityHeaders["Content-Security-Policy"], "frame-ancestors *") {
		t.Errorf("CSP must allow wasm and embedding: %q", securityHeaders["Content-Security-Policy"])
	}
}

func TestStaticHandlerMissingDir(t *testing.T) {
	h := newStaticHandler(filepath.Join(t.TempDir(), "absent"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("status = %d, want 404", rec.Code)
	}
}

// The examples in acceptsBrotli's doc comment, plus edge cases.
func TestAcceptsBrotli(t *testing.T) {
	tests := []struct {
		header string
		want   bool
	}{
		{"gzip, deflate, br", true},
		{"br;q=0, gzip", false},
		{"*", true},
		{"", false},
		{"gzip", false},
		{"BR", true},
		{"br;q=0.5", true},
		{"br; q=0.0", false},
		{"*;q=0", false},
		{"*, br;q=0", false},
		{"br;q=nonsense", false},
		{"gzip;q=1.0, br;q=0.1", true},
	}
	for _, tc := range tests {
		if got := acceptsBrotli(tc.header); got != tc.want {
			t.Errorf("acceptsBrotli(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}
