// Command worker is Rollout Lab's Cloudflare Worker, written in Go with
// github.com/syumai/workers and built with GOOS=js GOARCH=wasm.
//
// Its one job is hosting: wrangler's static assets serve the built app
// (web/dist), and this program answers a small share API backed by KV:
//
//	POST /api/scenarios       body: scenario YAML (≤ 256 KiB, UTF-8)
//	                          201 {"id":"<32 hex>"}; the id is a content hash,
//	                          so storing the same text twice yields the same id
//	GET  /api/scenarios/{id}  200 text/yaml; 404 when absent or malformed
//	GET  /api/health          200 {"ok":true}
//
// Errors are JSON {"error":"..."} with 400 (empty or non-UTF-8 body), 404,
// 405, 413 (too large) or 500 (KV failure).
//
// Contract: the Worker never imports anything under engine/ (it must stay
// small and never runs simulations); it stores scenarios verbatim and does
// not parse them. The HTTP logic (api.go) is plain Go, tested natively with
// an in-memory store; only kv_js.go and main.go touch the Workers runtime.
//
// Build and run locally: scripts/test-worker.sh (or `make test-worker`).
package main
