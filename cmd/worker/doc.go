// Command worker is Rollout Lab's Cloudflare Worker, written in Go with
// github.com/syumai/workers and built with GOOS=js GOARCH=wasm.
//
// Its one job is hosting: wrangler's static assets serve the built app
// (web/dist), and this program answers a small share API backed by KV:
//
//	POST /api/scenarios       body: scenario YAML (≤ 256 KiB, UTF-8)
//	                          201 {"id":"<32 hex>"}; the id is a content hash,
//	                          so storing the same text twice yields the same id
//	GET  /api/scenarios/{id}  200 text/plain; 404 when absent or malformed
//	GET  /s/{id}              302 to /?s={id} (the app's short share link)
//	GET  /api/health          200 {"ok":true}
//
// Errors are JSON {"error":"..."} with 404, 405, 413 (too large; the body is
// still read and discarded, so a 30 MB post cannot stall the Worker), 422
// (not a scenario: see checkScenario), 429 (more than writesPerWindow writes
// from one address per window: see writeLimiter) or 500 (KV failure).
//
// Every response carries Content-Security-Policy, nosniff and Referrer-Policy
// (headers.go); the static app's headers (CSP allowing only its own scripts
// and wasm, frame-ancestors open for embedding, immutable hashed assets,
// revalidated HTML) come from web/public/_headers, which the asset server
// applies.
//
// Contract: the Worker never imports anything under engine/ (it must stay
// small and never runs simulations); it stores scenarios verbatim after a
// cheap structural check and never serves them as HTML. The HTTP logic (api.go) is plain Go, tested natively with
// an in-memory store; only kv_js.go and main.go touch the Workers runtime.
//
// Build and run locally: scripts/test-worker.sh (or `make test-worker`).
package main
