package main

import "net/http"

// apiCSP is the Content-Security-Policy of every API response: they are data
// (JSON or scenario text), never documents, so nothing may load or run from
// them, and they may not be framed. The app's own pages and assets are served
// by the asset server with the headers in web/public/_headers.
const apiCSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox"

// withSecurityHeaders sets the headers every Worker response carries.
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", apiCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
